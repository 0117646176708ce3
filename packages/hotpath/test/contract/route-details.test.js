// Details of routes as Fastify has them: a prefix declared with a trailing
// slash, the Content-Length a HEAD route sets, a route's own errorHandler
// (and the not-found handler's), request.is404, reply.routeOptions,
// request.port, and the not-found line hotpath/fastify logs.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

eachMode('a prefix declared with a trailing slash', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.register(async (/** @type {any} */ child) => {
        child.get('/', () => 'root')
        child.get('/a', () => 'a')
        child.get('b', () => 'b')
      }, { prefix: '/v1/' })
    })
  })
  after(() => s.close())

  test('a route \'/\' answers /prefix/ alone; a path without a leading slash joins the prefix', async () => {
    assert.equal((await s.request('/v1/')).body, 'root')
    assert.equal((await s.request('/v1')).statusCode, 404)
    assert.equal((await s.request('/v1/a')).body, 'a')
    assert.equal((await s.request('/v1/b')).body, 'b')
  })
})

test('without a prefix, a path must still start with \'/\', and cannot be empty', async () => {
  const app = hotpath()
  assert.throws(() => app.get('b', () => 'b'), { code: 'HP_ERR_INVALID_ROUTE' })
  assert.throws(() => app.get('', () => 'x'), { code: 'HP_ERR_ROUTE_EMPTY_PATH', message: 'The path could not be empty' })
  app.register(async (/** @type {any} */ child) => { child.get('', () => 'prefix itself') }, { prefix: '/p' })
  assert.equal((await app.inject('/p')).body, 'prefix itself')
})

eachMode('a HEAD route that sets Content-Length and sends nothing', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.head('/file', (/** @type {any} */ _req, /** @type {any} */ reply) => {
        reply.header('content-type', 'application/pdf').header('content-length', '14').send()
      })
      app.get('/file', () => Buffer.from('fourteen bytes'))
      app.get('/empty', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.header('content-length', '14').send() })
    })
  })
  after(() => s.close())

  test('keeps that length, as the GET body\'s; a GET with no body does not', async () => {
    const head = await s.request({ method: 'HEAD', url: '/file' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.headers['content-length'], '14')
    assert.equal(head.headers['content-type'], 'application/pdf')
    assert.equal(head.body, '')
    const empty = await s.request('/empty')
    assert.equal(empty.headers['content-length'], '0')
    assert.equal(empty.body, '')
  })
})

eachMode('a route\'s own errorHandler', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.setErrorHandler((/** @type {any} */ _err, /** @type {any} */ _req, /** @type {any} */ reply) => { reply.code(429).send('app') })
      app.get('/own', { errorHandler: (/** @type {any} */ err, /** @type {any} */ _req, /** @type {any} */ reply) => { reply.code(418).send(`route: ${err.message}`) } }, () => { throw new Error('pot') })
      app.get('/other', () => { throw new Error('pot') })
    })
  })
  after(() => s.close())

  test('answers that route\'s errors; the other routes keep the context\'s', async () => {
    const own = await s.request('/own')
    assert.equal(own.statusCode, 418)
    assert.equal(own.body, 'route: pot')
    assert.equal((await s.request('/other')).statusCode, 429)
  })
})

test('setNotFoundHandler\'s errorHandler answers the errors of the not-found route; a non-function is refused', async () => {
  const app = hotpath()
  app.setNotFoundHandler({ errorHandler: (/** @type {any} */ _e, /** @type {any} */ _r, /** @type {any} */ reply) => { reply.code(401).send('no') } }, () => 'never')
  app.addHook('preValidation', async () => { throw new Error('kaboom') })
  const res = await app.inject('/missing')
  assert.equal(res.statusCode, 401)
  assert.equal(res.body, 'no')
  assert.throws(() => hotpath().get('/', { errorHandler: /** @type {any} */ ('teapot') }, () => 'x'), { code: 'HP_ERR_ROUTE_ERROR_HANDLER' })
  assert.throws(() => fastify().get('/tea', { errorHandler: /** @type {any} */ ('teapot') }, () => 'x'), { code: 'FST_ERR_ROUTE_HANDLER_NOT_FN', message: 'Error Handler for GET:/tea route, if defined, must be a function' })
})

test('request.is404, reply.routeOptions and request.port', async () => {
  const app = hotpath()
  app.get('/r/:id', (/** @type {any} */ req, /** @type {any} */ reply) => ({ is404: req.is404, url: reply.routeOptions.url, config: reply.routeOptions.config, port: req.port }))
  app.setNotFoundHandler((/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(404).send({ is404: req.is404, port: req.port, url: req.routeOptions.url ?? null, config: req.routeOptions.config }) })
  assert.deepEqual((await app.inject({ url: '/r/1', headers: { host: 'example.com:8443' } })).json(), { is404: false, url: '/r/:id', config: { url: '/r/:id', method: 'GET' }, port: 8443 })
  assert.deepEqual((await app.inject({ url: '/nope', headers: { host: 'example.com' } })).json(), { is404: true, port: null, url: null, config: {} })
})

