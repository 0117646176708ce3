// Connection behaviour of the wire engine over raw sockets: keep-alive,
// pipelining (split at every byte), one write per read, HEAD/204/304,
// Expect: 100-continue, limits per socket and the timeouts.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { serve, echo, exchange, responses } from './util.js'

const H = 'Host: example.com\r\n'

test('HTTP/1.1 keeps the connection open; HTTP/1.0 closes unless keep-alive is asked for', async (t) => {
  const s = await serve({}, echo)
  t.after(() => s.close())
  const ka = await exchange(s.port, 'GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\nGET /c HTTP/1.0\r\n\r\n')
  const rs = responses(ka.text)
  assert.deepEqual(rs.map(r => r.body), ['GET /a ', 'GET /b '])
  assert.match(rs[0].head, /\r\nConnection: keep-alive/)
  assert.match(rs[1].head, /\r\nConnection: close/)
  const v11 = responses((await exchange(s.port, 'GET /x HTTP/1.1\r\n' + H + '\r\nGET /y HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\nGET /z HTTP/1.1\r\n' + H + '\r\n')).text)
  assert.deepEqual(v11.map(r => r.body), ['GET /x ', 'GET /y '])
  assert.match(v11[0].head, /\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/)
})

const PIPELINE = 'GET /1 HTTP/1.1\r\n' + H + '\r\n' +
  'POST /2 HTTP/1.1\r\n' + H + 'Content-Length: 5\r\n\r\nhello' +
  'POST /3 HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n' +
  'GET /4 HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n'

test('pipelined requests split at every byte boundary get the same answers, in order', async (t) => {
  const s = await serve({}, (engine, req, res) => {
    // answer out of order in time: later requests answer first, the engine must reorder
    const delay = req.url === '/1' ? 5 : 0
    setTimeout(() => echo(engine, req, res), delay)
  })
  t.after(() => s.close())
  const expected = ['GET /1 ', 'POST /2 hello', 'POST /3 abcde', 'GET /4 ']
  for (let k = 1; k < PIPELINE.length; k++) {
    const { text } = await exchange(s.port, [PIPELINE.slice(0, k), PIPELINE.slice(k)], { gap: 1 })
    assert.deepEqual(responses(text).map(r => r.body), expected, `split at ${k}`)
  }
})

test('responses to requests read in one chunk go out in one write', async (t) => {
  const s = await serve({}, (engine, req, res) => res.respond(200, {}, req.url))
  t.after(() => s.close())
  let reads = 0
  let writes = 0
  s.engine.server.on('connection', (/** @type {net.Socket} */ socket) => {
    socket.on('data', () => reads++)
    const write = socket.write
    socket.write = /** @type {any} */ (function (/** @type {any[]} */ ...args) { writes++; return write.apply(socket, /** @type {any} */ (args)) })
  })
  const ten = Array.from({ length: 10 }, (_, i) => `GET /${i} HTTP/1.1\r\n${H}${i === 9 ? 'Connection: close\r\n' : ''}\r\n`).join('')
  const { text } = await exchange(s.port, ten)
  assert.equal(responses(text).length, 10)
  assert.ok(reads >= 1)
  assert.equal(writes, reads, 'one write per read')
})

test('HEAD has the length but no body; 204 and 304 have no body', async (t) => {
  const s = await serve({}, (engine, req, res) => {
    if (req.url === '/204') return res.respond(204, {}, null)
    if (req.url === '/304') return res.respond(304, { etag: '"x"' }, null)
    res.respond(200, { 'content-type': 'text/plain' }, 'twelve bytes')
  })
  t.after(() => s.close())
  const { text } = await exchange(s.port, 'HEAD / HTTP/1.1\r\n' + H + '\r\nGET /204 HTTP/1.1\r\n' + H + '\r\nGET /304 HTTP/1.1\r\n' + H + '\r\nGET / HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n')
  const parts = text.split('HTTP/1.1 ').slice(1)
  assert.equal(parts.length, 4)
  assert.match(parts[0], /content-length: 12\r\n/)
  assert.ok(parts[0].endsWith('\r\n\r\n'), 'HEAD: no body')
  assert.doesNotMatch(parts[1], /content-length/i)
  assert.ok(parts[1].endsWith('\r\n\r\n'))
  assert.match(parts[2], /^304 /)
  assert.ok(parts[2].endsWith('\r\n\r\n'))
  assert.ok(parts[3].endsWith('twelve bytes'))
})

