// hotpath/fastify: the same app, with Fastify 5's defaults where hotpath's
// own differ.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fastify from 'hotpath/fastify'
import hotpath, { HttpError } from 'hotpath'

test('hotpath/fastify closes idle connections at once; hotpath keeps a just-used one 500 ms', () => {
  // the engine's setting: Fastify's initialConfig lists forceCloseConnections only when given
  assert.equal(fastify()._core.engineOptions.forceCloseConnections, 'idle')
  assert.equal(fastify().initialConfig.forceCloseConnections, undefined)
  assert.equal(hotpath().initialConfig.forceCloseConnections, false)
})

test('hotpath/fastify sets no request timeout, as Fastify; hotpath bounds a request to 30 s', () => {
  assert.equal(fastify().initialConfig.requestTimeout, 0)
  assert.equal(hotpath().initialConfig.requestTimeout, 30_000)
  assert.equal(fastify({ requestTimeout: 5000 }).initialConfig.requestTimeout, 5000)
})

test('options given to hotpath/fastify win over its defaults', () => {
  assert.equal(fastify({ forceCloseConnections: false }).initialConfig.forceCloseConnections, false)
})

test('hotpath/fastify makes the same app as hotpath', async () => {
  const app = fastify()
  app.get('/', async () => ({ hello: 'world' }))
  const res = await app.inject('/')
  assert.deepEqual(res.json(), { hello: 'world' })
  assert.equal(Object.getPrototypeOf(app), Object.getPrototypeOf(hotpath()))
})

test('exposeErrorMessages: every error answers with its own message and code, a 5xx too; off by default', async () => {
  const build = (/** @type {any} */ app) => {
    app.get('/429', () => { throw Object.assign(new Error('Rate limit exceeded, retry in 1 second'), { statusCode: 429, code: 'E_RATE' }) })
    app.get('/500', () => { throw new Error('Invalid CORS origin option') })
    app.get('/http', () => { throw new HttpError(404, 'No such book', { code: 'E_BOOK' }) })
    return app
  }
  const exposed = build(hotpath({ exposeErrorMessages: true }))
  assert.deepEqual((await exposed.inject('/429')).json(), { statusCode: 429, code: 'E_RATE', error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 second' })
  assert.deepEqual((await exposed.inject('/500')).json(), { statusCode: 500, error: 'Internal Server Error', message: 'Invalid CORS origin option' })
  // the fields in Fastify's order
  assert.equal((await exposed.inject('/http')).body, '{"statusCode":404,"code":"E_BOOK","error":"Not Found","message":"No such book"}')
  const masked = build(hotpath())
  assert.deepEqual((await masked.inject('/429')).json(), { statusCode: 429, error: 'Too Many Requests', message: 'Too Many Requests' })
  assert.deepEqual((await masked.inject('/500')).json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  assert.equal(fastify().initialConfig.exposeErrorMessages, true)
  assert.equal(hotpath().initialConfig.exposeErrorMessages, false)
})

test('exposeErrorMessages: a plain object thrown is the answer, with its statusCode, as in Fastify; by default a 500', async () => {
  const build = (/** @type {any} */ app) => {
    app.get('/', async () => { throw { statusCode: 429, error: 'Too Many Requests', message: 'slow down', ttl: 1000 } })
    return app
  }
  const exposed = await build(hotpath({ exposeErrorMessages: true })).inject('/')
  assert.equal(exposed.statusCode, 429)
  assert.deepEqual(exposed.json(), { statusCode: 429, error: 'Too Many Requests', message: 'slow down', ttl: 1000 })
  const masked = await build(hotpath()).inject('/')
  assert.equal(masked.statusCode, 500)
  assert.deepEqual(masked.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
})

test('withTypeProvider() returns the app itself, as Fastify\'s does at run time', async () => {
  const app = fastify()
  const typed = app.withTypeProvider()
  assert.equal(typed, app)
  typed.get('/x', () => ({ ok: true }))
  assert.deepEqual((await app.inject('/x')).json(), { ok: true })
})
