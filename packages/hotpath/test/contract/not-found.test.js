// Not-found handlers as Fastify scopes them: one per prefix, set by the
// context registered with that prefix or by a plugin inside it registered
// without one (with that plugin's hooks); a body is parsed for them as for
// a route; reply.callNotFound() hands the reply to the not-found route, its
// preHandler hooks included; errorFormat 'fastify' answers Fastify's 404.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import hotpath, { plugin } from '../../lib/index.js'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('not-found handlers by prefix', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', () => 'home')
      app.post('/lookup', (req, reply) => { reply.callNotFound() })
      // a plugin without a prefix sets the handler of its parent's prefix,
      // with its own hooks
      app.register(async (child) => {
        child.addHook('preHandler', async (/** @type {any} */ req) => { req.tag = 'child hook' })
        child.setNotFoundHandler({
          preHandler: (/** @type {any} */ req, _reply, done) => { req.own = true; done() }
        }, (/** @type {any} */ req, reply) => reply.code(404).send({ at: 'root', tag: req.tag, own: req.own, body: req.body ?? null }))
      })
      app.register(async (api) => {
        api.register(async (inner) => {
          inner.setNotFoundHandler((req, reply) => {
            if (req.url.endsWith('/again')) return reply.callNotFound()
            reply.code(404).send({ at: '/api' })
          })
        })
      }, { prefix: '/api' })
    })
  })
  after(() => s.close())

  test('a handler set inside a plugin without a prefix answers for its parent\'s prefix, with the plugin\'s hooks and its own', async () => {
    const res = await s.request('/nowhere')
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { at: 'root', tag: 'child hook', own: true, body: null })
    const api = await s.request('/api/nowhere')
    assert.deepEqual(api.json(), { at: '/api' })
  })

  test('the body of a request no route matches is parsed for the not-found handler; an unknown type is not refused', async () => {
    const res = await s.request({ method: 'POST', url: '/nowhere', headers: { 'content-type': 'application/json' }, payload: '{"hello":"world"}' })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json().body, { hello: 'world' })
    const odd = await s.request({ method: 'POST', url: '/nowhere', headers: { 'content-type': 'application/x-odd' }, payload: 'abc' })
    assert.equal(odd.statusCode, 404)
    assert.equal(odd.json().at, 'root')
  })

  test('reply.callNotFound() runs the not-found route\'s preHandler hooks and handler on the request as parsed', async () => {
    const res = await s.request({ method: 'POST', url: '/lookup', headers: { 'content-type': 'application/json' }, payload: '{"q":1}' })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { at: 'root', tag: 'child hook', own: true, body: { q: 1 } })
  })

  test('reply.callNotFound() inside a not-found handler answers a plain-text 404', async () => {
    const res = await s.request('/api/again')
    assert.equal(res.statusCode, 404)
    assert.equal(res.body, '404 Not Found')
  })
})

test('setNotFoundHandler twice for one prefix throws, from one context or from two plugins sharing the prefix', async () => {
  const app = hotpath()
  app.setNotFoundHandler(() => {})
  assert.throws(() => app.setNotFoundHandler(() => {}), { code: 'HP_ERR_NOT_FOUND_HANDLER_SET', message: "A not-found handler is already set for the prefix '/'" })
  /** @type {unknown[]} */
  const errors = []
  app.register(async (api) => {
    api.register(async (a) => { a.setNotFoundHandler(() => {}) })
    api.register(async (b) => {
      try { b.setNotFoundHandler(() => {}) } catch (err) { errors.push(err) }
    })
  }, { prefix: '/api' })
  // a shared plugin sets its parent's
  app.register(plugin(async (shared) => {
    try { shared.setNotFoundHandler(() => {}) } catch (err) { errors.push(err) }
  }))
  await app.ready()
  assert.deepEqual(errors.map((e) => /** @type {any} */ (e).message), ["A not-found handler is already set for the prefix '/api'", "A not-found handler is already set for the prefix '/'"])
  await app.close()
})

test("errorFormat 'fastify': Fastify's 404 body, its message for a second handler and its bad-URL error", async () => {
  const app = hotpath({ errorFormat: 'fastify' })
  app.setNotFoundHandler({}, (req, reply) => reply.callNotFound())
  app.register(async (api) => {
    api.setNotFoundHandler(() => {})
    assert.throws(() => api.setNotFoundHandler(() => {}), { code: 'FST_ERR_NOT_FOUND_HANDLER_ALREADY_SET', message: "Not found handler already set for Fastify instance with prefix: '/api'" })
  }, { prefix: '/api' })
  const plain = hotpath({ errorFormat: 'fastify' })
  plain.get('/items/:id', () => 'item')
  const res = await plain.inject('/missing?x=1')
  assert.equal(res.statusCode, 404)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(res.body, '{"message":"Route GET:/missing?x=1 not found","error":"Not Found","statusCode":404}')
  const bad = await plain.inject('/items/%zz')
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { statusCode: 400, code: 'FST_ERR_BAD_URL', error: 'Bad Request', message: "'/items/%zz' is not a valid url component" })
  await app.ready()
  await app.close()
  await plain.close()
})

test("errorFormat must be 'hotpath' or 'fastify'", () => {
  assert.throws(() => hotpath({ errorFormat: 'express' }), { code: 'HP_ERR_INVALID_OPTION' })
})
