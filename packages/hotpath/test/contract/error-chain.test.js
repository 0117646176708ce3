// The error handlers of a route form a chain: its own (the route's
// `errorHandler`), its plugins' from the nearest up to the root's, then the
// default. A handler that throws, rejects or sends an error hands it to the
// next one; each runs at most once per request, and a failure past the
// default is the fixed 500. Under hotpath's own entry the default still masks
// a 5xx; under errorFormat 'fastify' it answers as Fastify's does, a thrown
// non-Error sent as it is.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

/** Fastify's answers, as hotpath/fastify sets them. */
const FASTIFY = { errorFormat: 'fastify', exposeErrorMessages: true }

/**
 * The same app under both entries: a plugin nested in a plugin, each with
 * a handler that throws a new error naming itself.
 * @param {any} app
 * @param {string[]} seen  what each handler received, in order
 */
function build (app, seen) {
  app.setErrorHandler((err) => {
    seen.push(`root:${err?.message ?? String(err)}`)
    throw new Error('from root')
  })
  app.register(async (outer) => {
    outer.setErrorHandler(async (err) => {
      seen.push(`outer:${err.message}`)
      throw new Error('from outer')
    })
    outer.register(async (inner) => {
      inner.setErrorHandler((err) => {
        seen.push(`inner:${err.message}`)
        throw new Error('from inner')
      })
      inner.get('/deep', async () => { throw new Error('from route') })
      inner.addHook('onRequest', async (req) => { if (req.query.hook) throw new Error('from hook') })
      inner.get('/sends', (req, reply) => { reply.send(new Error('sent by route')) })
    })
    outer.get('/mid', () => { throw new Error('from mid route') })
  })
  app.get('/answered', { errorHandler: (err, req, reply) => reply.code(418).send({ own: err.message }) }, () => { throw new Error('route') })
  app.get('/root', () => { throw new Error('from root route') })
}

eachMode('error handler chain', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let hp
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let fst
  /** @type {string[]} */
  const seen = []
  before(async () => {
    hp = await setup(mode, (app) => build(app, seen))
    fst = await setup(mode, (app) => build(app, seen), FASTIFY)
  })
  after(async () => {
    await hp.close()
    await fst.close()
  })

  test('an error thrown by a handler goes to the parent context\'s, up to the default, each once', async () => {
    for (const s of [hp, fst]) {
      seen.length = 0
      const res = await s.request('/deep')
      assert.deepEqual(seen, ['inner:from route', 'outer:from inner', 'root:from outer'])
      assert.equal(res.statusCode, 500)
      // the default masks a 5xx under hotpath's own entry; Fastify shows it
      const message = s === hp ? 'Internal Server Error' : 'from root'
      assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message })
    }
  })

  test('an error from a hook and one sent by the route take the same chain', async () => {
    seen.length = 0
    await fst.request('/deep?hook=1')
    assert.deepEqual(seen, ['inner:from hook', 'outer:from inner', 'root:from outer'])
    seen.length = 0
    await fst.request('/sends')
    assert.deepEqual(seen, ['inner:sent by route', 'outer:from inner', 'root:from outer'])
  })

  test('the chain starts at the route\'s context: a parent route skips its children\'s handlers', async () => {
    seen.length = 0
    await fst.request('/mid')
    assert.deepEqual(seen, ['outer:from mid route', 'root:from outer'])
    seen.length = 0
    await fst.request('/root')
    assert.deepEqual(seen, ['root:from root route'])
  })

  test('a route\'s own errorHandler comes first', async () => {
    seen.length = 0
    const res = await hp.request('/answered')
    assert.equal(res.statusCode, 418)
    assert.deepEqual(res.json(), { own: 'route' })
    assert.deepEqual(seen, [])
  })
})

