// reply.raw's header API as plugins use it on every request (helmet sets a
// dozen headers through it, in their own case): node:http's refusals, the
// same on the first request and on every later one, whatever names and
// values were accepted before; names case-insensitive; removing a header
// that is not there changes nothing. And reply.header's names likewise.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup, HTTP1_MODES } from '../helpers/engines.js'

/**
 * The code of what `fn` throws, or 'ok'.
 * @param {() => void} fn
 */
function refusal (fn) {
  try {
    fn()
    return 'ok'
  } catch (err) {
    return /** @type {any} */ (err).code
  }
}

eachMode('reply.raw.setHeader on every request', (mode) => {
  test('refuses a bad name or value as node:http does, on the first request and the later ones; names in any case', async () => {
    /** @type {string[][]} */
    const seen = []
    const s = await setup(mode, (app) => {
      app.get('/', (req, reply) => {
        const raw = reply.raw
        seen.push([
          refusal(() => raw.setHeader('X-Frame-Options', 'SAMEORIGIN')),
          refusal(() => raw.setHeader('Content-Security-Policy', `default-src 'self';${"img-src 'self' data:;".repeat(12)}`)),
          refusal(() => raw.setHeader('X-Frame-Options', 'SAME\nORIGIN')),
          refusal(() => raw.setHeader('X Frame', 'SAMEORIGIN')),
          refusal(() => raw.setHeader('X-Long', `${'a'.repeat(200)}\r\nx: y`)),
          refusal(() => raw.setHeader('X-List', ['a', 'b\u0000'])),
          refusal(() => raw.setHeader('X-Undefined', /** @type {any} */ (undefined))),
          refusal(() => raw.removeHeader('X-Powered-By')),
          String(raw.getHeader('x-frame-options')),
          String(raw.getHeader('X-FRAME-OPTIONS'))
        ])
        reply.header('Access-Control-Allow-Origin', '*')
        reply.header('X-Count', seen.length)
        return { n: seen.length, origin: reply.getHeader('access-control-allow-origin'), has: reply.hasHeader('ACCESS-CONTROL-ALLOW-ORIGIN') }
      })
    })
    const first = await s.request('/')
    const second = await s.request('/')
    await s.close()
    const expected = ['ok', 'ok', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_CHAR', 'ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ok', 'SAMEORIGIN', 'SAMEORIGIN']
    assert.deepEqual(seen, [expected, expected])
    for (const res of [first, second]) {
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
      assert.match(String(res.headers['content-security-policy']), /^default-src 'self';img-src/)
      assert.equal(res.headers['access-control-allow-origin'], '*')
      assert.equal(res.headers['x-powered-by'], undefined)
      assert.equal(res.headers['x-long'], undefined)
      assert.equal(res.headers['x-undefined'], undefined)
    }
    assert.deepEqual(second.json(), { n: 2, origin: '*', has: true })
  })
}, HTTP1_MODES)
