// Route `constraints`, as Fastify takes them (find-my-way's strategies):
// `host` (a name or a RegExp, against the Host header) and `version` (a
// semver range, against Accept-Version). A path with a constrained route is
// found through the router, never through the exact-path Map, so a request
// that meets no constraint gets the unconstrained route, or 404.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

eachMode('route constraints', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/site', { constraints: { host: 'example.com' } }, () => 'example.com')
      app.get('/site', { constraints: { host: /^api\./ } }, () => 'api')
      app.get('/site', () => 'any host')
      app.get('/only-admin', { constraints: { host: 'admin.example.com' } }, () => 'admin')
      app.get('/items/:id', { constraints: { version: '2.1.0' } }, (req) => ({ v: 2, id: req.params.id }))
      app.get('/items/:id', (req) => ({ v: 1, id: req.params.id }))
    })
  })
  after(() => s.close())

  test('host: the route for the Host asked for, else the unconstrained one', async () => {
    assert.equal((await s.request({ url: '/site', headers: { host: 'example.com' } })).body, 'example.com')
    assert.equal((await s.request({ url: '/site', headers: { host: 'api.example.com' } })).body, 'api')
    assert.equal((await s.request({ url: '/site', headers: { host: 'other.test' } })).body, 'any host')
  })

  test('host: a path whose only route is constrained is 404 for another host; HEAD follows the constraint', async () => {
    assert.equal((await s.request({ url: '/only-admin', headers: { host: 'admin.example.com' } })).body, 'admin')
    assert.equal((await s.request({ url: '/only-admin', headers: { host: 'www.example.com' } })).statusCode, 404)
    assert.equal((await s.request({ method: 'HEAD', url: '/only-admin', headers: { host: 'admin.example.com' } })).statusCode, 200)
    assert.equal((await s.request({ method: 'HEAD', url: '/only-admin', headers: { host: 'www.example.com' } })).statusCode, 404)
  })

  test('version: the route declares a version, Accept-Version a range of them; without it, the unversioned route', async () => {
    assert.deepEqual((await s.request({ url: '/items/7', headers: { 'accept-version': '2.1.0' } })).json(), { v: 2, id: '7' })
    assert.deepEqual((await s.request({ url: '/items/7', headers: { 'accept-version': '2.x' } })).json(), { v: 2, id: '7' })
    assert.deepEqual((await s.request('/items/7')).json(), { v: 1, id: '7' })
    assert.equal((await s.request({ url: '/items/7', headers: { 'accept-version': '3.x' } })).statusCode, 404)
  })
})

test('constraints are refused at once when not an object or not host/version; the same constraints twice are a duplicate', () => {
  const app = hotpath()
  assert.throws(() => app.get('/a', { constraints: /** @type {any} */ ('example.com') }, () => 'x'), { code: 'HP_ERR_INVALID_ROUTE', message: /constraints must be an object/ })
  assert.throws(() => app.get('/a', { constraints: /** @type {any} */ ({ region: 'eu' }) }, () => 'x'), { code: 'HP_ERR_INVALID_ROUTE', message: /unknown constraint "region"/ })
  const app3 = hotpath()
  app3.get('/a', { constraints: { host: 'a.test' } }, () => 'x')
  assert.throws(() => app3.get('/a', { constraints: { host: 'a.test' } }, () => 'y'), { code: 'HP_ERR_DUPLICATE_ROUTE' })
  app3.get('/a', { constraints: { host: 'b.test' } }, () => 'z')
})

test('an app without constraints never derives them', async () => {
  const app = hotpath()
  app.get('/', () => 'ok')
  await app.ready()
  let derived = 0
  const table = /** @type {any} */ (app)._core.routes
  const original = table.deriveConstraints
  table.deriveConstraints = (/** @type {any} */ raw) => { derived++; return original(raw) }
  assert.equal((await app.inject('/')).statusCode, 200)
  assert.equal((await app.inject('/nope')).statusCode, 404)
  assert.equal(derived, 0)
  assert.equal(table.constrained, false)
})
