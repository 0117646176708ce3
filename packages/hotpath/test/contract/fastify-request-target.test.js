// The request-target's length and the first preParsing hook's payload,
// beside real Fastify: hotpath/fastify takes a request-target as long as
// the head's limit allows (16 KiB, node:http's maxHeaderSize), as Fastify
// does, where hotpath's own entry answers one past 8 KiB 414
// (`maxUrlLength`); past the head's limit both answer 431. The first
// preParsing hook gets req.raw itself as its payload, on every engine and
// under inject.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { createRequire } from 'node:module'
import hotpath from '../../lib/index.js'
import hotpathFastify from '../../lib/fastify.js'
import { HTTP1_MODES } from '../helpers/engines.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/**
 * GET `path` over a socket; the status.
 * @param {number} port
 * @param {string} path
 * @returns {Promise<number>}
 */
function get (port, path) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false, maxHeaderSize: 64 * 1024 }, (res) => {
      res.resume()
      res.on('end', () => resolve(/** @type {number} */ (res.statusCode)))
    }).on('error', reject)
  })
}

/**
 * The status `app` answers `path` with, in `mode` (inject or a socket).
 * @param {any} app
 * @param {string} mode
 * @param {string} path
 */
async function statusOf (app, mode, path) {
  app.get('/t', async () => 'ok')
  if (mode === 'inject') {
    const res = await app.inject(path)
    await app.close()
    return res.statusCode
  }
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    return await get(app.server.address().port, path)
  } finally {
    await app.close()
  }
}

for (const mode of HTTP1_MODES) {
  const engine = mode === 'inject' ? {} : { engine: mode }
  // Fastify over a socket runs on node:http; under inject, on light-my-request
  for (const [length, label] of [[12 * 1024, '12 KiB'], [20 * 1024, '20 KiB']]) {
    // under inject there is no head to count: a long target is taken
    if (mode === 'inject' && length > 16 * 1024) continue
    test(`a request-target of ${label}: hotpath/fastify answers as Fastify [${mode}]`, async () => {
      const path = `/t?q=${'a'.repeat(length)}`
      const fastify = await statusOf(Fastify(), mode, path)
      const ours = await statusOf(hotpathFastify(engine), mode, path)
      assert.equal(ours, fastify)
      assert.equal(ours, length > 16 * 1024 ? 431 : 200)
    })
  }

  test(`hotpath's own entry answers a request-target past maxUrlLength 414 [${mode}]`, async () => {
    assert.equal(await statusOf(hotpath(engine), mode, `/t?q=${'a'.repeat(9000)}`), 414)
    assert.equal(await statusOf(hotpath({ ...engine, maxUrlLength: 100 }), mode, `/t?q=${'a'.repeat(200)}`), 414)
    assert.equal(await statusOf(hotpath({ ...engine, maxUrlLength: 0 }), mode, `/t?q=${'a'.repeat(9000)}`), 200)
  })

  test(`the first preParsing hook's payload is req.raw, and reading it gives the body [${mode}]`, async () => {
    /** @type {Record<string, unknown>} */
    const out = {}
    for (const [name, app] of [['fastify', Fastify()], ['hotpath', hotpathFastify(engine)]]) {
      /** @type {unknown[]} */
      const seen = []
      app.addHook('preParsing', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => { seen.push(payload === req.raw) })
      app.post('/b', async (/** @type {any} */ req) => req.body)
      let body
      if (mode === 'inject') {
        body = (await app.inject({ method: 'POST', url: '/b', payload: { a: 1 } })).json()
      } else {
        await app.listen({ port: 0, host: '127.0.0.1' })
        const res = await fetch(`http://127.0.0.1:${app.server.address().port}/b`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } })
        body = await res.json()
      }
      await app.close()
      out[name] = { seen, body }
    }
    assert.deepEqual(out.hotpath, out.fastify)
    assert.deepEqual(out.hotpath, { seen: [true], body: { a: 1 } })
  })
}
