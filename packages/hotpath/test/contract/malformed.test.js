// Requests no server may run get the same answer on every engine: the status
// of DESIGN.md §6, a JSON body naming the problem, the connection closed, and
// no handler called. (The wire engine's full list, byte by byte, is in
// test/wire/rejections.test.js; node:http's parser decides what is malformed
// on the node engine, and this suite checks how hotpath answers it.)
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'

/**
 * Sends raw bytes; resolves with what came back and whether the server closed
 * the connection (rather than the 3 s guard).
 * @param {number} port
 * @param {string} bytes
 */
function exchange (port, bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    /** @type {Buffer[]} */
    const chunks = []
    let guarded = false
    const guard = setTimeout(() => { guarded = true; socket.destroy() }, 3000)
    socket.on('data', (c) => chunks.push(c))
    socket.on('close', () => {
      clearTimeout(guard)
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closedByServer: !guarded })
    })
    socket.on('error', (err) => { if (/** @type {any} */ (err).code !== 'ECONNRESET') reject(err) })
    socket.write(bytes)
  })
}

/** @param {string} text */
function parseResponse (text) {
  const end = text.indexOf('\r\n\r\n')
  const head = text.slice(0, end).split('\r\n')
  const headers = Object.fromEntries(head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  return { status: Number(head[0].split(' ')[1]), headers, body: text.slice(end + 4) }
}

const CASES = [
  { name: 'HTTP/1.1 without Host', bytes: 'GET /hit HTTP/1.1\r\n\r\n', status: 400, message: /host/i },
  { name: 'Content-Length and Transfer-Encoding', bytes: 'POST /hit HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400, message: /./ },
  { name: 'NUL in a header value', bytes: 'GET /hit HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', status: 400, message: /./ },
  { name: 'headers over 16 KiB', bytes: `GET /hit HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, status: 431, message: /./ },
  { name: 'request-target over 8 KiB', bytes: `GET /hit?${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 414, message: /./ }
]

eachMode('malformed requests', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  let calls = 0
  before(async () => {
    s = await setup(mode, (app) => {
      app.all('/hit', () => { calls++; return 'ran' })
    }, { logger: false })
  })
  after(() => s.close())

  for (const c of CASES) {
    test(`${c.name}: ${c.status} with a JSON body, connection closed, no handler`, async () => {
      const before = calls
      const { text, closedByServer } = await exchange(s.port, c.bytes)
      const res = parseResponse(text)
      assert.equal(res.status, c.status, text)
      assert.match(res.headers['content-type'], /^application\/json/)
      const body = JSON.parse(res.body)
      assert.equal(body.statusCode, c.status)
      assert.equal(typeof body.code, 'string')
      assert.match(body.message, c.message)
      assert.equal(closedByServer, true, 'the server closed the connection')
      assert.equal(calls, before, 'no handler ran')
    })
  }

  test('a well-formed request still reaches the handler', async () => {
    const res = parseResponse((await exchange(s.port, 'GET /hit HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text)
    assert.equal(res.status, 200)
    assert.equal(res.body, 'ran')
  })
}, SOCKET_MODES)
