// Looking routes up from the app, outside a request: findRoute (what a
// request would reach), hasRoute (what is declared) and printRoutes (the
// tree as text).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

test('findRoute: the handler, params and query a request would get; null for another method or path', async () => {
  const app = hotpath()
  const show = () => 'artist'
  app.get('/artists/:id', show)
  app.register(async (child) => {
    child.get('/items/*', () => 'item')
    // from inside a plugin too, with the full path
    assert.notEqual(child.findRoute({ method: 'GET', url: '/artists/1' }), null)
  }, { prefix: '/v1' })
  await app.ready()
  const found = /** @type {any} */ (app.findRoute({ method: 'get', url: '/artists/7?full=1' }))
  assert.equal(found.handler, show)
  assert.deepEqual(found.params, { id: '7' })
  assert.deepEqual(found.searchParams, { full: '1' })
  assert.deepEqual(/** @type {any} */ (app.findRoute({ method: 'GET', url: '/v1/items/a/b' })).params, { '*': 'a/b' })
  assert.equal(app.findRoute({ method: 'POST', url: '/artists/7' }), null)
  assert.equal(app.findRoute({ method: 'GET', url: '/books/7' }), null)
  assert.equal(app.findRoute({ method: 'GET' }), null)
  assert.equal(app.findRoute(/** @type {any} */ ({ url: '/artists/7' })), null)
  // what it returns is a copy: changing it changes nothing
  found.params.id = 'changed'
  assert.deepEqual(/** @type {any} */ (app.findRoute({ method: 'GET', url: '/artists/7' })).params, { id: '7' })
  assert.equal('store' in found, false)
})

test('hasRoute: a declared method and path pattern, constraints included', () => {
  const app = hotpath()
  app.get('/', () => 'root')
  app.get('/files/:name(^\\d+).png', () => 'file')
  app.route({ method: 'GET', url: '/api', constraints: { version: '1.2.0' }, handler: () => 'v1' })
  assert.equal(app.hasRoute({ method: 'GET', url: '/' }), true)
  assert.equal(app.hasRoute({ method: 'get', url: '/' }), true)
  assert.equal(app.hasRoute({ method: 'POST', url: '/' }), false)
  assert.equal(app.hasRoute({ method: 'GET', url: '/files/:name(^\\d+).png' }), true)
  assert.equal(app.hasRoute({ method: 'GET', url: '/files/1.png' }), false)
  assert.equal(app.hasRoute({ method: 'GET', url: '/api', constraints: { version: '1.2.0' } }), true)
  assert.equal(app.hasRoute({ method: 'GET', url: '/api', constraints: { version: '1.3.0' } }), false)
  assert.equal(app.hasRoute(/** @type {any} */ ({})), false)
  assert.equal(app.hasRoute({ method: 'GET' }), false)
})

test('printRoutes: the merged tree, one method\'s, or one line per path; HEAD routes after their GET', async () => {
  const app = hotpath()
  app.get('/hello', () => 'hi')
  app.put('/hello', () => 'put')
  app.get('/helicopter', () => 'fly')
  app.get('/users/:id', { exposeHeadRoute: false }, () => 'user')
  await app.ready()
  assert.equal(app.printRoutes(), [
    '└── /',
    '    ├── hel',
    '    │   ├── lo (GET, HEAD, PUT)',
    '    │   └── icopter (GET, HEAD)',
    '    └── users/',
    '        └── :id (GET)',
    ''
  ].join('\n'))
  assert.equal(app.printRoutes({ method: 'PUT' }), '└── /\n    └── hello (PUT)\n')
  assert.equal(app.printRoutes({ commonPrefix: false }), [
    '├── /hello (GET, HEAD, PUT)',
    '├── /helicopter (GET, HEAD)',
    '└── /users/:id (GET)',
    ''
  ].join('\n'))
})

test('printRoutes: includeHooks and includeMeta show each route\'s hooks, error handler and options', async () => {
  const app = hotpath({ exposeHeadRoutes: false })
  app.addHook('onRequest', function checkAuth () {})
  app.get('/a', { config: { public: true }, preHandler: function loadUser () {} }, () => 'a')
  await app.ready()
  assert.equal(app.printRoutes({ commonPrefix: false, includeHooks: true }), [
    '└── /a (GET)',
    '    • (onRequest) ["checkAuth()"]',
    '    • (preHandler) ["loadUser()"]',
    ''
  ].join('\n'))
  assert.equal(app.printRoutes({ commonPrefix: false, includeMeta: ['config'] }), [
    '└── /a (GET)',
    '    • (config) {"public":true}',
    ''
  ].join('\n'))
  assert.match(app.printRoutes({ commonPrefix: false, includeMeta: true }), /• \(errorHandler\) "defaultErrorHandler\(\)"/)
})

test('printRoutes: hooks in Fastify\'s order (onTimeout first); a GET route\'s HEAD route ends its onSend hooks with headRouteOnSendHandler', async () => {
  const app = hotpath()
  app.addHook('onRequest', function checkAuth () {})
  app.addHook('onTimeout', function onTimeout () {})
  app.get('/a', () => 'a')
  await app.ready()
  assert.equal(app.printRoutes({ commonPrefix: false, includeHooks: true }), [
    '└── /a (GET)',
    '    • (onTimeout) ["onTimeout()"]',
    '    • (onRequest) ["checkAuth()"]',
    '    /a (HEAD)',
    '    • (onTimeout) ["onTimeout()"]',
    '    • (onRequest) ["checkAuth()"]',
    '    • (onSend) ["headRouteOnSendHandler()"]',
    ''
  ].join('\n'))
  assert.equal(app.printRoutes({ commonPrefix: false }), '└── /a (GET, HEAD)\n')
})

test('printRoutes: a hook written with done() is listed under its own name, not its adapter\'s', async () => {
  for (const make of [hotpath, fastify]) {
    const app = make({ exposeHeadRoutes: false })
    // (req, reply, done) and, under hotpath/fastify, a function that declares no parameter get done()
    app.addHook('onRequest', function withDone (_req, _reply, done) { done() })
    app.addHook('preHandler', function noParams () { const done = arguments[2]; if (typeof done === 'function') done() })
    app.get('/a', () => 'a')
    await app.ready()
    const listed = app.printRoutes({ commonPrefix: false, includeHooks: true })
    assert.match(listed, /• \(onRequest\) \["withDone\(\)"\]/, listed)
    assert.match(listed, /• \(preHandler\) \["noParams\(\)"\]/, listed)
    assert.equal((await app.inject('/a')).body, 'a')
  }
})
