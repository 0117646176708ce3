import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import cors from 'cors'
import helmet from 'helmet'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('connect middleware', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.use(cors({ origin: 'https://example.com', methods: ['GET', 'POST'] }))
      app.use(helmet())
      app.get('/', () => ({ ok: true }))
      app.register(async (child) => {
        child.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {any} */ next) => setTimeout(() => { res.setHeader('x-async-mw', 'yes'); next() }, 2))
        child.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {any} */ next) => next(Object.assign(new Error('nope'), { statusCode: 401, expose: true })))
        child.get('/', () => 'unreachable')
      }, { prefix: '/guarded' })
    })
  })
  after(() => s.close())

  test('cors and helmet headers are on the response', async () => {
    const res = await s.request({ url: '/', headers: { origin: 'https://example.com' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { ok: true })
    assert.equal(res.headers['access-control-allow-origin'], 'https://example.com')
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/)
  })

  test('a CORS preflight is answered by the middleware', async () => {
    const res = await s.request({ method: 'OPTIONS', url: '/', headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' } })
    assert.equal(res.statusCode, 204)
    assert.equal(res.headers['access-control-allow-origin'], 'https://example.com')
    assert.match(String(res.headers['access-control-allow-methods']), /POST/)
  })

  test('async next() and next(err) go through the lifecycle; middleware is encapsulated', async () => {
    const res = await s.request('/guarded')
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { statusCode: 401, error: 'Unauthorized', message: 'nope' })
    assert.equal(res.headers['x-async-mw'], 'yes')
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
  })
})
