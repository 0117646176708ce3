// Requests no server may run get the same answer on every engine: the status
// of DESIGN.md §6, a JSON body naming the problem, the connection closed, and
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
  { name: 'request-target over 8 KiB', bytes: `GET /hit?${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 414, code: 'HP_ERR_URL_TOO_LONG', message: /./ }
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

  test('a well-formed request still reaches the handler', async () => {
    const [res] = responses((await exchange(s.port, 'GET /hit HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { ms: 3000 })).text)
    assert.equal(res.status, 200)
    assert.equal(res.body, 'ran')
  })
}, SOCKET_MODES)
