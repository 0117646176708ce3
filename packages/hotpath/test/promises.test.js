// The sync fast path allocates no promise: a route whose hooks and handler
// are synchronous creates zero promises per request, an async handler at
// most two (its own and one continuation). Counted with async_hooks in a
// child process over 10,000 real socket requests. The same run counts
// EventEmitters: none per request on wire for a route that never touches
// req.raw or reply.raw (the compat objects are built on first touch).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fork } from 'node:child_process'
import { once } from 'node:events'
import net from 'node:net'
import { SOCKET_MODES } from './helpers/engines.js'

const N = 10_000
const SOCKETS = 10
const BATCH = 50 // pipelined requests per write

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} msg
 */
async function ask (child, msg) {
  child.send(msg)
  const [reply] = await once(child, 'message')
  return reply
}

/**
 * Sends `count` GETs over one keep-alive socket, BATCH at a time, and waits
 * for every response.
 * @param {number} port
 * @param {string} path
 * @param {number} count
 */
async function load (port, path, count) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  const request = `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`
  let answered = 0
  let pending = ''
  /** @type {(() => void) | null} */
  let wake = null
  socket.setEncoding('latin1')
  socket.on('data', (chunk) => {
    pending += chunk
    let i
    while ((i = pending.indexOf('HTTP/1.1 200 OK')) !== -1) {
      answered++
      pending = pending.slice(i + 15)
    }
    if (wake) wake()
  })
  for (let sent = 0; sent < count;) {
    const n = Math.min(BATCH, count - sent)
    socket.write(request.repeat(n))
    sent += n
    while (answered < sent) await new Promise((resolve) => { wake = () => resolve(undefined) })
  }
  socket.destroy()
  return answered
}

for (const engine of SOCKET_MODES) {
  test(`promises per request [${engine}]: 0 for a sync route, ≤ 2 for an async handler; no EventEmitter of ours for a sync route`, { timeout: 60_000 }, async (t) => {
    const child = fork(new URL('./helpers/promise-server.js', import.meta.url), [engine], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    try {
      const [{ port }] = await once(child, 'message')
      /** @param {string} path */
      const measure = async (path) => {
        await Promise.all(Array.from({ length: SOCKETS }, () => load(port, path, 200))) // warm-up
        await ask(child, 'reset')
        const answered = await Promise.all(Array.from({ length: SOCKETS }, () => load(port, path, N / SOCKETS)))
        assert.equal(answered.reduce((a, b) => a + b, 0), N)
        return ask(child, 'read')
      }
      const { promises: sync, emitters } = await measure('/sync')
      t.diagnostic(`sync route: ${sync} promises over ${N} requests`)
      // a handful of fixed promises (IPC, connection set-up) is allowed; one
      // per request would be 10,000
      assert.ok(sync < 50, `sync route: ${sync} promises for ${N} requests`)
      // Nothing is built for req.raw/reply.raw on a route that never
      // touches them: wire makes no EventEmitter per request; node:http
      // makes its own two (the IncomingMessage and the ServerResponse).
      const perRequest = engine === 'wire' ? 0 : 2
      t.diagnostic(`sync route: ${emitters} EventEmitters over ${N} requests`)
      assert.ok(emitters < perRequest * N + 50, `sync route: ${emitters} EventEmitters for ${N} requests (${(emitters / N).toFixed(2)} per request)`)
      // the counter sees what a request does make: the compat response a
      // middleware gets on wire (its request's stream state and listener
      // table are made on first use, without EventEmitter.init), node's own
      // two objects on node
      const { emitters: withMiddleware } = await measure('/middleware')
      t.diagnostic(`route behind a middleware: ${withMiddleware} EventEmitters over ${N} requests`)
      assert.ok(withMiddleware >= (engine === 'wire' ? 1 : 2) * N, 'the EventEmitter counter counts (sanity check)')
      const { promises: asyncCount } = await measure('/async')
      t.diagnostic(`async handler: ${asyncCount} promises over ${N} requests`)
      assert.ok(asyncCount <= 2 * N + 50, `async handler: ${asyncCount} promises for ${N} requests (${(asyncCount / N).toFixed(2)} per request)`)
      assert.ok(asyncCount >= N, 'the async handler was counted (sanity check of the counter)')
    } finally {
      child.send('exit')
      await once(child, 'exit')
    }
  })
}
