// The instance as Fastify's users hold it, beside real Fastify in each
// test: register() returns the instance; the instance is awaitable until
// its plugins are loaded (`await app` loads those registered so far and
// resolves to the app, a failed plugin rejects it), then no longer
// thenable; `app.log` may be replaced; listen(cb) followed at once by
// close() never calls cb.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** Both factories, each test run on both and the outcomes compared. */
const FACTORIES = /** @type {const} */ ([['fastify', Fastify], ['hotpath', hotpathFastify]])

/**
 * Runs `trial` on an app of each and returns what each gave.
 * @param {(app: any) => Promise<unknown>} trial
 */
async function both (trial) {
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const [name, make] of FACTORIES) {
    const app = make()
    try {
      out[name] = await trial(app)
    } finally {
      await app.close()
    }
  }
  return out
}

/** A plugin that shares its decorator with its parent (fastify-plugin's mark). */
function shared (/** @type {string} */ name, /** @type {unknown} */ value) {
  return Object.assign(async (/** @type {any} */ instance) => { instance.decorate(name, value) }, { [Symbol.for('skip-override')]: true })
}

test('register() returns the instance, and so does after(fn)', async () => {
  const out = await both(async (app) => ({
    register: app.register(async () => {}) === app,
    after: app.after(() => {}) === app
  }))
  assert.deepEqual(out.hotpath, out.fastify)
  assert.deepEqual(out.hotpath, { register: true, after: true })
})

test('await app loads the plugins registered so far and resolves to the app', async () => {
  const out = await both(async (app) => {
    app.register(shared('first', 1))
    const before = app.first
    const awaited = await app
    const afterFirst = app.first
    const second = await app.register(shared('second', 2))
    return { before, same: awaited === app, afterFirst, secondSame: second === app, second: app.second }
  })
  assert.deepEqual(out.hotpath, out.fastify)
  assert.deepEqual(out.hotpath, { before: undefined, same: true, afterFirst: 1, secondSame: true, second: 2 })
})

test('await app.register() of a failing plugin rejects with its error', async () => {
  const out = await both(async (app) => {
    try {
      await app.register(async () => { throw new Error('plugin failed') })
      return 'resolved'
    } catch (err) {
      return /** @type {Error} */ (err).message
    }
  })
  assert.deepEqual(out.hotpath, out.fastify)
  assert.equal(out.hotpath, 'plugin failed')
})

test('once ready, the instance is no longer thenable: an async function returns it as it is', async () => {
  const out = await both(async (app) => {
    const ready = await app.ready()
    const returned = await (async () => app)()
    return { ready: ready === app, thenAfterReady: typeof app.then, returned: returned === app }
  })
  assert.deepEqual(out.hotpath, out.fastify)
  assert.deepEqual(out.hotpath, { ready: true, thenAfterReady: 'undefined', returned: true })
})

test('app.log may be replaced', async () => {
  const out = await both(async (app) => {
    const wrapper = { info () {}, error () {}, child () { return this } }
    app.log = wrapper
    return app.log === wrapper
  })
  assert.deepEqual(out.hotpath, out.fastify)
  assert.equal(out.hotpath, true)
})

test('listen(cb) followed at once by close(): cb is never called', async () => {
  const out = await both(async (app) => {
    /** @type {unknown[]} */
    const calls = []
    app.listen({ port: 0, host: '127.0.0.1' }, (/** @type {unknown} */ err, /** @type {unknown} */ address) => { calls.push([err, address]) })
    await app.close()
    // a callback would come in a later tick
    await new Promise((resolve) => setTimeout(resolve, 50))
    return calls
  })
  assert.deepEqual(out.hotpath, out.fastify)
  assert.deepEqual(out.hotpath, [])
})

test("a plugin that decorates `use` (as middie does) replaces hotpath's own use() in its scope only", async () => {
  const app = hotpathFastify()
  /** @this {any} @param {Function} fn */
  const mine = function use (fn) {
    this.addHook('onRequest', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => fn(req.raw, reply.raw, done))
    return this
  }
  /** @type {unknown} */
  let childUse = null
  await app.register(async (/** @type {any} */ child) => {
    child.decorate('use', mine)
    childUse = child.use
    child.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => { res.setHeader('x-mine', 'yes'); next() })
    child.get('/in', async () => 'in')
  })
  app.get('/out', async () => 'out')
  assert.equal(childUse, mine)
  assert.notEqual(app.use, mine)
  const inside = await app.inject('/in')
  const outside = await app.inject('/out')
  assert.equal(inside.headers['x-mine'], 'yes')
  assert.equal(outside.headers['x-mine'], undefined)
  await app.close()
})
