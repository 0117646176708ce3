// An app that ends the connection itself: `req.raw.destroy()` of a request
// whose body was not read to its end (a GET nobody read counts), as
// @fastify/static's error handler does on a premature close,
// `reply.raw.destroy()`, `reply.raw.socket.destroy()`. Over a socket the
// client sees the connection reset, and the server goes on; through
// inject() the injection fails with light-my-request's LIGHT_ECONNRESET.
// A request whose body was read whole keeps its connection (node:http's
// rule) and is answered. Each case beside Fastify, on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} app */
function build (app) {
  app.get('/request', (/** @type {any} */ req, /** @type {any} */ reply) => { req.raw.destroy(); return reply })
  app.get('/response', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.raw.destroy(); return reply })
  app.get('/socket', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.raw.socket.destroy(); return reply })
  app.get('/error-handler', {
    onRequest: (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ done) => done(Object.assign(new Error('closed early'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })),
    errorHandler (/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) { reply.request.raw.destroy() }
  }, () => 'never')
  app.post('/read-whole', (/** @type {any} */ req) => { req.raw.destroy(); return { body: req.body } })
  app.get('/', () => 'alive')
}

const CASES = [
  { method: 'GET', url: '/request' },
  { method: 'GET', url: '/response' },
  { method: 'GET', url: '/socket' },
  { method: 'GET', url: '/error-handler' },
  { method: 'POST', url: '/read-whole', payload: '{"a":1}' },
  { method: 'GET', url: '/' }
]

/**
 * What the client saw: a status and body, or the error's code.
 * @param {number} port
 * @param {{ method: string, url: string, payload?: string }} ask
 */
function overSocket (port, ask) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: ask.method, path: ask.url, agent: false, headers: ask.payload ? { 'content-type': 'application/json' } : {} }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => { body += c })
      res.on('end', () => resolve(`${res.statusCode} ${body}`))
      res.on('error', (err) => resolve(`response error ${/** @type {any} */ (err).code}`))
    })
    req.on('error', (err) => resolve(`error ${/** @type {any} */ (err).code}`))
    req.end(ask.payload)
  })
}

/** @param {any} app @param {{ method: string, url: string, payload?: string }} ask */
async function injected (app, ask) {
  try {
    const res = await app.inject({ ...ask, headers: ask.payload ? { 'content-type': 'application/json' } : {} })
    return `${res.statusCode} ${res.body}`
  } catch (err) {
    return `rejected ${/** @type {any} */ (err).code}: ${/** @type {any} */ (err).message}`
  }
}

test('inject: the app ends the connection, the injection fails as on Fastify', { timeout: 10_000 }, async () => {
  const fastify = Fastify()
  const ours = hotpathFastify()
  build(fastify)
  build(ours)
  try {
    const seen = []
    for (const ask of CASES) {
      const theirs = await injected(fastify, ask)
      assert.equal(await injected(ours, ask), theirs, ask.url)
      seen.push(theirs)
    }
    assert.deepEqual(seen, [
      'rejected LIGHT_ECONNRESET: response destroyed before completion',
      'rejected LIGHT_ECONNRESET: response destroyed before completion',
      'rejected LIGHT_ECONNRESET: response destroyed before completion',
      'rejected LIGHT_ECONNRESET: response destroyed before completion',
      '200 {"body":{"a":1}}',
      '200 alive'
    ])
  } finally {
    await Promise.all([fastify.close(), ours.close()])
  }
})

for (const engine of ['node', 'wire']) {
  test(`over a socket: the app ends the connection, the client sees it reset as on Fastify, and the server goes on [${engine}]`, async () => {
    const fastify = Fastify()
    const ours = hotpathFastify({ engine })
    build(fastify)
    build(ours)
    try {
      await fastify.listen({ port: 0, host: '127.0.0.1' })
      await ours.listen({ port: 0, host: '127.0.0.1' })
      const seen = []
      for (const ask of CASES) {
        const theirs = await overSocket(fastify.server.address().port, ask)
        assert.equal(await overSocket(ours.server.address().port, ask), theirs, ask.url)
        seen.push(theirs)
      }
      assert.deepEqual(seen, ['error ECONNRESET', 'error ECONNRESET', 'error ECONNRESET', 'error ECONNRESET', '200 {"body":{"a":1}}', '200 alive'])
    } finally {
      await Promise.all([fastify.close(), ours.close()])
    }
  })
}

test('inject with payloadAsStream: the app ends the connection after the head, the body stream fails as on Fastify', { timeout: 10_000 }, async () => {
  const seen = []
  for (const make of [() => Fastify(), () => hotpathFastify()]) {
    const app = make()
    app.get('/', (/** @type {any} */ req, /** @type {any} */ reply) => {
      const body = new Readable({ read () {} })
      body.push('first')
      // once the head and the first chunk have gone, the app drops the connection
      setImmediate(() => setImmediate(() => reply.raw.destroy()))
      return reply.send(body)
    })
    try {
      const res = await app.inject({ url: '/', payloadAsStream: true })
      let text = ''
      const outcome = await new Promise((resolve) => {
        const stream = res.stream()
        stream.on('data', (/** @type {Buffer} */ chunk) => { text += chunk })
        stream.on('error', (/** @type {any} */ err) => resolve(`error ${err.code}`))
        stream.on('end', () => resolve('end'))
      })
      seen.push({ status: res.statusCode, text, outcome })
    } finally {
      await app.close()
    }
  }
  assert.deepEqual(seen[1], seen[0])
  assert.deepEqual(seen[0], { status: 200, text: 'first', outcome: 'error LIGHT_ECONNRESET' })
})
