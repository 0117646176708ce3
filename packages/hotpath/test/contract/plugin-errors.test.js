// A plugin that fails: what loads after it, what after() sees, and when the
// failure still fails ready().
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'

test('the plugins queued after a failed one are not loaded; after(fn) still runs', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const order = []
  app.register(async () => { throw new Error('kaboom') })
  app.register(async () => { order.push('second plugin') })
  app.after(() => { order.push('after without parameters') })
  await assert.rejects(app.ready(), /kaboom/)
  assert.deepEqual(order, ['after without parameters'])
})

test('after(err) receives the failure and handles it: the app starts and serves', async () => {
  const app = hotpath()
  /** @type {unknown[]} */
  const seen = []
  app.register((_instance, _opts, done) => { done(new Error('kaboom')) })
  app.after((/** @type {Error} */ err) => { seen.push(err.message) })
  app.get('/', () => ({ ok: true }))
  await app.ready()
  assert.deepEqual(seen, ['kaboom'])
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
})

test('after(err, done) may pass the failure on: ready() fails with it', async () => {
  const app = hotpath()
  app.register(async () => { throw new Error('kaboom') })
  app.after((/** @type {Error} */ err, /** @type {Function} */ done) => { done(err) })
  await assert.rejects(app.ready(), /kaboom/)
})

test('after(err, instance, done) gets the instance between the error and done', async () => {
  const app = hotpath()
  /** @type {unknown[]} */
  const seen = []
  app.after((/** @type {unknown} */ err, /** @type {unknown} */ instance, /** @type {Function} */ done) => {
    seen.push(err, instance === app)
    done()
  })
  await app.ready()
  assert.deepEqual(seen, [null, true])
})

test('a failure an `await register()` caught still fails after() and ready(), and nothing registered later loads', async () => {
  const app = hotpath()
  let loaded = false
  await assert.rejects(async () => { await app.register(async () => { throw new Error('kaboom') }) }, /kaboom/)
  app.register(async () => { loaded = true })
  const after = app.after()
  assert.ok(after instanceof Promise, 'after() with no function is a promise')
  await assert.rejects(after, /kaboom/)
  await assert.rejects(app.ready(), /kaboom/)
  assert.equal(loaded, false)
})
