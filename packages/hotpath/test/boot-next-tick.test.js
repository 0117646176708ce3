// ready() goes through process.nextTick as it is when the boot runs, as
// Fastify's boot (avvio) does: a test that fakes process.nextTick (sinon's
// FakeTimers) sees ready() resolve only once its clock has run the queued
// ticks, and what else was queued on them (node's streams: the test
// runner's report) has run by then, as on Fastify.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import hotpathFastify from '../lib/fastify.js'

const realNextTick = process.nextTick
const realSetImmediate = setImmediate

/** @param {any} factory */
async function bootWithFakedNextTick (factory) {
  const app = factory()
  app.get('/', () => 'ok')
  /** @type {(() => void)[]} */
  const queued = []
  /** @type {string[]} */
  const seen = []
  let ready = false
  // a fake clock's process.nextTick: the callbacks wait for the clock
  process.nextTick = /** @type {any} */ ((/** @type {Function} */ fn, /** @type {any[]} */ ...args) => { queued.push(() => fn(...args)) })
  try {
    app.ready().then(() => { ready = true })
    for (let i = 0; i < 5; i++) await new Promise((resolve) => realSetImmediate(resolve))
    seen.push(ready ? 'ready before the clock ran' : 'held until the clock runs')
    // the clock runs: each round runs what is queued, then lets promises settle
    for (let i = 0; i < 50 && !ready; i++) {
      for (const job of queued.splice(0)) job()
      await new Promise((resolve) => realSetImmediate(resolve))
    }
    seen.push(ready ? 'ready' : 'never ready')
  } finally {
    process.nextTick = realNextTick
    // what is left (node's own streams queue on it too) runs now
    for (const job of queued.splice(0)) job()
  }
  const res = await app.inject('/')
  await app.close()
  seen.push(`${res.statusCode} ${res.body}`)
  return seen
}

test('ready() waits for a faked process.nextTick, as Fastify\'s boot does', async () => {
  const fastify = await bootWithFakedNextTick(Fastify)
  assert.deepEqual(fastify, ['held until the clock runs', 'ready', '200 ok'])
  assert.deepEqual(await bootWithFakedNextTick(hotpathFastify), fastify)
})
