// Requests no server may run get the same answer on every engine: the status
// of docs/safety.md ("Bad input"), a JSON body naming the problem, the connection closed, and
// no handler called. (The wire engine's full list, byte by byte, is in
// test/wire/rejections.test.js; node:http's parser decides what is malformed
// on the node engine, and this suite checks how hotpath answers it.)
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'
import { exchange, responses } from '../wire/util.js'

const CASES = [
  { name: 'HTTP/1.1 without Host', bytes: 'GET /hit HTTP/1.1\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /host/i },
  { name: 'Content-Length and Transfer-Encoding', bytes: 'POST /hit HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /./ },
  { name: 'NUL in a header value', bytes: 'GET /hit HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /./ },
  { name: 'headers over 16 KiB', bytes: `GET /hit HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, status: 431, code: 'HP_ERR_HEADERS_TOO_LARGE', message: /./ },
  { name: 'request-target over 8 KiB', bytes: `GET /hit?${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 414, code: 'HP_ERR_URL_TOO_LONG', message: /./ },
  // node:http hands the head of these to the server before llhttp fails them
  { name: 'an unknown transfer coding', bytes: 'POST /hit HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /transfer-encoding/i },
  // NBSP (0xA0) is obs-text, not whitespace (RFC 9110 §5.6.3): an unknown coding
  { name: 'NBSP around the transfer coding', bytes: 'POST /hit HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \xa0chunked\xa0\r\n\r\n0\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /transfer-encoding/i },
  // Host = uri-host [ ":" port ] (RFC 9112 §3.2, RFC 3986 §3.2.2); llhttp accepts all of these
  { name: 'a list in Host', bytes: 'GET /hit HTTP/1.1\r\nHost: a, other.example.com\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /host/i },
  { name: 'a path in Host', bytes: 'GET /hit HTTP/1.1\r\nHost: foo/bar\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /host/i },
  { name: 'userinfo in Host', bytes: 'GET /hit HTTP/1.1\r\nHost: user@a\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /host/i },
  { name: 'a space in Host', bytes: 'GET /hit HTTP/1.1\r\nHost: bad host\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /host/i },
  // RFC 9112 §3.2: more than one Host line is a 400 (node:http keeps the first)
  { name: 'two Host lines', bytes: 'GET /hit HTTP/1.1\r\nHost: a.example\r\nhost: b.example\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /host/i },
  { name: 'an invalid Host on HTTP/1.0', bytes: 'GET /hit HTTP/1.0\r\nHost: a/b\r\n\r\n', status: 400, code: 'HP_ERR_BAD_REQUEST', message: /host/i }
]

// Host values the rule must keep accepting (no handler-visible difference
// between the engines either); an empty one is sent for a target URI
// without an authority (RFC 9112 §3.2), and node:http takes it.
const GOOD_HOSTS = ['', 'example.com', 'example.com:8080', 'EXAMPLE.com.', '127.0.0.1:3000', '[::1]:3000', '[v1.fe]', 'xn--bcher-kva.example', 'a_b.local', '%41.example', 'example.com:']

// Off h2: HTTP/1.1 bytes written by hand; HTTP/2 heads are HPACK blocks that
// node:http2 parses (the :authority checks are in test/h2).
eachMode('malformed requests', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  let calls = 0
  before(async () => {
    s = await setup(mode, (app) => {
      app.all('/hit', () => { calls++; return 'ran' })
      app.post('/echo', (/** @type {any} */ req) => req.body)
    }, { logger: false })
  })
  after(() => s.close())

  for (const c of CASES) {
    test(`${c.name}: ${c.status} with a JSON body, connection closed, no handler`, async () => {
      const before = calls
      const { text, closedByServer } = await exchange(s.port, c.bytes, { ms: 3000 })
      const all = responses(text)
      assert.equal(all.length, 1, text)
      const res = all[0]
      assert.equal(res.status, c.status, text)
      assert.match(res.head, /\r\ncontent-type: application\/json/i)
      const body = JSON.parse(res.body)
      assert.equal(body.statusCode, c.status)
      assert.equal(body.code, c.code)
      assert.match(body.message, c.message)
      assert.equal(closedByServer, true, 'the server closed the connection')
      assert.equal(calls, before, 'no handler ran')
    })
  }

  test('valid Host values reach the handler; HTTP/1.0 may send no Host or an empty one', async () => {
    const heads = GOOD_HOSTS.map((h) => `GET /hit HTTP/1.1\r\nHost: ${h}\r\n\r\n`)
      .concat('GET /hit HTTP/1.0\r\nConnection: keep-alive\r\n\r\n', 'GET /hit HTTP/1.0\r\nHost:\r\nConnection: keep-alive\r\n\r\n')
    const { text } = await exchange(s.port, heads.join('') + 'GET /hit HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { ms: 3000 })
    const all = responses(text)
    assert.deepEqual(all.map((r) => r.status), heads.map(() => 200).concat(200), text)
  })

  test('Expect: 100-continue on HTTP/1.0 is ignored: no 1xx, the body is read, one answer', async () => {
    const { text, closedByServer } = await exchange(s.port, 'POST /echo HTTP/1.0\r\nExpect: 100-continue\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello', { ms: 3000 })
    // RFC 9110 §15.2: no 1xx response to an HTTP/1.0 client
    assert.doesNotMatch(text, /^HTTP\/1\.[01] 1\d\d/m)
    const all = responses(text)
    assert.equal(all.length, 1, text)
    assert.equal(all[0].status, 200, text)
    assert.equal(all[0].body, 'hello')
    assert.equal(closedByServer, true)
  })

  test('a well-formed request still reaches the handler', async () => {
    const [res] = responses((await exchange(s.port, 'GET /hit HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { ms: 3000 })).text)
    assert.equal(res.status, 200)
    assert.equal(res.body, 'ran')
  })
}, SOCKET_MODES)
