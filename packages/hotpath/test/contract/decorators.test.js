// Decorators at their edges, as Fastify has them: the members every
// request and reply has count as decorated; getDecorator and setDecorator;
// a plugin's own value for its parent's decorator.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'
import { eachMode, setup } from '../helpers/engines.js'

test('the built-in members of requests and replies count as decorated: refused as names, accepted as dependencies', async () => {
  const app = hotpath()
  for (const name of ['id', 'params', 'raw', 'query', 'log', 'body']) {
    assert.equal(app.hasRequestDecorator(name), true, name)
    assert.throws(() => app.decorateRequest(name, null), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
    app.decorateRequest(`uses_${name}`, null, [name])
  }
  for (const name of ['raw', 'request', 'log']) {
    assert.equal(app.hasReplyDecorator(name), true, name)
    app.decorateReply(`uses_${name}`, null, [name])
  }
  assert.equal(app.hasRequestDecorator('nonExistent'), false)
  assert.equal(app.hasReplyDecorator('body'), false)
  assert.throws(() => app.decorateReply('withBody', null, ['body']), { code: 'HP_ERR_DEC_MISSING_DEPENDENCY' })
  await app.register(async (child) => {
    child.decorateRequest('scoped', null, ['body', 'uses_body'])
    assert.equal(child.hasRequestDecorator('scoped'), true)
  })
  await app.ready()
  await app.close()
})

eachMode('getDecorator, setDecorator and server', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any} */
  let child
  /** @type {unknown[]} what setDecorator threw for an undeclared name, per request */
  const undeclared = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.decorate('helper', function () { return this })
      app.decorateRequest('session', null)
      app.decorateRequest('who', function () { return this })
      app.decorateReply('tag', 'root')
      app.addHook('onRequest', async (/** @type {any} */ req) => {
        req.setDecorator('session', { user: 'ada' })
        try {
          req.setDecorator('nope', 1)
          undeclared.push('no error')
        } catch (err) {
          undeclared.push(/** @type {any} */ (err).code)
        }
      })
      app.get('/', (/** @type {any} */ req, /** @type {any} */ reply) => ({
        session: req.getDecorator('session'),
        bound: req.getDecorator('who')() === req,
        tag: reply.getDecorator('tag'),
        server: req.server === app && reply.server === app
      }))
      app.register(async (/** @type {any} */ api) => {
        child = api
        // a plugin may declare its own value for its parent's decorators
        api.decorate('helper', 'child')
        api.decorateReply('tag', 'child')
        api.get('/child', (/** @type {any} */ req, /** @type {any} */ reply) => ({
          tag: reply.getDecorator('tag'),
          server: req.server === api && reply.server === api,
          missing: (() => { try { return reply.getDecorator('missing') } catch (e) { return /** @type {any} */ (e).code } })()
        }))
      })
    })
  })
  after(() => s.close())

  test('an app\'s getDecorator binds functions, and throws for an undeclared name', () => {
    assert.equal(s.app.getDecorator('helper')(), s.app)
    assert.equal(child.getDecorator('helper'), 'child')
    assert.throws(() => s.app.getDecorator('missing'), { code: 'HP_ERR_DEC_UNDECLARED' })
    assert.throws(() => s.app.decorate('helper', 1), { code: 'HP_ERR_DEC_AFTER_READY' })
  })

  test('a request\'s and reply\'s, and the instance that declared the route', async () => {
    undeclared.length = 0
    assert.deepEqual((await s.request('/')).json(), { session: { user: 'ada' }, bound: true, tag: 'root', server: true })
    assert.deepEqual(undeclared, ['HP_ERR_DEC_UNDECLARED'], 'setDecorator of an undeclared name throws')
    assert.deepEqual((await s.request('/child')).json(), { tag: 'child', server: true, missing: 'HP_ERR_DEC_UNDECLARED' })
  })
})

test('a built-in member of the app, or a decorator declared twice in one scope, is refused', () => {
  const app = hotpath()
  assert.throws(() => app.decorate('register', 1), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorate('server', 1), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  app.decorate('once', 1)
  assert.throws(() => app.decorate('once', 2), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  app.decorateRequest('r', 1)
  assert.throws(() => app.decorateRequest('r', 2), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
})

test('hotpath/fastify: an undeclared decorator throws with Fastify\'s code and message', async () => {
  const { default: Fastify } = await import('../../lib/fastify.js')
  const app = Fastify()
  assert.throws(() => app.getDecorator('foo'), { code: 'FST_ERR_DEC_UNDECLARED', message: "No decorator 'foo' has been declared on instance." })
})

test('a plugin may decorate use() in place of the built-in middleware use(), once per context', async () => {
  const app = hotpath()
  app.register(async (scoped) => {
    scoped.decorate('use', () => 'replaced')
    assert.equal(/** @type {any} */ (scoped).use(), 'replaced')
    assert.throws(() => scoped.decorate('use', () => 'again'), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  })
  await app.ready()
  // the parent keeps the built-in one
  assert.throws(() => app.use(), { code: 'HP_ERR_INVALID_OPTION' })
})
