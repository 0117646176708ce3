// What errorFormat 'fastify' answers where Fastify's answer differs from
// hotpath's: a parser's own error, a failing body stream from a preParsing
// hook, a preSerialization hook's error, and an async handler that resolves
// without sending.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

/** @param {any} app */
function build (app) {
  app.addContentTypeParser('text/broken', (/** @type {any} */ req, /** @type {any} */ body, /** @type {any} */ done) => { done(new Error('cannot read this')) })
  app.post('/parse', (/** @type {any} */ req) => ({ body: req.body }))
  app.register(async (/** @type {any} */ child) => {
    child.addHook('preParsing', async () => new Readable({ read () { this.destroy(Object.assign(new Error('bad stream'), { statusCode: 200 })) } }))
    child.post('/stream', (/** @type {any} */ req) => ({ body: req.body }))
  })
  app.register(async (/** @type {any} */ child) => {
    child.addHook('preSerialization', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => {
      if (payload.ok !== undefined) throw new Error('no serializing today')
      return { ...payload, seen: true }
    })
    child.get('/pre', () => ({ ok: 1 }))
  })
  app.post('/silent', async () => {})
  app.post('/silent-201', async (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(201) })
}

for (const format of /** @type {const} */ (['hotpath', 'fastify'])) {
  eachMode(`answers, errorFormat '${format}'`, (mode) => {
    /** @type {Awaited<ReturnType<typeof setup>>} */
    let s
    // hotpath/fastify's defaults for the format under test
    before(async () => { s = await setup(mode, build, format === 'fastify' ? { errorFormat: 'fastify', exposeErrorMessages: true } : {}) })
    after(() => s.close())

    test("a parser's error without a status", async () => {
      const res = await s.request({ method: 'POST', url: '/parse', headers: { 'content-type': 'text/broken' }, payload: 'x' })
      if (format === 'hotpath') {
        assert.equal(res.statusCode, 400)
        assert.equal(res.json().code, 'HP_ERR_INVALID_BODY')
      } else {
        assert.equal(res.statusCode, 500)
      }
    })

    test("a preParsing hook's stream that fails without an error status", async () => {
      const res = await s.request({ method: 'POST', url: '/stream', headers: { 'content-type': 'text/plain' }, payload: 'x' })
      assert.equal(res.statusCode, 400)
      if (format === 'hotpath') assert.equal(res.json().code, 'HP_ERR_REQUEST_ABORTED')
      else assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: 'bad stream' })
    })

    test("a preSerialization hook's error: Fastify's error body skips the hooks", async () => {
      const res = await s.request('/pre')
      assert.equal(res.statusCode, 500)
      // hotpath runs them on its error body too: the hook sees the body
      // and marks it
      if (format === 'hotpath') assert.equal(res.json().seen, true)
      else assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'no serializing today' })
    })

    test('an async handler that resolves undefined without sending', async () => {
      const res = await s.request({ method: 'POST', url: '/silent', headers: { 'content-type': 'application/json' }, payload: '{}' })
      const set = await s.request({ method: 'POST', url: '/silent-201', headers: { 'content-type': 'application/json' }, payload: '{}' })
      if (format === 'hotpath') {
        assert.equal(res.statusCode, 500)
        assert.equal(res.json().code, 'HP_ERR_PROMISE_NOT_FULFILLED')
        assert.equal(set.statusCode, 500)
      } else {
        assert.equal(res.statusCode, 200)
        assert.equal(res.body, '')
        assert.equal(set.statusCode, 201)
        assert.equal(set.body, '')
      }
    })
  })
}

test("inject's simulate.error fails the body after its bytes: the client's fault, a 400", async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  for (const format of /** @type {const} */ (['hotpath', 'fastify'])) {
    const app = hotpath(format === 'fastify' ? { errorFormat: 'fastify', exposeErrorMessages: true } : {})
    app.post('/', () => ({ reached: true }))
    app.register(async (child) => {
      child.addHook('preParsing', async (req, reply, payload) => payload)
      child.post('/hooked', () => ({ reached: true }))
    })
    for (const url of ['/', '/hooked']) {
      const res = await app.inject({ method: 'POST', url, payload: { a: 1 }, simulate: { error: true } })
      assert.equal(res.statusCode, 400, url)
      if (format === 'hotpath') assert.equal(res.json().code, 'HP_ERR_REQUEST_ABORTED')
      else assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: 'Simulated' })
    }
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).json(), { reached: true })
    await app.close()
  }
})