test('a handler set twice in one context hands what it throws to the first; allowErrorHandlerOverride: false refuses the second', async () => {
  const app = hotpath()
  app.setErrorHandler((err, req, reply) => reply.code(409).send({ first: err.message }))
  app.setErrorHandler((err) => { throw new Error(`second saw ${err.message}`) })
  app.get('/', () => { throw new Error('x') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 409)
  assert.deepEqual(res.json(), { first: 'second saw x' })

  const strict = hotpath({ allowErrorHandlerOverride: false })
  strict.setErrorHandler(() => {})
  assert.throws(() => strict.setErrorHandler(() => {}), { code: 'HP_ERR_ERROR_HANDLER_SET' })
  strict.register(async (child) => {
    child.setErrorHandler(() => {}) // a child context sets its own
    assert.throws(() => child.setErrorHandler(() => {}), { code: 'HP_ERR_ERROR_HANDLER_SET' })
  })
  await strict.ready()
  const f = fastify({ allowErrorHandlerOverride: false })
  f.setErrorHandler(() => {})
  assert.throws(() => f.setErrorHandler(() => {}), { code: 'FST_ERR_ERROR_HANDLER_ALREADY_SET' })
  assert.throws(() => hotpath({ allowErrorHandlerOverride: 'no' }), { code: 'HP_ERR_INVALID_OPTION' })
})

test('setErrorHandler and a route errorHandler must be functions', () => {
  assert.throws(() => hotpath().setErrorHandler(/** @type {any} */ ('x')), { code: 'HP_ERR_ERROR_HANDLER_NOT_FN' })
  assert.throws(() => fastify().setErrorHandler(/** @type {any} */ ('x')), { code: 'FST_ERR_ERROR_HANDLER_NOT_FN', message: 'Error Handler must be a function' })
  assert.throws(() => fastify().get('/tea', { errorHandler: 'teapot' }, () => 'x'), { code: 'FST_ERR_ROUTE_HANDLER_NOT_FN', message: 'Error Handler for GET:/tea route, if defined, must be a function' })
  assert.throws(() => hotpath().get('/tea', { errorHandler: 'teapot' }, () => 'x'), { code: 'HP_ERR_ROUTE_ERROR_HANDLER' })
})

test('a handler whose answer fails in onSend hands that failure on; past the default, the fixed 500', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const seen = []
  app.addHook('onSend', () => { throw new Error('onSend always fails') })
  app.setErrorHandler((err, req, reply) => {
    seen.push(err.message)
    reply.code(400).send('custom')
  })
  app.get('/', () => 'ok')
  const res = await app.inject('/')
  // the route's answer failed → the custom handler; its answer failed → the
  // default; its answer failed → the last resort
  assert.deepEqual(seen, ['onSend always fails'])
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, code: 'HP_ERR_INTERNAL', error: 'Internal Server Error', message: 'Internal Server Error' })
})

eachMode('thrown values that are not Errors', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let hp
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let fst
  /** @type {unknown[]} */
  const received = []
  /** @param {any} app */
  const routes = (app) => {
    app.get('/string', () => { throw 'kaboom' }) // eslint-disable-line no-throw-literal
    app.get('/object', async () => { throw { statusCode: 429, message: 'slow down', retry: 1 } }) // eslint-disable-line no-throw-literal
    app.get('/null', () => Promise.reject(null)) // eslint-disable-line prefer-promise-reject-errors
    app.get('/undefined', () => Promise.reject(undefined)) // eslint-disable-line prefer-promise-reject-errors
    app.register(async (child) => {
      child.setErrorHandler((err, req, reply) => {
        received.push(err)
        reply.code(500).send('handled')
      })
      child.get('/custom', () => { throw 42 }) // eslint-disable-line no-throw-literal
    }, { prefix: '/c' })
  }
  before(async () => {
    hp = await setup(mode, routes)
    fst = await setup(mode, routes, FASTIFY)
  })
  after(async () => {
    await hp.close()
    await fst.close()
  })

  test('hotpath\'s own entry masks them: a 500 with the generic body, handlers get an Error', async () => {
    for (const url of ['/string', '/object', '/null', '/undefined']) {
      const res = await hp.request(url)
      assert.equal(res.statusCode, 500, url)
      assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }, url)
    }
    received.length = 0
    assert.equal((await hp.request('/c/custom')).body, 'handled')
    assert.ok(received[0] instanceof Error)
    assert.equal(/** @type {any} */ (received[0]).cause, 42)
  })

  test('errorFormat \'fastify\' sends them as they are, with the error status; handlers get the value itself', async () => {
    const str = await fst.request('/string')
    assert.equal(str.statusCode, 500)
    assert.equal(str.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(str.body, 'kaboom')
    const obj = await fst.request('/object')
    assert.equal(obj.statusCode, 429)
    assert.deepEqual(obj.json(), { statusCode: 429, message: 'slow down', retry: 1 })
    const undef = await fst.request('/undefined')
    assert.equal(undef.statusCode, 500)
    assert.equal(undef.body, '')
    assert.equal((await fst.request('/null')).statusCode, 500)
    received.length = 0
    assert.equal((await fst.request('/c/custom')).body, 'handled')
    assert.deepEqual(received, [42])
  })
})

