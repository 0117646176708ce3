// What plugins say about themselves: names (pluginName, hasPlugin,
// printPlugins), fastify-plugin's metadata (decorators, dependencies), the
// forms register() takes (a module, a promise of one), options computed
// from the plugin's instance, and app.version.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { hotpath, plugin } from '../lib/index.js'
import { fastify } from '../lib/fastify.js'

/**
 * A plugin marked as fastify-plugin marks it: shared with its parent, with
 * this metadata.
 * @param {Function} fn
 * @param {Record<string, any>} meta
 */
function fp (fn, meta) {
  const f = /** @type {any} */ (fn)
  f[Symbol.for('skip-override')] = true
  f[Symbol.for('plugin-meta')] = meta
  f[Symbol.for('fastify.display-name')] = meta.name
  return fn
}

test('pluginName: the plugin that opened the context, then the shared plugins loaded into it', async () => {
  const app = fastify()
  /** @type {Record<string, string>} */
  const seen = {}
  app.register(fp(async (a) => {
    seen.a = a.pluginName
    await a.register(fp(async (ab) => { seen.ab = ab.pluginName }, { name: 'ab' }))
  }, { name: 'a' }))
  app.register(async function scoped (child) {
    seen.scoped = child.pluginName
    child.register(async (anonymous) => {
      // first line
      seen.anonymous = anonymous.pluginName
    })
  })
  assert.equal(app.pluginName, 'fastify')
  await app.ready()
  assert.deepEqual({ ...seen, anonymous: undefined }, { a: 'fastify -> a', ab: 'fastify -> a -> ab', scoped: 'scoped', anonymous: undefined })
  assert.equal(seen.anonymous, 'async (anonymous) => { -- // first line')
  assert.equal(hotpath().pluginName, 'hotpath')
})

test('hasPlugin: declared names loaded here or in a parent, and the context\'s own chain', async () => {
  const app = hotpath()
  /** @type {Record<string, boolean[]>} */
  const seen = {}
  app.register(plugin(async () => {}, { name: 'db' }))
  app.register(async function outer (o) {
    o.register(async function inner (i) {
      seen.inner = [i.hasPlugin('db'), i.hasPlugin('inner'), i.hasPlugin('outer')]
    })
    o.register(plugin(async () => {}, { name: 'cache' }))
    o.after(() => { seen.outer = [o.hasPlugin('cache'), o.hasPlugin('outer')] })
  })
  await app.ready()
  assert.deepEqual(seen, { inner: [true, true, false], outer: [true, true] })
  assert.equal(app.hasPlugin('cache'), false)
  assert.equal(app.hasPlugin('db'), true)
})

test('printPlugins: the load tree, each plugin under the one that registered it, with its time', async () => {
  const app = hotpath()
  app.register(async function foo (f) {
    f.register(async function bar () {})
    f.register(async function baz () {})
  })
  app.register(async function qux () {})
  await app.ready()
  const tree = app.printPlugins().replace(/\d+ ms/g, 'N ms')
  assert.equal(tree, 'root N ms\n├─┬ foo N ms\n│ ├── bar N ms\n│ └── baz N ms\n└── qux N ms\n')
})

test('fastify-plugin metadata: the decorators and plugins it needs must be there when it loads', async () => {
  const app = fastify()
  app.decorate('db', {})
  app.register(fp(async () => {}, { name: 'needs-db', decorators: { fastify: ['db'] } }))
  app.register(fp(async () => {}, { name: 'needs-user', decorators: { request: ['user'] } }))
  await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', message: "The decorator 'user' required by 'needs-user' is not present in Request" })

  const other = hotpath()
  other.register(fp(async () => {}, { name: 'session', dependencies: ['cookie'] }))
  await assert.rejects(other.ready(), { code: 'HP_ERR_PLUGIN_DEPENDENCY' })

  const ok = hotpath()
  ok.register(fp(async () => {}, { name: 'cookie' }))
  ok.register(fp(async () => {}, { name: 'session', dependencies: ['cookie'] }))
  await ok.ready()
})

