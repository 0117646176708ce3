// Four behaviours of Fastify that official plugins' suites rely on,
// compared with Fastify: `app.register(p).then(a, b)` returns a promise of
// what a or b returns (@fastify/csrf-protection's tests chain .catch() on
// it); onRoute hooks see `logLevel` ('' or the plugin's) and
// `attachValidation` (false) on every route (@fastify/diagnostics-channel);
// a request or reply decorator may start with `_` unless hotpath's own
// objects use the name (@fastify/circuit-breaker's `_cbTime`); and when an
// onSend hook sets an error status and throws on every answer, the last
// answer keeps that status (@fastify/circuit-breaker's 503).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { besideFastify } from '../helpers/beside-fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')
const both = () => [Fastify(), hotpathFastify()]

test("register(p).then(a, b) is a promise of a's or b's result, as avvio's", async () => {
  for (const make of [() => Fastify(), () => hotpathFastify()]) {
    let app = make()
    await app.register(async () => {})
    const loaded = app.register(async () => {}).then(() => 'loaded')
    assert.equal(typeof loaded.then, 'function')
    assert.equal(await loaded, 'loaded')
    app = make()
    const failed = app.register(async () => { throw new Error('plugin failed') }).then(() => 'loaded', (/** @type {Error} */ err) => `caught: ${err.message}`)
    assert.equal(await failed, 'caught: plugin failed')
    app = make()
    await assert.rejects(app.register(async () => { throw new Error('again') }).then(() => 'loaded'), /again/)
  }
})

test("onRoute hooks see the route's logLevel and attachValidation, as Fastify's", async () => {
  /** @param {any} app */
  async function seen (app) {
    /** @type {unknown[]} */
    const options = []
    app.addHook('onRoute', (/** @type {any} */ o) => { options.push([o.method, o.url, o.logLevel, o.attachValidation]) })
    app.get('/plain', () => 'ok')
    app.post('/own', { logLevel: 'warn', attachValidation: true }, () => 'ok')
    app.register(async (/** @type {any} */ child) => { child.get('/child', () => 'ok') }, { prefix: '/p', logLevel: 'error' })
    await app.ready()
    return options
  }
  const [f, h] = both()
  assert.deepEqual(await seen(h), await seen(f))
})

test('a request or reply decorator may start with _, but not take a name of hotpath\'s own', async () => {
  for (const app of both()) {
    app.decorateRequest('_startedAt', 0)
    app.decorateReply('_mark', '')
    app.addHook('onRequest', async (/** @type {any} */ req, /** @type {any} */ reply) => { req._startedAt = 1; reply._mark = 'm' })
    app.get('/', (/** @type {any} */ req, /** @type {any} */ reply) => ({ startedAt: req._startedAt, mark: reply._mark }))
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { startedAt: 1, mark: 'm' })
  }
  const app = hotpathFastify()
  assert.throws(() => app.decorateRequest('_incoming', null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorateReply('_sent', false), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
})

test('an onSend hook that sets an error status and throws on every answer: the last answer keeps that status', async () => {
  /** @param {any} app */
  function build (app) {
    app.register(async (/** @type {any} */ c) => {
      c.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply) => { reply.statusCode = 503; throw new Error('in onSend') })
      c.get('/every', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.send('ok') })
    })
    app.register(async (/** @type {any} */ c) => {
      c.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {unknown} */ payload) => {
        if (reply.statusCode !== 500) return payload
        reply.code(504)
        throw new Error('open')
      })
      c.get('/after-error', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.send(new Error('kaboom')) })
    })
  }
  for (const { what, fastify, hotpath } of await besideFastify(build, ['/every', '/after-error'])) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
  }
})

test("the names of registered plugins under Fastify's Symbol.for('registered-plugin'), in a scope and at the root, as on Fastify", async () => {
  const fp = require('fastify-plugin')
  const kRegisteredPlugins = Symbol.for('registered-plugin')
  /** @type {Array<{ root: string[], child: string[] }>} */
  const seen = []
  for (const app of both()) {
    app.register(fp(async () => {}, { name: 'root-one' }))
    /** @type {string[]} */
    let child = []
    app.register(async (/** @type {any} */ scope) => {
      scope.register(fp(async () => {}, { name: 'child-one' }))
      scope.after(() => { child = Array.from({ length: scope[kRegisteredPlugins].length }, (_, i) => scope[kRegisteredPlugins][i]) })
    })
    app.register(async () => {})
    await app.ready()
    seen.push({ root: [...app[kRegisteredPlugins]], child })
    await app.close()
  }
  assert.deepEqual(seen[1], seen[0])
  assert.deepEqual(seen[0], { root: ['root-one'], child: ['root-one', 'child-one'] })
})
