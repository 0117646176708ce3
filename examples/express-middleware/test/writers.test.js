// Middleware that wraps writeHead/write/end: compression (gzip and br,
// threshold, Vary, a streamed reply), response-time and morgan.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { eachMode, setup, eventually } from './helpers.js'
import { BIG, STREAM_LINES } from '../middleware/writers.js'

/**
 * The body a client ends up with, and what the framing said about it.
 * @param {import('./helpers.js').Response} res
 */
function decoded (res) {
  const encoding = res.headers['content-encoding']
  if (encoding === 'gzip') return gunzipSync(res.bytes).toString('utf8')
  if (encoding === 'br') return brotliDecompressSync(res.bytes).toString('utf8')
  return res.bytes.toString('utf8')
}

/**
 * Content-Length, when a compressed reply carries one, counts the bytes sent.
 * @param {import('./helpers.js').Response} res
 */
function assertLengthRight (res) {
  if (res.headers['content-length'] !== undefined) assert.equal(Number(res.headers['content-length']), res.bytes.length, 'Content-Length counts the compressed bytes')
}

eachMode('compression', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode) })
  after(() => s.close())

  test('gzip: the body decompresses to the reply; Content-Length dropped or right; Vary: Accept-Encoding', async () => {
    const res = await s.request({ url: '/gz/big', headers: { 'accept-encoding': 'gzip' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], 'gzip')
    assert.match(String(res.headers.vary), /accept-encoding/i)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assertLengthRight(res)
    assert.ok(res.bytes.length < JSON.stringify(BIG).length, 'smaller than the reply')
    assert.deepEqual(JSON.parse(decoded(res)), BIG)
  })

  test('br: the body decompresses to the reply', async () => {
    const res = await s.request({ url: '/gz/big', headers: { 'accept-encoding': 'br' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], 'br')
    assert.match(String(res.headers.vary), /accept-encoding/i)
    assertLengthRight(res)
    assert.deepEqual(JSON.parse(decoded(res)), BIG)
  })

  test('the threshold: a small reply is sent as it is, still with Vary', async () => {
    const res = await s.request({ url: '/gz/small', headers: { 'accept-encoding': 'gzip, br' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], undefined)
    assert.match(String(res.headers.vary), /accept-encoding/i)
    assert.equal(Number(res.headers['content-length']), res.bytes.length)
    assert.deepEqual(res.json(), { ok: true })
  })

  test('a client that accepts no encoding gets the reply as it is', async () => {
    const res = await s.request({ url: '/gz/big' })
    assert.equal(res.headers['content-encoding'], undefined)
    assert.deepEqual(res.json(), BIG)
  })

  test('a streamed reply (reply.send(a Readable)) is compressed too', async () => {
    const res = await s.request({ url: '/gz/stream', headers: { 'accept-encoding': 'gzip' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], 'gzip')
    assert.match(String(res.headers.vary), /accept-encoding/i)
    assertLengthRight(res)
    assert.equal(decoded(res), STREAM_LINES.join(''))
  })
})

eachMode('response-time and morgan', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const lines = []
  before(async () => { s = await setup(mode, { logStream: { write: (line) => { lines.push(line) } } }) })
  after(() => s.close())

  test('response-time: X-Response-Time on the reply', async () => {
    const res = await s.request('/timed')
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['x-response-time']), /^\d+\.\d{3}ms$/)
    assert.deepEqual(res.json(), { ok: true })
  })

  test('morgan: one line with the method, the URL, the status, the length and the response time', async () => {
    lines.length = 0
    const res = await s.request('/log/hello?x=1')
    assert.equal(res.statusCode, 200)
    assert.ok(await eventually(() => lines.length > 0), 'morgan wrote a line')
    assert.equal(lines.length, 1)
    assert.match(lines[0], /^GET \/log\/hello\?x=1 200 17 \d+\.\d{3} ms\n$/)
  })
})
