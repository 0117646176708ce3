// The router's options and events, as Fastify takes them: constraint
// strategies of the app's own (sync and asynchronous), frameworkErrors for
// the errors found before a route is, rewriteUrl, find-my-way's
// defaultRoute, onBadUrl, onMaxParamLength and buildPrettyMeta, and
// routerOptions over the top-level router options.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

/**
 * A strategy matching routes on the X-Tenant header; `async` derives it
 * through a callback, `fail` makes that callback fail.
 * @param {{ async?: boolean, fail?: boolean }} [how]
 */
function tenantStrategy (how = {}) {
  return {
    name: 'tenant',
    storage () {
      /** @type {Map<string, unknown>} */
      const map = new Map()
      return { get: (/** @type {string} */ k) => map.get(k) ?? null, set: (/** @type {string} */ k, /** @type {unknown} */ v) => { map.set(k, v) } }
    },
    validate (/** @type {unknown} */ value) {
      if (typeof value !== 'string') throw new TypeError('a tenant is a string')
    },
    deriveConstraint: how.async
      ? (/** @type {any} */ req, /** @type {any} */ _ctx, /** @type {Function} */ done) => {
          setImmediate(() => how.fail ? done(new Error('directory down')) : done(null, req.headers['x-tenant']))
        }
      : (/** @type {any} */ req) => req.headers['x-tenant']
  }
}

eachMode('constraint strategies of the app\'s own', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/home', { constraints: { tenant: 'acme' } }, () => 'acme home')
      app.get('/home', () => 'public home')
      app.get('/users/:id', { constraints: { tenant: 'acme' } }, (/** @type {any} */ req) => `acme ${req.params.id}`)
    }, { constraints: { tenant: tenantStrategy() } })
  })
  after(() => s.close())

  test('a request that carries the value reaches the route constrained on it, for GET and its HEAD', async () => {
    assert.equal((await s.request({ url: '/home', headers: { 'x-tenant': 'acme' } })).body, 'acme home')
    assert.equal((await s.request({ url: '/users/7', headers: { 'x-tenant': 'acme' } })).body, 'acme 7')
    assert.equal((await s.request({ method: 'HEAD', url: '/users/7', headers: { 'x-tenant': 'acme' } })).statusCode, 200)
  })

  test('another value, or none, gets the unconstrained route or 404', async () => {
    assert.equal((await s.request({ url: '/home', headers: { 'x-tenant': 'other' } })).body, 'public home')
    assert.equal((await s.request('/home')).body, 'public home')
    assert.equal((await s.request('/users/7')).statusCode, 404)
  })
})

eachMode('an asynchronous constraint strategy', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.addConstraintStrategy(tenantStrategy({ async: true }))
      app.get('/', { constraints: { tenant: 'acme' } }, () => 'acme')
      app.get('/', { constraints: { tenant: 'globex' } }, () => 'globex')
      app.get('/static', () => 'static')
    })
  })
  after(() => s.close())

  test('the lookup waits for the derived value', async () => {
    assert.equal((await s.request({ url: '/', headers: { 'x-tenant': 'acme' } })).body, 'acme')
    assert.equal((await s.request({ url: '/', headers: { 'x-tenant': 'globex' } })).body, 'globex')
    assert.equal((await s.request({ url: '/', headers: { 'x-tenant': 'initech' } })).statusCode, 404)
    assert.equal((await s.request('/static')).body, 'static')
  })
})

test('a failing asynchronous strategy answers 500 HP_ERR_ASYNC_CONSTRAINT, or goes to frameworkErrors', async () => {
  const plain = hotpath({ constraints: { tenant: tenantStrategy({ async: true, fail: true }) } })
  plain.get('/', { constraints: { tenant: 'acme' } }, () => 'acme')
  const res = await plain.inject({ url: '/', headers: { 'x-tenant': 'acme' } })
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'HP_ERR_ASYNC_CONSTRAINT')

  // hotpath/fastify without frameworkErrors: Fastify's fixed body, no code
  const fixed = fastify({ constraints: { tenant: tenantStrategy({ async: true, fail: true }) } })
  fixed.get('/', { constraints: { tenant: 'acme' } }, () => 'acme')
  const fres = await fixed.inject({ url: '/', headers: { 'x-tenant': 'acme' } })
  assert.equal(fres.statusCode, 500)
  assert.deepEqual(fres.json(), { error: 'Internal Server Error', message: 'Unexpected error from async constraint', statusCode: 500 })

  /** @type {unknown[]} */
  const seen = []
  const app = fastify({
    constraints: { tenant: tenantStrategy({ async: true, fail: true }) },
    frameworkErrors (/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) {
      seen.push(err.code, req.url)
      reply.code(503).send('try later')
    }
  })
  app.get('/', { constraints: { tenant: 'acme' } }, () => 'acme')
  const own = await app.inject({ url: '/', headers: { 'x-tenant': 'acme' } })
  assert.equal(own.statusCode, 503)
  assert.equal(own.body, 'try later')
  assert.deepEqual(seen, ['FST_ERR_ASYNC_CONSTRAINT', '/'])
})

