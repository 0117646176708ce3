// getDefaultJsonParser() and defaultTextParser called as Fastify's are, with
// (req, body, done), from a parser of the app's own (parseAs 'buffer', as
// @nestjs/platform-fastify registers its JSON parser): the answers are
// Fastify's, body by body, and the table still takes them as they are.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

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

test('the built-in parsers called with done answer as Fastify\'s', async () => {
  const fastify = Fastify()
  build(fastify)
  const app = hotpathFastify()
  build(app)
  for (const [type, payload] of CASES) {
    const options = { method: 'POST', url: '/', headers: { 'content-type': type }, payload }
    const [f, h] = await Promise.all([fastify.inject(options), app.inject(options)])
    const what = `${type} ${payload}`
    assert.equal(h.statusCode, f.statusCode, what)
    assert.deepEqual(h.json(), f.json(), what)
  }
  await Promise.all([fastify.close(), app.close()])
})

test('called without done, they return the value (hotpath\'s form)', () => {
  const app = hotpathFastify()
  const req = { route: { app: { jsonDepthLimit: 64, error: () => new Error('x') } } }
  assert.deepEqual(app.getDefaultJsonParser()(req, '{"a":1}'), { a: 1 })
  assert.equal(app.defaultTextParser(req, 'text'), 'text')
  assert.equal(app.getDefaultJsonParser().length, 2)
})

test('a poisoned JSON body is refused as Fastify refuses it, by the built-in parser too', async () => {
  const fastify = Fastify()
  const app = hotpathFastify()
  for (const a of [fastify, app]) a.post('/', async (/** @type {any} */ req) => req.body)
  for (const payload of ['{"__proto__":{"x":1}}', '{"a":{"constructor":{"prototype":{"x":1}}}}']) {
    const options = { method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload }
    const [f, h] = await Promise.all([fastify.inject(options), app.inject(options)])
    assert.equal(h.statusCode, f.statusCode, payload)
    assert.deepEqual(h.json(), f.json(), payload)
  }
  await Promise.all([fastify.close(), app.close()])
})