test('hotpath/fastify logs Fastify\'s line for a path no route matches, unless request logging is off for it', async () => {
  /** @type {any[]} */
  const lines = []
  const stream = new Writable({ write (chunk, _enc, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
  const app = fastify({ logger: { level: 'info', stream }, disableRequestLogging: (/** @type {any} */ req) => req.url.includes('quiet') })
  app.get('/', () => 'ok')
  await app.inject('/nope')
  await app.inject('/quiet')
  const notFound = lines.filter((l) => typeof l.msg === 'string' && l.msg.endsWith('not found'))
  assert.deepEqual(notFound.map((l) => [l.level, l.msg]), [[30, 'Route GET:/nope not found']])
})

test('a path declared again under other parameter names is a duplicate; a HEAD route so declared takes the GET route\'s HEAD place', async () => {
  const app = hotpath()
  app.get('/:a', () => 'get')
  assert.throws(() => app.get('/:b', () => 'again'), { code: 'HP_ERR_DUPLICATE_ROUTE' })
  app.head('/:c', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.header('x-own', 'yes').send() })
  await app.ready()
  const res = await app.inject({ method: 'HEAD', url: '/x' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['x-own'], 'yes')
})

test('request.routeOptions has every field Fastify gives it, with the same values, beside Fastify', async () => {
  const { besideFastify } = await import('../helpers/beside-fastify.js')
  /** @param {any} r */
  const shape = (r) => ({
    method: r.method, url: r.url, bodyLimit: r.bodyLimit, config: r.config, logLevel: r.logLevel ?? null, attachValidation: r.attachValidation,
    exposeHeadRoute: r.exposeHeadRoute, prefixTrailingSlash: r.prefixTrailingSlash, handlerTimeout: r.handlerTimeout ?? null, version: r.version ?? null
  })
  /** @param {any} app */
  const build = (app) => {
    app.get('/plain', (/** @type {any} */ req) => shape(req.routeOptions))
    app.get('/own', { config: { a: 1 }, logLevel: 'warn', exposeHeadRoute: false, bodyLimit: 99 }, (/** @type {any} */ req) => shape(req.routeOptions))
    app.register(async (/** @type {any} */ child) => {
      child.get('/', { prefixTrailingSlash: 'slash' }, (/** @type {any} */ req) => shape(req.routeOptions))
    }, { prefix: '/p' })
    app.post('/post', { attachValidation: true }, (/** @type {any} */ req) => shape(req.routeOptions))
  }
  const answers = await besideFastify(build, ['/plain', '/own', '/p/', { method: 'POST', url: '/post', payload: {} }], { options: { exposeHeadRoutes: true } })
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, 200, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
  }
  const plain = JSON.parse(answers[0].fastify.body)
  assert.equal(plain.exposeHeadRoute, true)
  assert.equal(plain.prefixTrailingSlash, 'both')
})

test('request.routeOptions has Fastify\'s keys and no others; a method list stays a list; version is the request\'s Accept-Version once a route is versioned, beside Fastify', async () => {
  const { besideFastify } = await import('../helpers/beside-fastify.js')
  /** @param {any} r */
  const shape = (r) => ({ keys: Object.keys(r).sort(), method: r.method, version: r.version ?? null, schema: r.schema ?? null, handler: typeof r.handler })
  /** @param {any} app */
  const build = (app) => {
    app.route({ method: ['pOSt'], url: '/list', bodyLimit: 1000, handler: (/** @type {any} */ req) => shape(req.routeOptions) })
    app.get('/schema', { schema: { querystring: { type: 'object' } }, preHandler: (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ done) => done() }, (/** @type {any} */ req) => shape(req.routeOptions))
    app.get('/v', { constraints: { version: '1.2.0' } }, (/** @type {any} */ req) => shape(req.routeOptions))
    app.get('/unversioned', (/** @type {any} */ req) => shape(req.routeOptions))
  }
  const asks = [
    { method: 'POST', url: '/list', headers: { 'content-type': 'application/json' }, payload: '[]' },
    '/schema',
    { url: '/v', headers: { 'accept-version': '1.2.0' } },
    { url: '/unversioned', headers: { 'accept-version': '1.x' } }
  ]
  const answers = await besideFastify(build, asks)
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
  }
  const [list, , versioned] = answers.map((a) => JSON.parse(a.fastify.body))
  assert.deepEqual(list.method, ['POST'])
  assert.equal(versioned.version, '1.2.0')
  assert.deepEqual(list.keys, ['attachValidation', 'bodyLimit', 'config', 'exposeHeadRoute', 'handler', 'handlerTimeout', 'logLevel', 'method', 'prefixTrailingSlash', 'schema', 'url', 'version'])
})
