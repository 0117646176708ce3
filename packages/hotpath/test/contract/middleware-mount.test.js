// app.use as Express takes it: several functions and arrays in one call,
// and a mount path. A mounted middleware runs for requests at or below its
// path (case-insensitively, at a segment boundary), sees req.url relative to
// it with req.baseUrl and req.originalUrl, and the request's url is back
// when it calls next().
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('app.use with a mount path, several functions and arrays', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.decorateRequest('seen', null)
      app.addHook('onRequest', (req) => { req.seen = [] })
      /** @param {string} name */
      const record = (name) => (/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => {
        res.setHeader(`x-${name}`, `${req.url}|${req.baseUrl ?? ''}|${req.originalUrl}`)
        next()
      }
      app.use('/api/', record('api'), [record('api2'), [record('api3')]])
      app.use(record('all'))
      // after the mounted ones: the url is whole again
      app.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => {
        res.setHeader('x-after', req.url)
        next()
      })
      app.get('/api/users/:id', (req) => ({ url: req.url, id: req.params.id }))
      app.get('/API', (req) => ({ url: req.url }))
      app.get('/apix', (req) => ({ url: req.url }))
    })
  })
  after(() => s.close())

  test('below the mount path: url relative to it, baseUrl the part cut off, originalUrl whole; all functions run in order', async () => {
    const res = await s.request('/api/users/7?full=1')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { url: '/api/users/7?full=1', id: '7' })
    assert.equal(res.headers['x-api'], '/users/7?full=1|/api|/api/users/7?full=1')
    assert.equal(res.headers['x-api2'], '/users/7?full=1|/api|/api/users/7?full=1')
    assert.equal(res.headers['x-api3'], '/users/7?full=1|/api|/api/users/7?full=1')
    assert.equal(res.headers['x-all'], '/api/users/7?full=1||/api/users/7?full=1')
    assert.equal(res.headers['x-after'], '/api/users/7?full=1')
  })

  test('the mount path itself, in any case: url "/", baseUrl as the request spelled it', async () => {
    const res = await s.request('/API')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-api'], '/|/API|/API')
  })

  test('a path that only starts with the same letters is not under the mount', async () => {
    const res = await s.request('/apix')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-api'], undefined)
    assert.equal(res.headers['x-all'], '/apix||/apix')
  })
})

test('app.use refuses a mount path that is not a literal path, and a call with no middleware', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  const app = hotpath()
  const mw = (/** @type {any} */ _req, /** @type {any} */ _res, /** @type {Function} */ next) => next()
  assert.throws(() => app.use('api', mw), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => app.use('/users/:id', mw), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => /** @type {any} */ (app).use('/api'), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => /** @type {any} */ (app).use('/api', 'not a function'), { code: 'HP_ERR_INVALID_OPTION' })
})
