// When req.raw's 'end' comes relative to its last 'data': on node:http a
// turn of microtasks runs in between (the 'end' is emitted from a later
// tick), so what a 'data' listener set off through promises (an async
// iterator reading a multipart part, @fastify/multipart's toBuffer())
// runs before the stream ends. On wire it ended in the same turn, and
// @fastify/multipart took a truncated form for a premature close. The
// order of 'data', the ticks and microtasks each queued, and 'end' is
// compared with Fastify's over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} app @param {string[]} order */
function build (app, order) {
  app.addContentTypeParser('application/x-raw', (/** @type {any} */ _req, /** @type {any} */ _payload, /** @type {Function} */ done) => done(null))
  app.post('/', async (/** @type {any} */ req) => {
    const raw = req.raw
    let mark = 0
    for (const event of ['data', 'end', 'close']) {
      raw.on(event, () => {
        const m = ++mark
        order.push(`${event}#${m}`)
        process.nextTick(() => order.push(`tick#${m}`))
        queueMicrotask(() => order.push(`microtask#${m}`))
      })
    }
    await once(raw, 'close')
    return 'read'
  })
}

/** @param {number} port */
async function post (port) {
  const body = Buffer.alloc(1200, 'a')
  const req = http.request({ host: '127.0.0.1', port, path: '/', method: 'POST', headers: { 'content-type': 'application/x-raw', 'content-length': body.length } })
  req.end(body)
  const [res] = await once(req, 'response')
  res.resume()
  await once(res, 'end')
  return res.statusCode
}

for (const engine of ['node', 'wire']) {
  test(`req.raw's 'end' comes a turn of microtasks after its last 'data', as on Fastify [${engine}]`, async () => {
    const orders = []
    for (const make of [() => Fastify(), () => hotpathFastify({ engine })]) {
      /** @type {string[]} */
      const order = []
      const app = make()
      build(app, order)
      await app.listen({ port: 0, host: '127.0.0.1' })
      try {
        assert.equal(await post(app.server.address().port), 200)
      } finally {
        await app.close()
      }
      orders.push(order.slice(0, 4))
    }
    assert.deepEqual(orders[1], orders[0])
    assert.deepEqual(orders[0], ['data#1', 'tick#1', 'microtask#1', 'end#2'])
  })
}
