// A streamed reply whose handler declared a Content-Length goes out with
// that length, not chunked; a stream that ends short of it or runs past it
// ends the connection instead of sending a wrong frame (RFC 9112 §6.3), or,
// on HTTP/2, resets its stream (RFC 9113 §8.1.1: such a message is
// malformed) while the session goes on. A stream that fails after its first
// byte ends the same way, and its failure is logged, not taken for the
// client leaving (node:http's ServerResponse closes before pipeline() calls
// back on Node 22 and later).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'
import { exchange } from '../wire/util.js'

const H = 'Host: x\r\n'

eachMode('stream reply with a declared Content-Length', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const failures = /** @type {string[]} */ ([])
  before(async () => {
    s = await setup(mode, (app) => {
      app.addHook('onResponse', () => {})
      app.get('/exact', (_req, reply) => reply.header('content-length', 6).type('text/plain').send(Readable.from(['abc', 'def'])))
      app.get('/short', (_req, reply) => reply.header('content-length', 10).type('text/plain').send(Readable.from(['abc', 'def'])))
      app.get('/long', (_req, reply) => reply.header('content-length', 4).type('text/plain').send(Readable.from(['abc', 'def'])))
      app.get('/fails', (_req, reply) => reply.header('content-length', 10).type('text/plain').send(failsAfterFirstChunk()))
      app.get('/', () => 'alive')
    }, { logger: { level: 'error', stream: { write (/** @type {string} */ line) { failures.push(JSON.parse(line).msg) } } } })
  })
  after(() => s.close())

  test('a stream of exactly the declared length is sent with it, not chunked', async () => {
    const res = await s.request('/exact')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-length'], '6')
    assert.equal(res.headers['transfer-encoding'], undefined)
    assert.equal(res.body, 'abcdef')
  })

  for (const [path, declared] of /** @type {const} */ ([['/short', 10], ['/long', 4], ['/fails', 10]])) {
    const ends = mode === 'inject' ? '' : mode === 'h2' ? ', and the stream is reset' : ', and the connection ends'
    test(`${path}: never more than ${declared} bytes, the failure is logged${ends}`, async () => {
      const before = failures.length
      if (mode === 'inject') {
        const res = await s.request(path)
        assert.equal(res.headers['content-length'], String(declared))
        assert.ok(res.body.length < Math.max(declared, 7), res.body)
        assert.ok(res.body.length <= declared)
      } else if (mode === 'h2') {
        const outcome = await s.request(path).then((res) => ({ res, rstCode: 0 }), (/** @type {any} */ err) => ({ res: null, rstCode: err.rstCode }))
        assert.notEqual(outcome.rstCode, 0, 'the stream was reset with an error code')
      } else {
        // a second request on the same connection must never be answered
        const { text, closedByServer } = await exchange(s.port, `GET ${path} HTTP/1.1\r\n${H}\r\nGET / HTTP/1.1\r\n${H}\r\n`)
        assert.ok(closedByServer)
        // a source failing as its first chunk is taken may fail before
        // node:http has flushed the head: then nothing at all goes out
        if (path !== '/fails' || text !== '') {
          const end = text.indexOf('\r\n\r\n')
          const head = text.slice(0, end)
          assert.match(head, /^HTTP\/1\.1 200 /)
          assert.match(head, new RegExp(`\\r\\ncontent-length: ${declared}`, 'i'))
          assert.doesNotMatch(head, /transfer-encoding/i)
          const body = text.slice(end + 4)
          assert.ok(body.length <= declared, JSON.stringify(body))
          assert.doesNotMatch(body, /HTTP\/1\.1/)
        }
      }
      assert.equal((await s.request('/')).body, 'alive')
      assert.equal(failures.length, before + 1, failures.join(' | '))
    })
  }
})

/**
 * 'abc', then, when it is read again (once the head is written), an error.
 * @returns {Readable}
 */
function failsAfterFirstChunk () {
  let sent = false
  return new Readable({
    highWaterMark: 1,
    read () {
      if (sent) this.destroy(new Error('disk gone'))
      else { sent = true; this.push('abc') }
    }
  })
}
