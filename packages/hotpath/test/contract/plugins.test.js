import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath, { plugin } from '../../lib/index.js'

eachMode('plugins and encapsulation', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const registered = []
  before(async () => {
    s = await setup(mode, async (app) => {
      app.decorate('apiVersion', '1.0')
      app.decorateRequest('user', null)
      app.decorateReply('ok', function (/** @type {any} */ data) { return this.send({ ok: true, data }) })
      app.addHook('onRegister', (/** @type {any} */ instance) => { registered.push(instance.prefix) })
      app.addHook('onRequest', (req) => { /** @type {any} */ (req).user = 'root-user' })

      // a shared plugin: its decorators and hooks reach the parent
      app.register(plugin(async (inst) => {
        inst.decorate('db', { name: 'shared-db' })
        inst.addHook('onRequest', (req, reply) => { reply.header('x-shared', 'yes') })
      }, { name: 'db' }))

      await app.register(async (child) => {
        child.decorate('childOnly', true)
        child.decorateRequest('tenant', 'acme')
        child.addHook('onRequest', (req, reply) => { reply.header('x-child', 'yes') })
        child.get('/', function (req) {
          return { version: this.apiVersion, db: this.db.name, childOnly: this.childOnly, tenant: /** @type {any} */ (req).tenant, user: /** @type {any} */ (req).user }
        })
        child.register(async (grand) => {
          grand.get('/deep', (req, reply) => /** @type {any} */ (reply).ok(/** @type {any} */ (req).tenant))
        }, { prefix: '/grand' })
      }, { prefix: '/child' })

      app.get('/root', function (req) {
        return { childOnly: this.childOnly ?? null, tenant: /** @type {any} */ (req).tenant ?? null, db: this.db.name }
      })
    })
  })
  after(() => s.close())

  test('child context sees parent decorators, hooks and shared plugins', async () => {
    const res = await s.request('/child')
    assert.deepEqual(res.json(), { version: '1.0', db: 'shared-db', childOnly: true, tenant: 'acme', user: 'root-user' })
    assert.equal(res.headers['x-child'], 'yes')
    assert.equal(res.headers['x-shared'], 'yes')
    assert.deepEqual((await s.request('/child/grand/deep')).json(), { ok: true, data: 'acme' })
  })

  test('the parent does not see the child\'s decorators or hooks', async () => {
    const res = await s.request('/root')
    assert.deepEqual(res.json(), { childOnly: null, tenant: null, db: 'shared-db' })
    assert.equal(res.headers['x-child'], undefined)
    assert.equal(res.headers['x-shared'], 'yes')
  })

  test('onRegister runs for each encapsulated context', () => {
    assert.deepEqual(registered, ['/child', '/child/grand'])
  })
})

test('decorating twice, after ready, and adding routes after ready throw coded errors at once', async () => {
  const app = hotpath()
  app.decorate('a', 1)
  assert.throws(() => app.decorate('a', 2), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorate('get', 2), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  app.decorateRequest('user', null)
  assert.throws(() => app.decorateRequest('user', null), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorateRequest('body', null), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorateReply('raw', null), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  app.get('/', () => 'x')
  assert.throws(() => app.get('/', () => 'y'), { code: 'HP_ERR_DUPLICATE_ROUTE' })
  await app.ready()
  assert.throws(() => app.decorate('b', 1), { code: 'HP_ERR_DEC_AFTER_READY' })
  assert.throws(() => app.decorateRequest('c', 1), { code: 'HP_ERR_DEC_AFTER_READY' })
  assert.throws(() => app.get('/late', () => 'x'), { code: 'HP_ERR_ROUTE_AFTER_READY' })
  assert.throws(() => app.addHook('onRequest', () => {}), { code: 'HP_ERR_HOOK_AFTER_READY' })
  assert.throws(() => app.register(async () => {}), { code: 'HP_ERR_REGISTER_AFTER_READY' })
  assert.throws(() => app.addHook('onNothing', () => {}), { code: 'HP_ERR_HOOK_AFTER_READY' })
  await app.close()
})

test('invalid options and hooks are refused at once', () => {
  assert.throws(() => hotpath({ engine: /** @type {any} */ ('nope') }), { code: 'HP_ERR_UNKNOWN_ENGINE' })
  assert.throws(() => hotpath({ bodyLimit: -1 }), { code: 'HP_ERR_INVALID_OPTION' })
  const app = hotpath()
  assert.throws(() => app.addHook('onNothing', () => {}), { code: 'HP_ERR_HOOK_NOT_SUPPORTED' })
  assert.throws(() => app.get('/x', /** @type {any} */ (null)), { code: 'HP_ERR_ROUTE_MISSING_HANDLER' })
})

test('register is awaitable and chainable; app hooks run in order', async () => {
  /** @type {string[]} */
  const order = []
  const app = hotpath()
  app.addHook('onReady', () => { order.push('onReady') })
  app.addHook('onListen', () => { order.push('onListen') })
  app.addHook('preClose', () => { order.push('preClose') })
  app.addHook('onClose', () => { order.push('onClose') })
  app.addHook('onRoute', (/** @type {any} */ r) => { order.push(`route ${r.method} ${r.url}`) })
  await app.register(async (p) => { order.push('a'); p.get('/a', () => 'a') }).register(async () => { order.push('b') })
  order.push('after await')
  await app.listen({ port: 0, host: '127.0.0.1' })
  await app.close()
  assert.deepEqual(order, ['a', 'route GET /a', 'route HEAD /a', 'b', 'after await', 'onReady', 'onListen', 'preClose', 'onClose'])
})