test('Expect: 100-continue: 100 only once the body is wanted; 413 by length without it', async (t) => {
  const s = await serve({}, (engine, req, res) => {
    req.readBody(10, (/** @type {any} */ err, /** @type {Buffer} */ body) => {
      if (err) return res.respond(err.statusCode, {}, err.code)
      res.respond(200, {}, 'got ' + body)
    })
  })
  t.after(() => s.close())
  const socket = net.connect(s.port, '127.0.0.1')
  await once(socket, 'connect')
  let got = ''
  socket.on('data', (d) => { got += d })
  socket.write('POST / HTTP/1.1\r\n' + H + 'Expect: 100-continue\r\nContent-Length: 4\r\n\r\n')
  while (!got.includes('100 Continue')) await once(socket, 'data')
  assert.equal(got, 'HTTP/1.1 100 Continue\r\n\r\n')
  socket.write('body')
  while (!/got body$/.test(got)) await once(socket, 'data')
  socket.destroy()
  assert.equal(responses(got).filter(r => r.status >= 200)[0].body, 'got body')

  const big = await exchange(s.port, 'POST / HTTP/1.1\r\n' + H + 'Expect: 100-continue\r\nContent-Length: 400\r\n\r\n', { end: false })
  assert.doesNotMatch(big.text, /100 Continue/)
  const r = responses(big.text)[0]
  assert.equal(r.status, 413)
  assert.match(r.head, /Connection: close/)
})

