// app.use as Express takes it: several functions and arrays in one call,
// a mount path, and error middleware (err, req, res, next). A mounted middleware runs for requests at or below its
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

eachMode('error middleware (err, req, res, next)', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.register(async (api) => {
        api.use('/teapot', (/** @type {any} */ err, /** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ _next) => {
          res.statusCode = 418
          res.setHeader('content-type', 'application/json')
          res.end(JSON.stringify({ caught: err.message }))
        })
        api.use((/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => {
          res.setHeader('x-seen-by', 'error-middleware')
          next(err)
        })
        api.get('/teapot/route', () => { throw new Error('from the route') })
        api.get('/passes', () => { throw new Error('internal detail') })
      }, { prefix: '/e' })
      app.register(async (api) => {
        api.use((/** @type {any} */ _req, /** @type {any} */ _res, /** @type {Function} */ next) => next(new Error('from a middleware')))
        api.use((/** @type {any} */ err, /** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ _next) => {
          res.statusCode = 409
          res.end(`caught: ${err.message}`)
        })
        api.get('/x', () => 'never')
      }, { prefix: '/m' })
    })
  })
  after(() => s.close())

  test("an error middleware that answers is the answer; the route's error never reaches the error handler", async () => {
    const res = await s.request('/e/teapot/route')
    assert.equal(res.statusCode, 418)
    assert.deepEqual(res.json(), { caught: 'from the route' })
  })

  test("next(err) hands the error on: hotpath's error handler answers, masked, with the middleware's header", async () => {
    const res = await s.request('/e/passes')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().message, 'Internal Server Error')
    assert.equal(res.headers['x-seen-by'], 'error-middleware')
  })

  test("a middleware's next(err) reaches the error middleware registered after it", async () => {
    const res = await s.request('/m/x')
    assert.equal(res.statusCode, 409)
    assert.equal(res.body, 'caught: from a middleware')
  })

  test('a request no route matched is not an error to error middleware: 404', async () => {
    const res = await s.request('/e/teapot/none')
    assert.equal(res.statusCode, 404)
  })
})