test('register() takes a module whose default export is a plugin, and a promise of one', async () => {
  const app = hotpath()
  app.register(Promise.resolve({ default: plugin(async (a, opts) => { a.decorate('fromPromise', opts.value) }) }), { value: 1 })
  app.register({ default: plugin(async (a) => { a.decorate('fromModule', 2) }) })
  app.register(Promise.resolve(plugin(async (a) => { a.decorate('fromFunction', 3) })))
  await app.ready()
  const a = /** @type {any} */ (app)
  assert.deepEqual([a.fromPromise, a.fromModule, a.fromFunction], [1, 2, 3])

  assert.throws(() => hotpath().register(/** @type {any} */ ({})), { code: 'HP_ERR_INVALID_OPTION' })
  const bad = hotpath()
  bad.register(/** @type {any} */ (Promise.resolve({ default: 'nope' })))
  await assert.rejects(bad.ready(), { code: 'HP_ERR_INVALID_OPTION' })
})

test('options given as a function are computed from the plugin\'s instance when it loads', async () => {
  const app = hotpath()
  app.register(plugin(async (a) => { a.decorate('base', 'from-before') }))
  /** @type {any[]} */
  const got = []
  app.register(async (child, opts) => { got.push(opts.base, /** @type {any} */ (child).own) }, (instance) => {
    instance.decorate('own', true)
    return { base: instance.base }
  })
  await app.ready()
  assert.deepEqual(got, ['from-before', true])
  assert.equal(/** @type {any} */ (app).own, undefined)
})

test('version: hotpath\'s release; under hotpath/fastify, the Fastify release it follows', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  assert.equal(hotpath().version, pkg.version)
  assert.match(fastify().version, /^5\.\d+\.\d+$/)
  assert.throws(() => hotpath().decorate('version', 1), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
})

test('onRoute gets url and path with the prefix, routePath as declared, and the prefix', async () => {
  const app = hotpath()
  /** @type {any[]} */
  const seen = []
  app.addHook('onRoute', (route) => { seen.push({ url: route.url, path: route.path, routePath: route.routePath, prefix: route.prefix }) })
  app.register(async (v1) => { v1.get('/foo', () => 'foo') }, { prefix: '/v1' })
  await app.ready()
  assert.deepEqual(seen[0], { url: '/v1/foo', path: '/v1/foo', routePath: '/foo', prefix: '/v1' })
})

test('onRegister is called with the registering instance as this, and the new instance and its options', async () => {
  const app = hotpath()
  /** @type {any[]} */
  const seen = []
  app.addHook('onRegister', function (instance, opts) { seen.push([this, instance.prefix, opts]) })
  /** @type {any} */
  let outer
  app.register(async (o) => {
    outer = o
    o.register(async () => {}, { prefix: '/in' })
  }, { prefix: '/out', custom: 1 })
  await app.ready()
  assert.deepEqual(seen, [[app, '/out', { prefix: '/out', custom: 1 }], [outer, '/out/in', { prefix: '/in' }]])
})

test("fastify-plugin's fastify range is checked against the Fastify release hotpath follows", async () => {
  const fits = hotpath()
  fits.register(fp(async () => {}, { name: 'modern', fastify: '5.x' }))
  await fits.ready()
  const old = fastify()
  old.register(fp(async () => {}, { name: 'legacy', fastify: '4.x' }))
  await assert.rejects(old.ready(), { code: 'FST_ERR_PLUGIN_VERSION_MISMATCH', message: /legacy - expected '4.x' fastify version/ })
})

test('a Fastify release candidate takes the plugins made for the releases before it', async () => {
  const app = fastify()
  Object.defineProperty(app, 'version', { value: '6.0.0-rc.1' })
  app.register(fp(async () => {}, { name: 'for-five', fastify: '5.x' }))
  app.register(fp(async () => {}, { name: 'for-six', fastify: '6.x' }))
  await app.ready()
})
