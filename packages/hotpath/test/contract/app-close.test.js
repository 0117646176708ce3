// close(): the order of preClose and onClose hooks, closing an app that
// never started, and what the app refuses once close() has begun.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import hotpath from '../../lib/index.js'

test('onClose hooks run after the server has closed, the last added first; preClose hooks before, in order', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const order = []
  app.addHook('preClose', () => { order.push('preClose 1') })
  app.addHook('onClose', () => { order.push('onClose root') })
  app.register(async (child) => {
    child.addHook('onClose', () => { order.push('onClose child') })
  })
  app.addHook('preClose', () => { order.push('preClose 2') })
  app.addHook('onClose', () => { order.push(`listening: ${app.server.listening}`) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  await app.close()
  // the child's hook was added when its plugin loaded, after the root's two
  assert.deepEqual(order, ['preClose 1', 'preClose 2', 'onClose child', 'listening: false', 'onClose root'])
})

test('each onClose hook gets the instance it was added on, as its argument and as this', async () => {
  const app = hotpath()
  /** @type {any[]} */
  const seen = []
  /** @type {any} */
  let child = null
  app.register((instance, _opts, done) => {
    child = instance
    instance.decorate('marker', 'child')
    instance.addHook('onClose', /** @this {any} */ function (i, next) {
      seen.push(i === child, this === child, i.marker)
      next()
    })
    done()
  })
  await app.close()
  assert.deepEqual(seen, [true, true, 'child'])
})

test('close() on an app that never started loads its plugins, and their onClose hooks run', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const order = []
  app.register(async (p) => {
    order.push('plugin loaded')
    p.addHook('onClose', async () => { order.push('plugin onClose') })
  })
  await new Promise((resolve, reject) => app.close((/** @type {any} */ err) => err ? reject(err) : resolve(null)))
  assert.deepEqual(order, ['plugin loaded', 'plugin onClose'])
})

test('close() still closes an app whose plugin failed to load', async () => {
  const app = hotpath()
  let closed = false
  app.addHook('onClose', () => { closed = true })
  app.register(async () => { throw new Error('boom') })
  await assert.rejects(app.ready(), /boom/)
  await app.close()
  assert.equal(closed, true)
})

test('once close() has begun, inject() and listen() are refused with HP_ERR_CLOSED', async () => {
  const app = hotpath()
  app.get('/', () => ({ ok: true }))
  const before = await app.inject('/')
  assert.equal(before.statusCode, 200)
  const closing = app.close()
  await assert.rejects(app.inject('/'), { code: 'HP_ERR_CLOSED' })
  const viaCallback = await new Promise((resolve) => app.inject('/', (err) => resolve(err)))
  assert.equal(/** @type {any} */ (viaCallback).code, 'HP_ERR_CLOSED')
  await closing
  await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), { code: 'HP_ERR_CLOSED' })
  const listenErr = await new Promise((resolve) => app.listen({ port: 0, host: '127.0.0.1' }, (err) => resolve(err)))
  assert.equal(/** @type {any} */ (listenErr).code, 'HP_ERR_CLOSED')
})

for (const engine of /** @type {const} */ (['wire', 'node'])) {
  test(`close() after code outside the app listened on app.server and closed it, a keep-alive connection still open, ends [${engine}]`, async () => {
    const app = hotpath({ engine, forceCloseConnections: 'idle' })
    app.get('/', () => 'x')
    await app.ready()
    // as supertest does with an app that does not listen: listen, ask, close
    await new Promise((resolve) => app.server.listen(0, '127.0.0.1', () => resolve(undefined)))
    const agent = new http.Agent({ keepAlive: true })
    const body = await new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: /** @type {import('node:net').AddressInfo} */ (app.server.address()).port, path: '/', agent }, (res) => {
        let text = ''
        res.on('data', (c) => { text += c })
        res.on('end', () => resolve(text))
      }).on('error', reject)
    })
    assert.equal(body, 'x')
    const serverClosed = new Promise((resolve) => app.server.close(() => resolve(undefined)))
    // the agent's idle connection is still open: close() closes it and ends
    const closed = await Promise.race([app.close().then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000).unref())])
    assert.equal(closed, 'closed')
    await serverClosed
    agent.destroy()
  })
}
