// The methods routes may use: supportedMethods, the shorthand of each, and
// addHttpMethod for the other methods Node.js parses (WebDAV, CalDAV),
// with or without a parsed body.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'
import { eachMode, setup } from '../helpers/engines.js'

test('supportedMethods: those without a parsed body, then those with one', () => {
  const app = hotpath()
  assert.deepEqual(app.supportedMethods, ['GET', 'HEAD', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'])
  app.addHttpMethod('PROPFIND', { hasBody: true })
  app.addHttpMethod('COPY')
  assert.ok(app.supportedMethods.includes('PROPFIND'))
  assert.ok(app.supportedMethods.includes('COPY'))
  assert.equal(typeof app.propfind, 'function')
  assert.equal(typeof app.copy, 'function')
  assert.equal(app.hasDecorator('propfind'), true)
})

test('a method not added is refused by route(); one Node.js does not parse by addHttpMethod()', () => {
  const app = hotpath()
  assert.equal(/** @type {any} */ (app).rebind, undefined)
  assert.throws(() => app.route({ method: 'REBIND', url: '/', handler: () => 'x' }), { code: 'HP_ERR_ROUTE_METHOD_NOT_SUPPORTED', message: /REBIND method is not supported/ })
  assert.throws(() => app.route({ method: 42, url: '/', handler: () => 'x' }), { code: 'HP_ERR_ROUTE_METHOD_INVALID', message: /got 42/ })
  assert.throws(() => app.addHttpMethod('FOOO'), { code: 'HP_ERR_HTTP_METHOD_INVALID', message: 'addHttpMethod takes a method Node.js parses, got "FOOO"' })
  assert.throws(() => app.addHttpMethod('propfind'), { code: 'HP_ERR_HTTP_METHOD_INVALID' })
  app.addHttpMethod('REBIND')
  app.route({ method: 'rebind', url: '/', handler: () => 'x' })
})

test('a body schema on a method whose bodies are not parsed is refused', () => {
  const app = hotpath()
  const schema = { body: { type: 'object' } }
  assert.throws(() => app.get('/', { schema }, () => 'x'), { code: 'HP_ERR_ROUTE_BODY_SCHEMA', message: /Body validation schema for GET:\/ route is not supported/ })
  app.addHttpMethod('COPY')
  assert.throws(() => app.copy('/', { schema }, () => 'x'), { code: 'HP_ERR_ROUTE_BODY_SCHEMA' })
  app.addHttpMethod('REPORT', { hasBody: true })
  app.report('/', { schema }, () => 'x')
})

test('hotpath/fastify refuses a bad method, a missing handler and a body schema with Fastify\'s codes', () => {
  const app = fastify()
  assert.throws(() => app.route({ method: 'REBIND', url: '/', handler: () => 'x' }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED', name: 'FastifyError', message: 'REBIND method is not supported.' })
  assert.throws(() => app.route({ method: 42, url: '/', handler: () => 'x' }), { code: 'FST_ERR_ROUTE_METHOD_INVALID', message: 'Provided method is invalid!' })
  assert.throws(() => app.route({ method: 'GET', url: '/' }), { code: 'FST_ERR_ROUTE_MISSING_HANDLER', message: 'Missing handler function for "GET:/" route.' })
  assert.throws(() => app.route({ method: ['HEAD', 'GET'], url: '/b', schema: { body: {} }, handler: () => 'x' }), { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', message: 'Body validation schema for HEAD:/b route is not supported!' })
})

test('a plugin\'s shorthand is its own; the method is the app\'s', async () => {
  const app = hotpath()
  /** @type {any} */
  let child = null
  app.register(async (c) => {
    c.addHttpMethod('LOCK')
    c.lock('/locked', () => 'locked')
    child = c
  })
  await app.ready()
  assert.equal(typeof child.lock, 'function')
  assert.equal(/** @type {any} */ (app).lock, undefined)
  assert.ok(app.supportedMethods.includes('LOCK'))
  assert.equal((await app.inject({ method: 'LOCK', url: '/locked' })).body, 'locked')
})

eachMode('added HTTP methods', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.addHttpMethod('PROPFIND', { hasBody: true })
      app.addHttpMethod('MKCALENDAR', { hasBody: true })
      app.addHttpMethod('COPY')
      app.addHttpMethod('M-SEARCH')
      app.addHttpMethod('GET', { hasBody: true, overrideExisting: true })
      app.propfind('/dav/*', (req) => ({ method: req.method, path: req.params['*'], body: req.body ?? null }))
      app.mkcalendar('/cal/:name', { schema: { body: { type: 'object', required: ['tz'] } } }, (req) => ({ name: req.params.name, tz: req.body.tz }))
      app.copy('/dav/*', (req) => ({ method: req.method, body: req.body ?? null }))
      app['m-search']('/', (req) => req.method)
      app.get('/echo', { exposeHeadRoute: false }, (req) => ({ body: req.body ?? null }))
      app.all('/any', (req) => req.method)
    })
  })
  after(() => s.close())

  test('a method added with a body routes and parses its JSON body', async () => {
    const res = await s.request({ method: 'PROPFIND', url: '/dav/a/b', payload: { depth: 1 } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { method: 'PROPFIND', path: 'a/b', body: { depth: 1 } })
    const none = await s.request({ method: 'PROPFIND', url: '/dav/x' })
    assert.deepEqual(none.json(), { method: 'PROPFIND', path: 'x', body: null })
    const xml = await s.request({ method: 'PROPFIND', url: '/dav/x', headers: { 'content-type': 'application/xml' }, payload: '<propfind/>' })
    assert.equal(xml.statusCode, 415)
  })

  test('its body is validated by the route\'s body schema', async () => {
    assert.deepEqual((await s.request({ method: 'MKCALENDAR', url: '/cal/work', payload: { tz: 'UTC' } })).json(), { name: 'work', tz: 'UTC' })
    assert.equal((await s.request({ method: 'MKCALENDAR', url: '/cal/work', payload: {} })).statusCode, 400)
  })

  test('a method added without a body leaves it unparsed', async () => {
    const res = await s.request({ method: 'COPY', url: '/dav/a', payload: { ignored: true } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { method: 'COPY', body: null })
  })

  test('a method name with a dash has its shorthand under that name', async () => {
    assert.equal((await s.request({ method: 'M-SEARCH', url: '/' })).body, 'M-SEARCH')
  })

  test('GET made a method with a body parses one', async () => {
    // (node:http's client sends a GET body without Content-Length unless told)
    const res = await s.request({ method: 'GET', url: '/echo', headers: { 'content-type': 'application/json', 'content-length': '7' }, payload: '{"a":1}' })
    assert.deepEqual(res.json(), { body: { a: 1 } })
  })

  test('all() answers every supported method, the added ones too', async () => {
    for (const method of ['GET', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'PROPFIND', 'COPY', 'M-SEARCH']) {
      const res = await s.request({ method, url: '/any' })
      assert.equal(res.statusCode, 200, method)
      assert.equal(res.body, method)
    }
    const query = await s.request({ method: 'QUERY', url: '/any', payload: { q: 1 } })
    assert.equal(query.body, 'QUERY')
  })
})
