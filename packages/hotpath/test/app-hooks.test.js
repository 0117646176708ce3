// onReady and onListen as Fastify runs them: each context's own, then its
// children's; an onListen hook's failure is logged and listen() does not
// wait for them; an onReady hook may still decorate the instance and add
// the later app hooks; a plugin's ready(cb) is called once every plugin has
// loaded, before the onReady hooks; ready(cb) is given the instance.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { hotpath } from '../lib/index.js'

function capture () {
  /** @type {any[]} */
  const lines = []
  const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
  return { lines, logger: { level: 'info', stream } }
}

test('onListen: root first, then each plugin\'s in load order; a failure is logged and the next runs; listen() does not wait', async () => {
  const { lines, logger } = capture()
  const app = hotpath({ logger })
  /** @type {string[]} */
  const order = []
  /** @type {(() => void) | undefined} */
  let release
  app.register(async (child) => {
    child.addHook('onListen', async function () {
      order.push('child')
      assert.equal(this, child)
      throw new Error('child failed')
    })
    child.register(async (grandchild) => {
      grandchild.addHook('onListen', function (done) {
        order.push('grandchild')
        done()
      })
    })
  })
  app.addHook('onListen', function () {
    order.push('root')
    throw new Error('root failed')
  })
  app.addHook('onListen', () => new Promise((resolve) => { release = () => resolve(undefined) }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  // the last root hook holds the others, not listen()
  assert.deepEqual(order, ['root'])
  const releaseHook = /** @type {() => void} */ (release)
  releaseHook()
  for (let i = 0; i < 50 && order.length < 3; i++) await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(order, ['root', 'child', 'grandchild'])
  assert.deepEqual(lines.filter((l) => l.level === 50).map((l) => l.err?.message ?? l.msg), ['root failed', 'child failed'])
  await app.close()
})

test('onReady: root first, then each plugin\'s; it may decorate the instance and add the later app hooks, an onReady added then is not run', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const order = []
  app.register(async (child) => {
    child.addHook('onReady', () => { order.push('child') })
  })
  await app.after()
  app.addHook('onReady', function () {
    order.push('root')
    this.decorate('late', 1)
    this.addHook('onReady', () => { order.push('never') })
    this.addHook('onClose', () => { order.push('closed') })
  })
  await app.ready()
  assert.equal(/** @type {any} */ (app).late, 1)
  assert.deepEqual(order, ['root', 'child'])
  assert.throws(() => app.decorate('later', 1), { code: 'HP_ERR_DEC_AFTER_READY' })
  assert.throws(() => app.addHook('onClose', () => {}), { code: 'HP_ERR_HOOK_AFTER_READY' })
  await app.close()
  assert.deepEqual(order, ['root', 'child', 'closed'])
})

test('a plugin\'s ready(cb) runs once every plugin has loaded, in call order, before the onReady hooks; ready(cb) gets the instance', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const order = []
  app.addHook('onReady', () => { order.push('onReady') })
  app.register(async (a) => {
    a.ready(() => order.push('a ready'))
    await a.register(async (b) => {
      b.ready(() => order.push('b ready'))
    })
    order.push('a loaded')
  })
  app.register(async () => { order.push('c loaded') })
  /** @type {unknown[]} */
  const given = await new Promise((resolve) => app.ready((...args) => resolve(args)))
  assert.deepEqual(given, [null, app])
  assert.deepEqual(order, ['a loaded', 'c loaded', 'a ready', 'b ready', 'onReady'])
})
