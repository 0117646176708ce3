// What an onResponse hook reads of the headers sent, as on Fastify: the
// Content-Length is the string Fastify sets, from reply.getHeader() and
// reply.getHeaders() (also when no header was set before the answer), and
// from reply.raw once a header was set there; under inject(), a reply.raw
// first asked for after the answer shows it, as light-my-request's object
// does (its status, phrase and headers). The hooks record what they read
// and a later request returns it; compared with Fastify through inject()
// and over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'

/** @param {any} app */
function build (app) {
  /** @type {Record<string, unknown>} */
  const seen = {}
  app.addHook('onResponse', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    if (req.url === '/seen') return
    seen[req.url] = {
      length: reply.getHeader('content-length'),
      all: reply.getHeaders(),
      rawLength: reply.raw.getHeader('content-length') ?? null,
      rawType: reply.raw.getHeader('content-type') ?? null,
      rawStatus: reply.raw.statusCode,
      rawPhrase: reply.raw.statusMessage
    }
  })
  app.get('/json', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(201).send({ a: 1 }) })
  app.get('/text', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.header('x-a', 'b'); return 'hello' })
  app.get('/touched', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.raw.setHeader('x-raw', '1'); return 'x' })
  app.get('/seen', () => seen)
}

test('onResponse hooks read the Content-Length sent as Fastify\'s string, on the reply and on reply.raw', async () => {
  const answers = await besideFastify(build, ['/json', '/text', '/touched', '/nope', '/seen'])
  for (const { what, mode, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    if (!what.startsWith('GET /seen')) continue
    const f = JSON.parse(fastify.body)
    const h = JSON.parse(hotpath.body)
    assert.deepEqual(h, f, what)
    assert.equal(f['/json'].length, '7', what)
    assert.equal(f['/touched'].rawLength, '1', what)
    if (mode === 'inject') assert.deepEqual([f['/json'].rawStatus, f['/json'].rawPhrase, f['/json'].rawType], [201, 'Created', 'application/json; charset=utf-8'], what)
  }
})
