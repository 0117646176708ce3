// reply.raw.flushHeaders() sends the head at once, before any body (an
// event stream opens with it, the client's EventSource fires 'open'), and
// the body after it is streamed (chunked), as on node:http. Over a socket
// on each HTTP/1.1 engine beside Fastify: the client has the head while
// the handler still holds the body back; then the body, and the next
// request on the connection.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} app @param {{ release: () => void } []} gates */
function build (app, gates) {
  app.get('/events', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.setHeader('content-type', 'text/event-stream')
    reply.raw.flushHeaders()
    gates.push({ release: () => reply.raw.end('data: 1\n\n') })
  })
  app.get('/now', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.flushHeaders()
    reply.raw.end('same turn')
  })
  app.get('/', () => 'next')
}

/**
 * @param {http.Agent} agent
 * @param {number} port
 * @param {string} path
 * @param {() => void} [onHead]
 */
function get (agent, port, path, onHead) {
  return new Promise((resolve, reject) => {
    http.get({ agent, host: '127.0.0.1', port, path }, (res) => {
      onHead?.()
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => { body += c })
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'] ?? null, framing: res.headers['transfer-encoding'] ?? `length ${res.headers['content-length']}`, body }))
    }).on('error', reject)
  })
}

for (const engine of ['node', 'wire']) {
  test(`flushHeaders() sends the head before the body, then streams it, as on Fastify [${engine}]`, async () => {
    const results = []
    for (const make of [() => Fastify(), () => hotpathFastify({ engine })]) {
      /** @type {{ release: () => void }[]} */
      const gates = []
      const app = make()
      build(app, gates)
      await app.listen({ port: 0, host: '127.0.0.1' })
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const port = app.server.address().port
        let headFirst = false
        // the head comes while the handler still holds the body back
        const events = get(agent, port, '/events', () => { headFirst = gates.length === 1 && !released })
        let released = false
        while (gates.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
        // the client has the head before the body is written
        for (let i = 0; i < 1000 && !headFirst; i++) await new Promise((resolve) => setTimeout(resolve, 5))
        released = true
        gates[0].release()
        results.push({ headFirst, events: await events, now: await get(agent, port, '/now'), next: await get(agent, port, '/') })
      } finally {
        agent.destroy()
        await app.close()
      }
    }
    assert.deepEqual(results[1], results[0])
    assert.deepEqual(results[0].headFirst, true)
    assert.deepEqual(results[0].events, { status: 200, type: 'text/event-stream', framing: 'chunked', body: 'data: 1\n\n' })
    assert.deepEqual(results[0].now.framing, 'chunked')
  })
}
