// app.onClose(fn), which Fastify's instance has from its plugin loader
// (avvio) and @fastify/reply-from calls: fn runs at close() as an onClose
// hook, with the instance it was added on, in the order Fastify runs them;
// compared with Fastify.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} app */
async function closeOrder (app) {
  /** @type {unknown[]} */
  const order = []
  const returned = app.onClose((/** @type {any} */ instance, /** @type {Function} */ done) => {
    order.push(['callback', instance === app, typeof done])
    done()
  })
  app.register(async (/** @type {any} */ child) => {
    child.onClose(async (/** @type {any} */ instance) => { order.push(['child', instance === child]) })
  })
  app.addHook('onClose', async () => { order.push('hook') })
  assert.throws(() => app.onClose('not a function'))
  await app.ready()
  await app.close()
  return { order, chains: returned === app }
}

test('app.onClose() runs its function at close, as Fastify', async () => {
  const f = await closeOrder(Fastify())
  const h = await closeOrder(hotpathFastify())
  assert.deepEqual(h, f)
  assert.equal(h.order.length, 3)
})
