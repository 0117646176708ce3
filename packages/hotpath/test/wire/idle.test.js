// Idle keep-alive connections of the wire engine: a connection that has
// been idle through a whole tick of the shared timer lets go of its parser,
// response queue and collected writes (Connection#sleep), and a read wakes
// it. The shared timer is stopped and its tick run by hand, with the
// connection's idle time set past one tick, so nothing here depends on
// timing; what is asserted is what the client gets and the connection's
// state. Only the keep-alive timeout's case runs on the real timer.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { serve, echo, responses } from './util.js'
import { tick } from '../../lib/engines/wire/timers.js'
import { TICK_MS } from '../../lib/engines/wire/limits.js'
import { P_IDLE } from '../../lib/engines/wire/states.js'

const H = 'Host: example.com\r\n'

/**
 * Waits for a state the test has set going; a generous bound turns a
 * regression into a failure rather than a hung run.
 * @param {() => boolean} cond
 */
async function until (cond) {
  const deadline = Date.now() + 30_000
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`never came: ${cond}`)
    await sleep(2)
  }
}

/**
 * A server whose shared timer does not run: the test runs its tick.
 * @param {Record<string, any>} options
 * @param {(engine: any, req: any, res: any) => void} handler
 */
async function serveHandTicked (options, handler) {
  const s = await serve(options, handler)
  // a cleared timer in the shared timer's place (none runs before the
  // first connection): accept() starts one only when there is none
  s.engine.timer = setInterval(() => {}, TICK_MS)
  clearInterval(s.engine.timer)
  // close() leaves a connection that has just answered to the timer: here
  // the connections go first
  return { ...s, close: () => { s.engine.closeAllConnections(); return s.engine.close() } }
}

/**
 * A client on one keep-alive connection: what it has read so far.
 * @param {number} port
 */
async function client (port) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let text = ''
  let closed = false
  socket.on('data', (d) => { text += d.toString('latin1') })
  socket.on('close', () => { closed = true })
  socket.on('error', () => {})
  return {
    socket,
    /** @param {string} bytes */
    write: (bytes) => socket.write(Buffer.from(bytes, 'latin1')),
    /** @param {number} n resolves once n answers in all have come */
    answers: async (n) => { await until(() => responses(text).length >= n || closed); return responses(text) },
    get closed () { return closed }
  }
}

/**
 * The server's end of the only connection, once it exists.
 * @param {any} engine
 */
async function onlyConnection (engine) {
  await until(() => engine.connections.size === 1)
  return [...engine.connections][0]
}

/**
 * Runs the shared timer's tick as if the connection had been idle for a
 * whole tick already.
 * @param {any} engine
 * @param {any} conn
 */
function tickIdle (engine, conn) {
  assert.equal(conn.phase, P_IDLE, 'the connection is idle')
  conn.since = engine.clock - TICK_MS
  tick(engine)
}

/**
 * A connection of server `s` that answered one GET and then slept through
 * a tick: the client and the server's end of it.
 * @param {any} t
 * @param {any} s
 * @param {{ destroyClient?: boolean }} [o]  false: the test ends the client itself
 */
async function sleepingConnection (t, s, { destroyClient = true } = {}) {
  const c = await client(s.port)
  if (destroyClient) t.after(() => c.socket.destroy())
  c.write('GET / HTTP/1.1\r\n' + H + '\r\n')
  await c.answers(1)
  const conn = await onlyConnection(s.engine)
  await until(() => conn.phase === P_IDLE)
  tickIdle(s.engine, conn)
  assert.equal(conn.asleep, true)
  return { c, conn }
}