test('errorFormat \'fastify\': a custom handler sees the status as it was; the default takes the error\'s own status and headers', async () => {
  const app = fastify()
  /** @type {number[]} */
  const statuses = []
  app.setErrorHandler((err, req, reply) => {
    statuses.push(reply.statusCode)
    throw Object.assign(new Error('replaced'), { statusCode: 401, headers: { 'www-authenticate': 'Bearer' } })
  })
  app.get('/', (req, reply) => {
    reply.code(403)
    throw Object.assign(new Error('first'), { statusCode: 400 })
  })
  const res = await app.inject('/')
  assert.deepEqual(statuses, [403])
  assert.equal(res.statusCode, 401)
  assert.equal(res.headers['www-authenticate'], 'Bearer')
  assert.deepEqual(res.json(), { statusCode: 401, error: 'Unauthorized', message: 'replaced' })
})

test('hotpath\'s own entry: the handler sees the error\'s status; the error\'s own status wins over one set before', async () => {
  const app = hotpath()
  /** @type {number[]} */
  const statuses = []
  app.setErrorHandler((err, req, reply) => {
    statuses.push(reply.statusCode)
    throw Object.assign(new Error('replaced'), { statusCode: 409, headers: { 'x-internal': 'secret' } })
  })
  app.get('/', (req, reply) => {
    reply.code(403)
    throw new Error('no status of its own')
  })
  const res = await app.inject('/')
  assert.deepEqual(statuses, [403])
  assert.equal(res.statusCode, 409)
  // an error's headers are not copied onto the answer
  assert.equal(res.headers['x-internal'], undefined)
})

test('reply.code() refuses what is not a status code; errorFormat \'fastify\' takes what Fastify takes', async () => {
  const app = hotpath()
  /** @type {unknown[]} */
  const codes = []
  /** @param {any} a */
  const routes = (a) => {
    a.get('/bad', (req, reply) => {
      try { reply.code(req.query.c === 'null' ? null : Number(req.query.c)) } catch (err) { codes.push(/** @type {any} */ (err).code) }
      reply.send('after')
    })
    a.get('/float', (req, reply) => reply.code(404.5).send('x'))
  }
  routes(app)
  const f = fastify()
  routes(f)
  await app.inject('/bad?c=700')
  await f.inject('/bad?c=700')
  await f.inject('/bad?c=null')
  assert.deepEqual(codes, ['HP_ERR_BAD_STATUS_CODE', 'FST_ERR_BAD_STATUS_CODE', 'FST_ERR_BAD_STATUS_CODE'])
  assert.equal((await app.inject('/float')).statusCode, 500)
  assert.equal((await f.inject('/float')).statusCode, 404)
})

test('errorFormat \'fastify\': an async handler that resolves without sending answers empty, as Fastify 5 does', async () => {
  const f = fastify()
  f.get('/', async () => {})
  const res = await f.inject('/')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '')
  const app = hotpath()
  app.get('/', async () => {})
  assert.equal((await app.inject('/')).json().code, 'HP_ERR_PROMISE_NOT_FULFILLED')
})

test('an onError hook that fails is logged; the error it saw goes on to the error handler', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const seen = []
  app.addHook('onError', async () => { throw new Error('the hook failed') })
  app.setErrorHandler((err, req, reply) => {
    seen.push(err.message)
    reply.code(409).send({ handled: err.message })
  })
  app.get('/', () => { throw new Error('the route failed') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 409)
  assert.deepEqual(seen, ['the route failed'])
})

test('errorFormat \'fastify\' with exposeErrorMessages off masks a thrown non-Error as an Error', async () => {
  const app = hotpath({ errorFormat: 'fastify', exposeErrorMessages: false })
  app.get('/', () => { throw 'db password is hunter2' }) // eslint-disable-line no-throw-literal
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
})

eachMode("app.errorHandler: a route's own errorHandler hands an error on to its context's", (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      // no setErrorHandler at the root: app.errorHandler is the default one
      app.get('/default', { errorHandler: (err, req, reply) => app.errorHandler(err, req, reply) }, () => {
        throw Object.assign(new Error('not yours'), { statusCode: 403 })
      })
      app.register(async (child) => {
        child.setErrorHandler((err, _req, reply) => { reply.code(418).send({ by: 'context', message: err.message }) })
        child.get('/context', { errorHandler: (err, req, reply) => child.errorHandler(err, req, reply) }, () => {
          throw new Error('boom')
        })
      })
    })
  })
  after(() => s.close())

  test('with no handler set, the default answers with the error status', async () => {
    const res = await s.request('/default')
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().error, 'Forbidden')
  })

  test("the context's setErrorHandler() answers", async () => {
    const res = await s.request('/context')
    assert.equal(res.statusCode, 418)
    assert.deepEqual(res.json(), { by: 'context', message: 'boom' })
  })
})
