// getDefaultJsonParser() and defaultTextParser called as Fastify's are, with
// (req, body, done), from a parser of the app's own (parseAs 'buffer', as
// @nestjs/platform-fastify registers its JSON parser): the answers are
// Fastify's, body by body, and the table still takes them as they are.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpathFastify from '../../lib/fastify.js'
import { besideFastify } from '../helpers/beside-fastify.js'

/** @param {any} app */
function build (app) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (/** @type {any} */ req, /** @type {Buffer} */ body, /** @type {any} */ done) => {
    req.rawLength = body.length
    app.getDefaultJsonParser('error', 'error')(req, body, done)
  })
  app.addContentTypeParser('application/x-lenient', { parseAs: 'string' }, (/** @type {any} */ req, /** @type {string} */ body, /** @type {any} */ done) => {
    app.getDefaultJsonParser('remove', 'ignore')(req, body, done)
  })
  app.addContentTypeParser('text/x-own', { parseAs: 'buffer' }, (/** @type {any} */ req, /** @type {Buffer} */ body, /** @type {any} */ done) => {
    app.defaultTextParser(req, body, (/** @type {any} */ err, /** @type {any} */ value) => done(err, { buffer: Buffer.isBuffer(value), text: String(value) }))
  })
  // registered as they are, as Fastify's documentation shows
  app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, app.getDefaultJsonParser('ignore', 'ignore'))
  app.addContentTypeParser('text/x-plain', { parseAs: 'string' }, app.defaultTextParser)
  app.post('/', async (/** @type {any} */ req) => ({ body: req.body, rawLength: req.rawLength ?? null }))
}

const CASES = [
  ['application/json', '{"a":1,"b":[1,2]}'],
  ['application/json', ''],
  ['application/json', '{"a":'],
  ['application/json', '{"__proto__":{"x":1}}'],
  ['application/json', '{"constructor":{"prototype":{"x":1}}}'],
  ['application/json', '"é"'],
  ['application/x-lenient', '{"__proto__":{"x":1},"a":2}'],
  ['application/x-lenient', '{"a":'],
  ['text/x-own', 'plain text'],
  ['application/vnd.api+json', '{"__proto__":{"x":1},"a":3}'],
  ['text/x-plain', 'as it is']
]

test('the built-in parsers called with done answer as Fastify\'s (inject, and over a socket on wire and node)', async () => {
  const asks = CASES.map(([type, payload]) => ({ method: 'POST', url: '/', headers: { 'content-type': type }, payload }))
  for (const { what, fastify, hotpath } of await besideFastify(build, asks)) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
  }
})

test('called without done, they return the value (hotpath\'s form)', () => {
  const app = hotpathFastify()
  const req = { route: { app: { jsonDepthLimit: 64, error: () => new Error('x') } } }
  assert.deepEqual(app.getDefaultJsonParser()(req, '{"a":1}'), { a: 1 })
  assert.equal(app.defaultTextParser(req, 'text'), 'text')
  assert.equal(app.getDefaultJsonParser().length, 2)
})

test('a poisoned JSON body is refused as Fastify refuses it, by the built-in parser too', async () => {
  const asks = ['{"__proto__":{"x":1}}', '{"a":{"constructor":{"prototype":{"x":1}}}}'].map((payload) => ({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload }))
  const build = (/** @type {any} */ app) => { app.post('/', async (/** @type {any} */ req) => req.body) }
  for (const { what, fastify, hotpath } of await besideFastify(build, asks)) {
    assert.equal(hotpath.statusCode, 400, what)
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
  }
})