test('a connection idle through a tick sleeps; its next request wakes it and is answered', async (t) => {
  const s = await serveHandTicked({}, echo)
  t.after(() => s.close())
  const c = await client(s.port)
  t.after(() => c.socket.destroy())
  c.write('GET /first HTTP/1.1\r\n' + H + '\r\n')
  await c.answers(1)
  const conn = await onlyConnection(s.engine)
  await until(() => conn.phase === P_IDLE)
  const parser = conn.parser
  assert.equal(conn.asleep, false)
  tickIdle(s.engine, conn)
  assert.equal(conn.asleep, true)
  assert.notEqual(conn.parser, parser, 'the parser is let go')
  assert.equal(conn.queue.length, 0)
  assert.ok(Object.isFrozen(conn.queue) && Object.isFrozen(conn.out), 'shared empty arrays, which refuse a push')
  // the next tick leaves a sleeping connection as it is
  tickIdle(s.engine, conn)
  assert.equal(conn.asleep, true)

  c.write('POST /second HTTP/1.1\r\n' + H + 'Content-Length: 5\r\n\r\nhello')
  const rs = await c.answers(2)
  assert.deepEqual(rs.map((r) => r.body), ['GET /first ', 'POST /second hello'])
  assert.equal(conn.asleep, false)
  assert.equal(Object.isFrozen(conn.queue) || Object.isFrozen(conn.out), false, 'arrays of its own again')
  assert.match(rs[1].head, /\r\nConnection: keep-alive\r\n/)
  assert.equal(c.closed, false)
})

test('two sleeping connections share the one idle form; each wakes to its own', async (t) => {
  const s = await serveHandTicked({}, echo)
  t.after(() => s.close())
  const a = await client(s.port)
  const b = await client(s.port)
  t.after(() => { a.socket.destroy(); b.socket.destroy() })
  a.write('GET /a HTTP/1.1\r\n' + H + '\r\n')
  b.write('GET /b HTTP/1.1\r\n' + H + '\r\n')
  await a.answers(1)
  await b.answers(1)
  await until(() => s.engine.connections.size === 2 && [...s.engine.connections].every((c) => c.phase === P_IDLE))
  const [ca, cb] = [...s.engine.connections]
  ca.since = cb.since = s.engine.clock - TICK_MS
  tick(s.engine)
  assert.ok(ca.asleep && cb.asleep)
  assert.equal(ca.parser, cb.parser)
  assert.equal(ca.queue, cb.queue)
  // pipelined on one, while the other sleeps on
  a.write('GET /a2 HTTP/1.1\r\n' + H + '\r\nGET /a3 HTTP/1.1\r\n' + H + '\r\n')
  assert.deepEqual((await a.answers(3)).map((r) => r.body), ['GET /a ', 'GET /a2 ', 'GET /a3 '])
  assert.equal(ca.asleep, false)
  assert.equal(cb.asleep, true)
  assert.notEqual(ca.parser, cb.parser)
  b.write('GET /b2 HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n')
  assert.deepEqual((await b.answers(2)).map((r) => r.body), ['GET /b ', 'GET /b2 '])
})

test('a sleeping connection reused with a head sent in parts: the parts are put together', async (t) => {
  const s = await serveHandTicked({}, echo)
  t.after(() => s.close())
  const { c, conn } = await sleepingConnection(t, s)
  c.write('GET /2 HTTP/1.1\r\nHo')
  await until(() => conn.headStarted)
  assert.equal(conn.asleep, false)
  // half a head is not idle: the tick leaves its parser (and its bytes) alone
  conn.since = s.engine.clock - TICK_MS
  tick(s.engine)
  assert.equal(conn.asleep, false)
  c.write('st: example.com\r\n\r\n')
  const rs = await c.answers(2)
  assert.deepEqual(rs.map((r) => r.body), ['GET / ', 'GET /2 '])
})

test('a connection with a request in flight, or a body on its way, does not sleep', async (t) => {
  /** @type {any} */
  let held = null
  const s = await serveHandTicked({}, (engine, req, res) => {
    if (req.url === '/hold') { held = res; return }
    echo(engine, req, res)
  })
  t.after(() => s.close())
  const c = await client(s.port)
  t.after(() => c.socket.destroy())
  c.write('GET /hold HTTP/1.1\r\n' + H + '\r\n')
  await until(() => held !== null)
  const conn = await onlyConnection(s.engine)
  conn.since = s.engine.clock - TICK_MS
  tick(s.engine)
  conn.sleep()
  assert.equal(conn.asleep, false, 'a response is owed')
  held.respond(200, {}, 'held')
  await c.answers(1)
  c.write('POST /body HTTP/1.1\r\n' + H + 'Content-Length: 9\r\n\r\nhalf')
  await until(() => conn.current !== null)
  conn.sleep()
  assert.equal(conn.asleep, false, 'a body is being read')
  c.write('-done')
  assert.deepEqual((await c.answers(2)).map((r) => r.body), ['held', 'POST /body half-done'])
})

