// Streamed responses on the wire engine: chunked on HTTP/1.1, close-delimited
// on HTTP/1.0, errors before and after the head, backpressure against a
// client that never reads (memory stays bounded), and the upgrade
// and graceful-close handoffs.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { Readable } from 'node:stream'
import { serve, exchange, responses } from './util.js'

const H = 'Host: example.com\r\n'
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms))

test('a stream is sent chunked to HTTP/1.1 and close-delimited to HTTP/1.0', async (t) => {
  /** @type {any[]} */
  const done = []
  const s = await serve({}, (engine, req, res) => {
    res.respondStream(200, { 'content-type': 'text/plain' }, Readable.from(['ab', 'cd', 'ef']), (/** @type {any} */ err) => done.push(err))
  })
  t.after(() => s.close())
  const v11 = await exchange(s.port, 'GET / HTTP/1.1\r\n' + H + '\r\nGET /again HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n')
  const rs = responses(v11.text)
  assert.equal(rs.length, 2)
  assert.match(rs[0].head, /transfer-encoding: chunked/)
  assert.deepEqual(rs.map(r => r.body), ['abcdef', 'abcdef'])
  const v10 = await exchange(s.port, 'GET / HTTP/1.0\r\n\r\n')
  assert.doesNotMatch(v10.text, /chunked/)
  assert.match(v10.text, /Connection: close\r\n\r\nabcdef$/)
  assert.deepEqual(done, [null, null, null])
})

test('a stream that fails before its first byte leaves the response unsent; after it, what was written goes out and the connection ends without the last chunk', async (t) => {
  /** @type {any[]} */
  const seen = []
  const s = await serve({}, (engine, req, res) => {
    const early = req.url === '/early'
    let pushed = false
    const stream = new Readable({
      read () {
        if (early) this.destroy(new Error('boom'))
        else if (!pushed) {
          // one chunk, then the failure (read() is called again after each push)
          pushed = true
          this.push('partial')
          setImmediate(() => this.destroy(new Error('late boom')))
        }
      }
    })
    res.respondStream(200, {}, stream, (/** @type {any} */ err) => {
      seen.push([req.url, err?.message, res.headersSent])
      if (!res.headersSent) res.respond(500, {}, 'fallback')
    })
  })
  t.after(() => s.close())
  const early = await exchange(s.port, 'GET /early HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n')
  assert.equal(responses(early.text)[0].body, 'fallback')
  const late = await exchange(s.port, 'GET /late HTTP/1.1\r\n' + H + '\r\n')
  assert.ok(late.closedByServer)
  assert.match(late.text, /^HTTP\/1\.1 200 /)
  assert.match(late.text, /\r\n\r\n7\r\npartial\r\n$/, 'the head and the chunk, no terminating chunk: the client sees the failure')
  assert.deepEqual(seen, [['/early', 'boom', false], ['/late', 'late boom', true]])
})

test('a client that never reads a large response: reading the source stops (memory bounded)', async (t) => {
  let produced = 0
  /** @type {any} */
  let doneErr
  const s = await serve({}, (engine, req, res) => {
    const chunk = Buffer.alloc(64 * 1024, 120)
    const source = new Readable({
      read () {
        produced += chunk.length
        this.push(produced > 512 * 1024 * 1024 ? null : chunk)
      }
    })
    res.respondStream(200, {}, source, (/** @type {any} */ err) => { doneErr = err })
  })
  t.after(() => s.close())
  const socket = net.connect(s.port, '127.0.0.1')
  await once(socket, 'connect')
  socket.on('error', () => {})
  socket.pause() // never read
  socket.write('GET /big HTTP/1.1\r\n' + H + '\r\n')
  // wait until production stalls
  let last = -1
  while (produced !== last) {
    last = produced
    await sleep(200)
  }
  assert.ok(produced < 64 * 1024 * 1024, `stopped after ${produced} bytes, far below the 512 MiB the source could give`)
  socket.destroy()
  while (doneErr === undefined) await sleep(10)
  assert.ok(doneErr instanceof Error, 'done reports the aborted response')
})

test('a pipelining client that never reads: the server stops reading requests', async (t) => {
  const s = await serve({}, (engine, req, res) => res.respond(200, {}, Buffer.alloc(256 * 1024)))
  t.after(() => s.close())
  const socket = net.connect(s.port, '127.0.0.1')
  await once(socket, 'connect')
  socket.on('error', () => {})
  socket.pause()
  const many = ('GET / HTTP/1.1\r\n' + H + '\r\n').repeat(20000)
  socket.write(many)
  let last = -1
  while (s.calls.count !== last) {
    last = s.calls.count
    await sleep(200)
  }
  assert.ok(s.calls.count < 1000, `handled ${s.calls.count} of 20000 requests before pausing`)
  socket.destroy()
})

test("upgrade requests go to the server's 'upgrade' listeners with the socket and the bytes after the head", async (t) => {
  const s = await serve({}, (engine, req, res) => res.respond(200, {}, 'plain'))
  t.after(() => s.close())
  s.engine.server.on('upgrade', (/** @type {any} */ req, /** @type {net.Socket} */ socket, /** @type {Buffer} */ head) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n' + req.url + '|' + head.toString())
    socket.on('data', (d) => socket.write(d))
  })
  const socket = net.connect(s.port, '127.0.0.1')
  await once(socket, 'connect')
  let got = ''
  socket.on('data', (d) => { got += d })
  socket.write('GET /ws HTTP/1.1\r\n' + H + 'Connection: Upgrade\r\nUpgrade: echo\r\n\r\nearly')
  while (!got.includes('/ws|early')) await once(socket, 'data')
  socket.write('ping')
  while (!got.endsWith('ping')) await once(socket, 'data')
  assert.match(got, /^HTTP\/1\.1 101 /)
  assert.equal(s.engine.connections.size, 0, 'the engine no longer manages the socket')
  socket.destroy()
})

test('close(): in-flight requests finish, idle sockets close, new connections are refused', async () => {
  const s = await serve({}, (engine, req, res) => setTimeout(() => res.respond(200, {}, 'slow done'), 200))
  const idle = net.connect(s.port, '127.0.0.1')
  await once(idle, 'connect')
  const idleClosed = once(idle, 'close')
  const busy = net.connect(s.port, '127.0.0.1')
  await once(busy, 'connect')
  let got = ''
  busy.on('data', (d) => { got += d })
  const busyClosed = once(busy, 'close')
  busy.write('GET / HTTP/1.1\r\n' + H + '\r\n')
  while (s.calls.count === 0) await sleep(5)
  const closing = s.close()
  assert.equal(s.engine.closing, true)
  await idleClosed
  await busyClosed
  await closing
  const r = responses(got)[0]
  assert.equal(r.body, 'slow done')
  // the answer in flight keeps its connection, as on node:http; the
  // connection closes once idle
  assert.match(r.head, /Connection: keep-alive/)
  const refused = net.connect(s.port, '127.0.0.1')
  const [err] = await once(refused, 'error')
  assert.equal(/** @type {any} */ (err).code, 'ECONNREFUSED')
})
