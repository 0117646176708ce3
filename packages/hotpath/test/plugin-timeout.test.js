// pluginTimeout: a plugin that neither calls done() nor settles its promise
// fails ready() after pluginTimeout ms (10 s by default, as Fastify's),
// naming the plugin as Fastify does; 0 waits as long as it takes. Under
// hotpath/fastify the error is Fastify's (FST_ERR_PLUGIN_TIMEOUT).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../lib/index.js'
import fastify from '../lib/fastify.js'
import { plugin } from '../lib/index.js'

test('a plugin that never calls done fails ready() after pluginTimeout, named by its function', async () => {
  const app = hotpath({ pluginTimeout: 20 })
  app.register(function stuck (_instance, _opts, _done) {})
  await assert.rejects(app.ready(), {
    code: 'HP_ERR_PLUGIN_TIMEOUT',
    message: "Plugin did not start in time: 'stuck'. You may have forgotten to call 'done' function or to resolve a Promise"
  })
})

test('an anonymous plugin is named by its first two lines; a promise that never settles counts too', async () => {
  const app = hotpath({ pluginTimeout: 20 })
  app.register(function (_instance, _opts, _done) {
    // never done
  })
  await assert.rejects(app.ready(), (/** @type {any} */ err) => {
    assert.equal(err.message, "Plugin did not start in time: 'function (_instance, _opts, _done) { -- // never done'. You may have forgotten to call 'done' function or to resolve a Promise")
    return true
  })
  const app2 = hotpath({ pluginTimeout: 20 })
  app2.register(plugin(async () => new Promise(() => {}), { name: 'db-connector' }))
  await assert.rejects(app2.ready(), { code: 'HP_ERR_PLUGIN_TIMEOUT', message: /'db-connector'/ })
})

test("under hotpath/fastify, Fastify's code, message and cause", async () => {
  const app = fastify({ pluginTimeout: 20 })
  app.register(function stuck (_instance, _opts, _done) {})
  await assert.rejects(app.ready(), (/** @type {any} */ err) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
    assert.equal(err.message, "fastify-plugin: Plugin did not start in time: 'stuck'. You may have forgotten to call 'done' function or to resolve a Promise")
    assert.equal(err.cause.code, 'AVV_ERR_PLUGIN_EXEC_TIMEOUT')
    return true
  })
})

test('a plugin that finishes in time loads; 0 turns the limit off; the default is 10 s', async () => {
  const app = hotpath({ pluginTimeout: 1000 })
  app.register(async (instance) => { instance.get('/', () => 'ok') })
  await app.ready()
  assert.equal((await app.inject('/')).body, 'ok')
  const slow = hotpath({ pluginTimeout: 0 })
  slow.register((_instance, _opts, done) => { setTimeout(done, 30) })
  await slow.ready()
  assert.equal(hotpath().initialConfig.pluginTimeout, 10_000)
  assert.throws(() => hotpath({ pluginTimeout: -1 }), { code: 'HP_ERR_INVALID_OPTION' })
})

test('an onReady hook that never finishes fails ready() after pluginTimeout, named by its function', async () => {
  const app = hotpath({ pluginTimeout: 20 })
  app.addHook('onReady', function warmCache (_done) {})
  await assert.rejects(app.ready(), {
    code: 'HP_ERR_HOOK_TIMEOUT',
    message: "A callback for 'onReady' hook \"warmCache\" timed out. You may have forgotten to call 'done' function or to resolve a Promise"
  })
  const f = fastify({ pluginTimeout: 20 })
  f.addHook('onReady', async () => new Promise(() => {}))
  await assert.rejects(f.ready(), (/** @type {any} */ err) => {
    assert.equal(err.code, 'FST_ERR_HOOK_TIMEOUT')
    assert.equal(err.cause.code, 'AVV_ERR_READY_TIMEOUT')
    return true
  })
})

test('a boot that starts while the timers are faked still completes', async () => {
  // as sinon's FakeTimers does: setImmediate replaced by one that never runs
  const real = globalThis.setImmediate
  globalThis.setImmediate = /** @type {any} */ (() => {})
  try {
    const app = hotpath()
    app.get('/', () => 'ok')
    await app.ready()
    assert.equal((await app.inject('/')).body, 'ok')
  } finally {
    globalThis.setImmediate = real
  }
})