test('addConstraintStrategy and hasConstraintStrategy: host and version count once a route uses them; a name in use is refused', async () => {
  const app = hotpath()
  assert.equal(app.hasConstraintStrategy('tenant'), false)
  assert.equal(app.hasConstraintStrategy('host'), false)
  app.get('/', { constraints: { host: 'example.com' } }, () => 'x')
  assert.equal(app.hasConstraintStrategy('host'), true)
  app.addConstraintStrategy(tenantStrategy())
  assert.equal(app.hasConstraintStrategy('tenant'), true)
  assert.throws(() => app.addConstraintStrategy(tenantStrategy()), /already exists a custom constraint with the name tenant/)
  app.get('/v', { constraints: { version: '1.0.0' } }, () => 'v1')
  assert.throws(() => app.addConstraintStrategy({ ...tenantStrategy(), name: 'version' }), /already exists a route with version constraint/)
  assert.throws(() => app.get('/t', { constraints: { tenant: 42 } }, () => 'x'), { code: 'HP_ERR_INVALID_ROUTE', message: /a tenant is a string/ })
  await app.ready()
  assert.throws(() => app.addConstraintStrategy({ ...tenantStrategy(), name: 'region' }), { code: 'HP_ERR_CONSTRAINT_AFTER_READY', message: 'addConstraintStrategy was called after ready()' })
})

eachMode('frameworkErrors', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {{ code: string, message: string, is404: boolean }[]} */
  const seen = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/items/:id', () => 'item')
      app.get('/missing/:id', () => 'never')
    }, {
      maxParamLength: 5,
      frameworkErrors (/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) {
        seen.push({ code: err.code, message: err.message, is404: req.is404 })
        if (req.url.startsWith('/missing')) return reply.callNotFound()
        reply.code(err.statusCode).send(`${err.code}: ${err.message}`)
      }
    })
  })
  after(() => s.close())

  test('a malformed path: HP_ERR_BAD_URL, with a Request and Reply to answer it', async () => {
    seen.length = 0
    const res = await s.request('/items/%zz')
    assert.equal(res.statusCode, 400)
    assert.equal(res.body, 'HP_ERR_BAD_URL: Malformed URL path')
    assert.deepEqual(seen, [{ code: 'HP_ERR_BAD_URL', message: 'Malformed URL path', is404: true }])
  })

  test('a parameter over maxParamLength: HP_ERR_MAX_PARAM_LENGTH (414), only with frameworkErrors on hotpath\'s entry', async () => {
    const res = await s.request('/items/123456')
    assert.equal(res.statusCode, 414)
    assert.match(res.body, /^HP_ERR_MAX_PARAM_LENGTH: /)
    assert.equal((await s.request('/items/12345')).body, 'item')
  })

  test('reply.callNotFound() from it answers the plain 404', async () => {
    const res = await s.request('/missing/%zz')
    assert.equal(res.statusCode, 404)
    assert.equal(res.body, '404 Not Found')
  })
})

test('hotpath/fastify: a parameter over maxParamLength is 414 FST_ERR_MAX_PARAM_LENGTH; hotpath\'s entry does not match it (404)', async () => {
  for (const [make, status, code] of /** @type {const} */ ([[fastify, 414, 'FST_ERR_MAX_PARAM_LENGTH'], [hotpath, 404, 'HP_ERR_NOT_FOUND']])) {
    const app = make({ maxParamLength: 3 })
    app.get('/a/:id', () => 'ok')
    const res = await app.inject('/a/1234')
    assert.equal(res.statusCode, status)
    assert.equal(res.json().code, code)
  }
})

test('hotpath/fastify: frameworkErrors gets errors that are instances of Fastify\'s constructors by their marks', async () => {
  /** @type {any} */
  let caught = null
  const app = fastify({ frameworkErrors (/** @type {any} */ err, /** @type {any} */ _req, /** @type {any} */ reply) { caught = err; reply.send(err.message) } })
  app.get('/a/:id', () => 'ok')
  assert.equal((await app.inject('/a/%world')).body, "'/a/%world' is not a valid url component")
  assert.equal(caught.code, 'FST_ERR_BAD_URL')
  assert.equal(caught[Symbol.for('fastify-error FST_ERR_BAD_URL')], true)
})

