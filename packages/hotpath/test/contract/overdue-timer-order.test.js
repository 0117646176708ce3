// A timer that fell due while a callback blocked the event loop runs
// before a request whose connection was queued meanwhile, as on Fastify
// (@fastify/under-pressure's "memoryUsage name space (without check)":
// the plugin's sample timer, due during the test's 1.5 s block, must run
// before the handler that reads the sample).
//
// After the block, the listener accepts the connection in the loop's
// poll phase, the timers phase runs the overdue timer, and the next poll
// reads the request. That holds while nothing reads libuv's clock between
// the block and the loop's next turn: Node arms its timers from the loop's
// cached time, which the block left behind, so the overdue timer is armed
// in the past. A repeating timer that runs after the blocking callback, in
// the same timers phase, reads the clock as it re-arms (any timer set
// then does); Node then arms the overdue one 1 ms after the fresh time,
// and a loop turn shorter than that millisecond reads the request first.
// The wire engine's shared timer (every TICK_MS) did so while the server
// had no connection at all; it now runs only while there are connections.
// Fastify's node:http server checks its connections' timeouts every 30 s,
// too seldom to be due in the test. (hotpath's node engine has node:http
// check them every 500 ms by default, connectionsCheckingInterval, a timer
// of the same kind that runs whether or not there are connections; the
// steps below do not make it due after the block every time, so that
// engine is not compared here.)
//
// A differential test: Fastify, then hotpath on wire, through the same
// steps; what ran after the block, in order, compared, the framework's
// own timers included. The steps put the wire engine's TICK_MS timer,
// when it runs, in the block's timers phase after the blocking callback
// every time: no timing decides the outcome.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { createHook } from 'node:async_hooks'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { TICK_MS } from '../../lib/engines/wire/limits.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {number} ms */
function block (ms) {
  const start = Date.now()
  while (Date.now() - start < ms) {}
}

/**
 * What runs after a callback that blocks the loop: the request queued
 * during the block, the timer that fell due during it, and any timer not
 * the test's (the framework's).
 * @param {any} app
 * @returns {Promise<string[]>}
 */
async function afterBlock (app) {
  /** @type {string[]} */
  const order = []
  let recording = false
  /** @type {Set<Function>} the test's own timer callbacks */
  const ours = new Set()
  /** @type {Map<number, any>} */
  const timeouts = new Map()
  const hook = createHook({
    init (id, type, _trigger, resource) { if (type === 'Timeout') timeouts.set(id, resource) },
    before (id) {
      const t = timeouts.get(id)
      if (recording && t !== undefined && !ours.has(t._onTimeout)) order.push(`a timer of the framework (${t._idleTimeout} ms)`)
    }
  })
  hook.enable()
  try {
    /** @type {() => void} */
    let handled = () => {}
    const handledP = new Promise((resolve) => { handled = () => resolve(undefined) })
    app.get('/', (/** @type {any} */ _req, /** @type {any} */ reply) => {
      order.push('handler')
      handled()
      reply.send('ok')
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    /** @type {Promise<unknown>} */
    let sampled = Promise.resolve()
    /** @type {Promise<unknown>} */
    let answered = Promise.resolve()
    await new Promise((resolve) => {
      // 3. In a timers phase that has a repeating TICK_MS timer due after
      // it: a timer due during the block, a connection and its request
      // sent during it (the listener accepts it after the block), then
      // the block.
      const blockAndConnect = () => {
        recording = true
        order.push('block')
        sampled = new Promise((resolve) => {
          const sample = () => { order.push('the timer due during the block'); resolve(undefined) }
          ours.add(sample)
          setTimeout(sample, 5)
        })
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
        })
        socket.on('error', () => {})
        socket.resume()
        answered = new Promise((resolve) => socket.on('close', resolve))
        block(30)
        resolve(undefined)
      }
      // 2. Runs right after a repeating TICK_MS timer set earlier (the
      // same list of Node's, in the order set), which is then due again
      // at about now + TICK_MS: blockAndConnect, due first, is called in
      // the next timers phase, which the block below delays until that
      // timer is due as well.
      const afterTick = () => {
        setTimeout(blockAndConnect, 1)
        block(TICK_MS + 50)
      }
      // 1. every TICK_MS timer set before this one is due before it
      const start = () => {
        setTimeout(afterTick, TICK_MS)
        block(TICK_MS + 50)
      }
      ours.add(blockAndConnect).add(afterTick).add(start)
      setTimeout(start, 1)
    })
    await Promise.all([handledP, sampled, answered])
    recording = false
  } finally {
    hook.disable()
    await app.close()
  }
  return order
}

test('a timer due during a blocking callback runs before the request queued meanwhile, and no framework timer runs between, as on Fastify (wire)', async () => {
  const fastify = await afterBlock(Fastify())
  // what Fastify does, so the comparison is of something
  assert.deepEqual(fastify, ['block', 'the timer due during the block', 'handler'])
  assert.deepEqual(await afterBlock(hotpathFastify({ engine: 'wire' })), fastify)
})