test('keepAliveTimeout still closes a sleeping connection', async (t) => {
  const s = await serve({ keepAliveTimeout: 300 }, echo)
  t.after(() => s.close())
  const { c } = await sleepingConnection(t, s)
  // the server closes it (the client never does); its bookkeeping follows
  await until(() => c.closed && s.engine.connections.size === 0)
})

test('the client\'s FIN on a sleeping connection closes it cleanly', async (t) => {
  const s = await serveHandTicked({}, echo)
  t.after(() => s.close())
  const { c } = await sleepingConnection(t, s, { destroyClient: false })
  c.socket.end()
  await until(() => c.closed && s.engine.connections.size === 0)
  assert.equal((await c.answers(1)).length, 1, 'nothing more was written')
})

test('the engine\'s clock and a connection\'s times are small integers', async (t) => {
  const s = await serveHandTicked({}, echo)
  t.after(() => s.close())
  const c = await client(s.port)
  t.after(() => c.socket.destroy())
  c.write('GET / HTTP/1.1\r\n' + H + '\r\n')
  await c.answers(1)
  const conn = await onlyConnection(s.engine)
  // counted from the engine's start, not Date.now(): a V8 small integer
  // is held in the connection itself, a larger number in an object of
  // its own (16 bytes each)
  for (const v of [s.engine.clock, conn.since, conn.reqStart]) assert.ok(Number.isInteger(v) && v >= 0 && v < 2 ** 30, String(v))
})

test('a sleeping connection\'s remote address is still there when asked for', async (t) => {
  const s = await serveHandTicked({}, echo)
  t.after(() => s.close())
  const { conn } = await sleepingConnection(t, s)
  assert.equal(conn.remoteAddress, '127.0.0.1')
})

test('the shared timer runs only while the engine has connections: none after listen, started at accept, stopped by a tick that finds none', async (t) => {
  const s = await serve({}, echo)
  t.after(() => s.close())
  assert.equal(s.engine.timer, null, 'no timer before the first connection')
  const c = await client(s.port)
  c.write('GET / HTTP/1.1\r\n' + H + '\r\n')
  await c.answers(1)
  await onlyConnection(s.engine)
  const timer = s.engine.timer
  assert.notEqual(timer, null, 'started at accept')
  assert.equal(timer.hasRef(), false)
  // a tick with the connection open keeps it
  tick(s.engine)
  assert.equal(s.engine.timer, timer)
  c.socket.destroy()
  await until(() => s.engine.connections.size === 0)
  const clock = s.engine.clock
  tick(s.engine)
  assert.equal(s.engine.timer, null, 'a tick that finds no connection stops it')
  assert.equal(s.engine.clock, clock, 'and leaves the clock')
  // the next connection starts it again, with the clock brought forward
  // (never back) and the Date line of now
  s.engine.tickedAt -= 5000
  const c2 = await client(s.port)
  t.after(() => c2.socket.destroy())
  c2.write('GET / HTTP/1.1\r\n' + H + '\r\n')
  const [answer] = await c2.answers(1)
  assert.notEqual(s.engine.timer, null, 'started again')
  assert.ok(s.engine.clock >= clock + 5000, `clock ${s.engine.clock}, was ${clock}`)
  const date = Date.parse(/^date: (.*)$/im.exec(answer.head)?.[1] ?? '')
  assert.ok(Math.abs(date - Date.now()) < 5000, 'a Date of now')
})

test('a connection accepted after the engine had none for longer than headersTimeout is timed from its accept, not from the last tick', async (t) => {
  const s = await serve({ headersTimeout: 1000 }, echo)
  t.after(() => s.close())
  // the engine has had no connection for a minute: its timer is stopped
  // and its clock last moved then
  assert.equal(s.engine.timer, null)
  s.engine.tickedAt -= 60_000
  const c = await client(s.port)
  t.after(() => c.socket.destroy())
  await until(() => s.engine.connections.size === 1)
  const [conn] = s.engine.connections
  // its head is not late: the tick that follows finds it within its time
  assert.equal(conn.since, s.engine.clock, 'timed from the clock of its accept')
  tick(s.engine)
  assert.equal(c.socket.destroyed, false)
  c.write('GET / HTTP/1.1\r\n' + H + '\r\n')
  const [answer] = await c.answers(1)
  assert.match(answer.head, /^HTTP\/1\.1 200 /)
})