test('body over the limit without Content-Length: 413 at once, the rest is not read', async (t) => {
  const s = await serve({}, (engine, req, res) => {
    req.readBody(1000, (/** @type {any} */ err) => res.respond(err ? err.statusCode : 200, {}, err ? err.code : 'ok'))
  })
  t.after(() => s.close())
  const socket = net.connect(s.port, '127.0.0.1')
  await once(socket, 'connect')
  let got = ''
  socket.on('data', (d) => { got += d })
  socket.on('error', () => {})
  socket.write('POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\n\r\n')
  const chunk = '400\r\n' + 'x'.repeat(1024) + '\r\n'
  // keep sending: the answer must come while the body is still unfinished
  while (!got.includes('\r\n\r\n') && !socket.destroyed) {
    socket.write(chunk)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const r = responses(got)[0]
  assert.equal(r.status, 413)
  assert.equal(r.body, 'HP_ERR_BODY_TOO_LARGE')
  assert.match(r.head, /Connection: close/)
  socket.destroy()
})

test('maxRequestsPerSocket: the last allowed answer says Connection: close; a request sent anyway gets 503 and the connection closes', async (t) => {
  const s = await serve({ maxRequestsPerSocket: 2 }, echo)
  t.after(() => s.close())
  const rs = responses((await exchange(s.port, ['GET /1 HTTP/1.1\r\n' + H + '\r\n', 'GET /2 HTTP/1.1\r\n' + H + '\r\n', 'GET /3 HTTP/1.1\r\n' + H + '\r\n'], { gap: 20, end: false })).text)
  assert.deepEqual(rs.map(r => r.status), [200, 200, 503])
  assert.deepEqual(rs.slice(0, 2).map(r => r.body), ['GET /1 ', 'GET /2 '])
  assert.match(rs[0].head, /Connection: keep-alive/)
  assert.match(rs[1].head, /Connection: close/)
  assert.equal(JSON.parse(rs[2].body).code, 'HP_ERR_CONNECTION_EXHAUSTED')
  assert.match(rs[2].head, /Connection: close/)
  assert.equal(s.calls.count, 2)
})

test('slow-drip headers get 408 from headersTimeout and the socket is closed', async (t) => {
  const s = await serve({ headersTimeout: 500, requestTimeout: 10_000 }, echo)
  t.after(() => s.close())
  const drip = ('GET / HTTP/1.1\r\n' + H + 'X-Slow: ' + 'a'.repeat(200)).split('')
  const { text } = await exchange(s.port, drip, { gap: 50, end: false, ms: 15_000 })
  const r = responses(text)[0]
  assert.equal(r.status, 408)
  assert.equal(JSON.parse(r.body).code, 'HP_ERR_REQUEST_TIMEOUT')
  assert.equal(s.calls.count, 0)
})

test('slow-drip body gets 408 from requestTimeout; the body reader fails with the timeout', async (t) => {
  /** @type {any} */
  let bodyErr = null
  const s = await serve({ headersTimeout: 500, requestTimeout: 1000 }, (engine, req, res) => {
    req.readBody(1e6, (/** @type {any} */ err) => {
      bodyErr = err
      if (!err) res.respond(200, {}, 'ok')
    })
  })
  t.after(() => s.close())
  const pieces = ['POST / HTTP/1.1\r\n' + H + 'Content-Length: 500\r\n\r\n', ...'x'.repeat(400).split('')]
  const { text } = await exchange(s.port, pieces, { gap: 20, end: false, ms: 15_000 })
  assert.equal(responses(text)[0].status, 408)
  assert.equal(bodyErr?.code, 'HP_ERR_REQUEST_TIMEOUT')
  assert.equal(bodyErr?.statusCode, 408)
})

test('idle keep-alive sockets are closed after keepAliveTimeout', async (t) => {
  const s = await serve({ keepAliveTimeout: 300 }, echo)
  t.after(() => s.close())
  const { text } = await exchange(s.port, 'GET / HTTP/1.1\r\n' + H + '\r\n', { end: false, ms: 10_000 })
  assert.equal(responses(text).length, 1)
  assert.match(text, /Keep-Alive: timeout=1/)
  // the server closed it (the client never did); its bookkeeping follows
  while (s.engine.connections.size > 0) await new Promise((resolve) => setTimeout(resolve, 5))
})

test('a busy keep-alive connection is not closed at keepAliveTimeout: the timeout counts from its last answer', async (t) => {
  const s = await serve({ keepAliveTimeout: 1000 }, echo)
  t.after(() => s.close())
  const socket = net.connect(s.port, '127.0.0.1')
  await once(socket, 'connect')
  let closed = false
  socket.on('close', () => { closed = true })
  let text = ''
  socket.on('data', (d) => { text += d })
  // requests back to back, each head in one write, for over three
  // keep-alive timeouts: the connection is never idle for long
  const start = Date.now()
  let sent = 0
  while (Date.now() - start < 3500 && !closed) {
    socket.write('GET / HTTP/1.1\r\n' + H + '\r\n')
    sent++
    while (responses(text).length < sent && !closed) await new Promise((resolve) => setTimeout(resolve, 1))
  }
  assert.equal(closed, false, `closed by the server after ${sent} requests`)
  assert.equal(responses(text).length, sent)
  socket.destroy()
})

test('a client that aborts mid-body: the body read fails, onEnd reports the error, nothing leaks', async (t) => {
  /** @type {any[]} */
  const seen = []
  const s = await serve({}, (engine, req, res) => {
    res.onEnd((/** @type {any} */ _arg, /** @type {any} */ err) => seen.push(['finish', err?.code]), null)
    req.readBody(1e6, (/** @type {any} */ err) => seen.push(['body', err?.code]))
  })
  t.after(() => s.close())
  const socket = net.connect(s.port, '127.0.0.1')
  await once(socket, 'connect')
  socket.write('POST / HTTP/1.1\r\n' + H + 'Content-Length: 100\r\n\r\nonly part')
  while (s.calls.count === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  socket.destroy()
  while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
  assert.deepEqual(seen, [['body', 'HP_ERR_REQUEST_ABORTED'], ['finish', 'ECONNRESET']])
  while (s.engine.connections.size > 0) await new Promise((resolve) => setTimeout(resolve, 5))
})