eachMode('defaultRoute, onBadUrl and onMaxParamLength: handlers of node:http\'s request and response', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/a/:id', () => 'ok')
    }, {
      routerOptions: {
        maxParamLength: 4,
        defaultRoute (/** @type {any} */ req, /** @type {any} */ res) {
          res.statusCode = 404
          res.end(`nothing at ${req.url}`)
        },
        onBadUrl (/** @type {string} */ path, /** @type {any} */ _req, /** @type {any} */ res) {
          res.statusCode = 400
          res.end(`bad ${path}`)
        },
        onMaxParamLength (/** @type {string} */ path, /** @type {any} */ _req, /** @type {any} */ res) {
          res.statusCode = 414
          res.end(`long ${path}`)
        }
      }
    })
  })
  after(() => s.close())

  test('each answers its case; a matching route is untouched', async () => {
    assert.equal((await s.request('/a/1')).body, 'ok')
    const none = await s.request('/nowhere?x=1')
    assert.equal(none.statusCode, 404)
    assert.equal(none.body, 'nothing at /nowhere?x=1')
    const bad = await s.request('/a/%zz')
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.body, 'bad /a/%zz')
    const long = await s.request('/a/12345')
    assert.equal(long.statusCode, 414)
    assert.equal(long.body, 'long /a/12345')
  })
})

eachMode('rewriteUrl', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/v2/users', (/** @type {any} */ req) => ({ url: req.url, originalUrl: req.originalUrl }))
      app.get('/plain', (/** @type {any} */ req) => ({ url: req.url, originalUrl: req.originalUrl }))
    }, {
      rewriteUrl (/** @type {any} */ raw) {
        if (raw.url === '/broken') return undefined
        return raw.url.startsWith('/v1/') ? '/v2/' + raw.url.slice(4) : raw.url
      }
    })
  })
  after(() => s.close())

  test('the request is routed by the URL it returns; req.originalUrl keeps the one received', async () => {
    assert.deepEqual((await s.request('/v1/users')).json(), { url: '/v2/users', originalUrl: '/v1/users' })
    assert.deepEqual((await s.request('/plain')).json(), { url: '/plain', originalUrl: '/plain' })
  })

  test('hotpath\'s entry answers a rewriteUrl that returns no string 500 HP_ERR_ROUTE_REWRITE_NOT_STR', async () => {
    const res = await s.request('/broken')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'HP_ERR_ROUTE_REWRITE_NOT_STR')
  })
})

test('an app without rewriteUrl never calls the rewriting entry point; a request\'s originalUrl is its url', async () => {
  const app = hotpath()
  app.get('/', (/** @type {any} */ req) => req.originalUrl)
  await app.ready()
  assert.equal(/** @type {any} */ (app)._core.rewriteUrl, null)
  assert.equal((await app.inject('/?a=1')).body, '/?a=1')
})

test('routerOptions take precedence over the top-level router options, and show in initialConfig.routerOptions', async () => {
  const app = hotpath({ caseSensitive: true, ignoreTrailingSlash: false, routerOptions: { caseSensitive: false, ignoreTrailingSlash: true } })
  app.get('/Books', () => 'books')
  assert.equal((await app.inject('/books/')).body, 'books')
  const given = { maxParamLength: 7 }
  const other = hotpath({ maxParamLength: 50, routerOptions: given })
  assert.equal(other.initialConfig.routerOptions.maxParamLength, 7)
  assert.equal(other.initialConfig.routerOptions.ignoreTrailingSlash, false)
  assert.deepEqual(Object.keys(given), ['maxParamLength'])
})

test('buildPrettyMeta: what printRoutes({ includeMeta }) shows of each route', async () => {
  const app = hotpath({ routerOptions: { buildPrettyMeta: (/** @type {any} */ route) => ({ at: route.path }) } })
  app.get('/a', () => 'a')
  await app.ready()
  assert.match(app.printRoutes({ includeMeta: true }), /a \(GET, HEAD\)\n\s+• \(at\) "\/a"/)
})

test('the router options that take functions refuse anything else', () => {
  for (const name of ['frameworkErrors', 'rewriteUrl', 'defaultRoute', 'onBadUrl', 'onMaxParamLength', 'buildPrettyMeta']) {
    assert.throws(() => hotpath({ [name]: 'nope' }), { code: 'HP_ERR_INVALID_OPTION', message: new RegExp(name) })
  }
  assert.throws(() => hotpath({ constraints: /** @type {any} */ ('tenant') }), { code: 'HP_ERR_INVALID_OPTION' })
})

test('a frameworkErrors handler that throws or rejects is answered as an error', async () => {
  for (const handler of [() => { throw new Error('sync') }, async () => { throw new Error('async') }]) {
    const app = hotpath({ frameworkErrors: handler })
    app.get('/a/:id', () => 'ok')
    const res = await app.inject('/a/%zz')
    assert.equal(res.statusCode, 500)
  }
})

test('a defaultRoute that throws is answered 500', async () => {
  const app = hotpath({ defaultRoute: () => { throw new Error('broken') } })
  const res = await app.inject('/nowhere')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'HP_ERR_INTERNAL')
})
