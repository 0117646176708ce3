// When the client leaves before the answer, req.raw emits what node:http's
// IncomingMessage emits, in its order, on every socket engine: 'aborted',
// then reply.raw's 'close', then req.signal, then 'error' (ECONNRESET) to a
// listener and 'close'. An SSE or long-poll route cleans up on
// req.raw.on('close') on wire as on node:http. Recorded side by side. Not on
// h2: req.raw is node:http2's Http2ServerRequest there, whose events are its own.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { SOCKET_MODES } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

/**
 * Starts an app on `engine`, sends `request`, leaves once the route has
 * run, and returns the events seen in order.
 * @param {'node' | 'wire'} engine
 * @param {string} request
 * @param {boolean} listenForError
 */
async function eventsWhenClientLeaves (engine, request, listenForError) {
  /** @type {string[]} */
  const events = []
  let routeRan = false
  const app = hotpath({ engine })
  /** @param {any} req @param {any} reply */
  const track = (req, reply) => {
    const raw = req.raw
    raw.on('aborted', () => events.push('req:aborted'))
    raw.on('close', () => events.push('req:close'))
    if (listenForError) raw.on('error', (/** @type {any} */ err) => events.push(`req:error ${err.code} ${err.message}`))
    reply.raw.on('close', () => events.push('res:close'))
    req.signal.addEventListener('abort', () => events.push('signal'))
    routeRan = true
  }
  // a long poll that never answers, and an event stream written through reply.raw
  app.get('/poll', (req, reply) => { track(req, reply); return new Promise(() => {}) })
  app.get('/events', (req, reply) => {
    track(req, reply)
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
    reply.raw.write('data: 1\n\n')
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const socket = net.connect(/** @type {any} */ (app.server).address().port, '127.0.0.1')
    await once(socket, 'connect')
    socket.write(request)
    for (let i = 0; i < 400 && !routeRan; i++) await sleep(5)
    assert.ok(routeRan, 'the route ran')
    socket.destroy()
    for (let i = 0; i < 400 && !events.includes('req:close'); i++) await sleep(5)
    await sleep(20)
    return events
  } finally {
    await app.close()
  }
}

const EXPECTED = ['req:aborted', 'res:close', 'signal', 'req:error ECONNRESET aborted', 'req:close']

for (const path of ['/poll', '/events']) {
  for (const listenForError of [true, false]) {
    test(`GET ${path}, the client leaves${listenForError ? '' : ', nobody listens for error'}: the same events as node:http's, in its order`, async () => {
      const request = `GET ${path} HTTP/1.1\r\nHost: a\r\n\r\n`
      const expected = listenForError ? EXPECTED : EXPECTED.filter((e) => !e.startsWith('req:error'))
      /** @type {Record<string, string[]>} */
      const seen = {}
      for (const engine of SOCKET_MODES) seen[engine] = await eventsWhenClientLeaves(/** @type {'node' | 'wire'} */ (engine), request, listenForError)
      for (const engine of SOCKET_MODES) assert.deepEqual(seen[engine], expected, engine)
    })
  }
}
