// Every rejection of docs/safety.md ("Bad input") over a raw socket: the right
// status with a JSON body saying why, Connection: close, the connection
// closed, no handler run, and nothing smuggled behind it ever runs.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { serve, echo, exchange, responses } from './util.js'

const H = 'Host: example.com\r\n'
const SMUGGLED = 'GET /smuggled HTTP/1.1\r\n' + H + '\r\n'

/** @type {[string, string, number][]} */
const CASES = [
  ['Content-Length and Transfer-Encoding', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
  ['Transfer-Encoding and Content-Length', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\nContent-Length: 6\r\n\r\n0\r\n\r\n', 400],
  ['duplicate equal Content-Length', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: 1\r\nContent-Length: 1\r\n\r\na', 400],
  ['differing Content-Length', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: 1\r\nContent-Length: 2\r\n\r\naa', 400],
  ['non-numeric Content-Length', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: abc\r\n\r\n', 400],
  ['signed Content-Length', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: +1\r\n\r\na', 400],
  ['negative Content-Length', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: -1\r\n\r\n', 400],
  ['overflowing Content-Length', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: 184467440737095516160\r\n\r\n', 400],
  ['final coding not chunked', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked, identity\r\n\r\n', 400],
  ['unknown transfer coding', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: gzip\r\n\r\n', 400],
  ['obs-fold', 'GET / HTTP/1.1\r\n' + H + 'X-A: a\r\n  b\r\n\r\n', 400],
  ['space before colon', 'GET / HTTP/1.1\r\n' + H + 'X-A : a\r\n\r\n', 400],
  ['bare CR in a header value', 'GET / HTTP/1.1\r\n' + H + 'X-A: a\rb\r\n\r\n', 400],
  ['bare LF line endings', 'GET / HTTP/1.1\nHost: a\n\n', 400],
  ['bare LF inside the head', 'GET / HTTP/1.1\r\n' + H + 'X-A: a\nX-B: b\r\n\r\n', 400],
  ['NUL in a header value', 'GET / HTTP/1.1\r\n' + H + 'X-A: a\0b\r\n\r\n', 400],
  ['control character in a header value', 'GET / HTTP/1.1\r\n' + H + 'X-A: a\x1bb\r\n\r\n', 400],
  ['control character in a header name', 'GET / HTTP/1.1\r\n' + H + 'X-\x01: a\r\n\r\n', 400],
  ['invalid method', 'G(T / HTTP/1.1\r\n' + H + '\r\n', 400],
  ['unknown method', 'BREW / HTTP/1.1\r\n' + H + '\r\n', 400],
  ['space in the request-target', 'GET /a b HTTP/1.1\r\n' + H + '\r\n', 400],
  ['NUL in the request-target', 'GET /a\0 HTTP/1.1\r\n' + H + '\r\n', 400],
  ['byte >= 0x80 in the request-target', 'GET /\xe9 HTTP/1.1\r\n' + H + '\r\n', 400],
  ['missing Host on HTTP/1.1', 'GET / HTTP/1.1\r\n\r\n', 400],
  ['two Host fields', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 400],
  ['malformed chunk size', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\n\r\nxyz\r\n', 400],
  ['chunk size overflow', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\n\r\n10000000000000000\r\n', 400],
  ['malformed chunk extension', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\n\r\n1;a=\x01\r\na\r\n0\r\n\r\n', 400],
  ['chunk extension too long', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\n\r\n1;' + 'a'.repeat(5000) + '\r\na\r\n0\r\n\r\n', 400],
  ['chunk data not followed by CRLF', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\r\n\r\n1\r\nab\r\n0\r\n\r\n', 400],
  ['unsupported HTTP version', 'GET / HTTP/2.0\r\n' + H + '\r\n', 505],
  ['garbage version', 'GET / HTTX/1.1\r\n' + H + '\r\n', 400],
  ['headers over 16 KiB', 'GET / HTTP/1.1\r\n' + H + 'X-Big: ' + 'a'.repeat(17 * 1024) + '\r\n\r\n', 431],
  ['too many header fields', 'GET / HTTP/1.1\r\n' + H + 'X-A: a\r\n'.repeat(120) + '\r\n', 431],
  ['URL too long', 'GET /' + 'a'.repeat(9000) + ' HTTP/1.1\r\n' + H + '\r\n', 414],
  ['unsupported expectation', 'POST / HTTP/1.1\r\n' + H + 'Expect: teapot\r\nContent-Length: 1\r\n\r\na', 417],
  // only SP and HTAB are whitespace around a coding (RFC 9110 §5.6.3); NBSP is obs-text
  ['NBSP around the transfer coding', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: \xa0chunked\xa0\r\n\r\n0\r\n\r\n', 400],
  ['NBSP after the transfer coding', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: chunked\xa0\r\n\r\n0\r\n\r\n', 400],
  // a coding list with HTAB around its members is still a list
  ['HTAB around a coding before chunked', 'POST / HTTP/1.1\r\n' + H + 'Transfer-Encoding: gzip\t,\tchunked\t\r\n\r\n0\r\n\r\n', 400],
  ['HTAB inside a length', 'POST / HTTP/1.1\r\n' + H + 'Content-Length: 1\t0\r\n\r\na', 400],
  // Host = uri-host [ ":" port ] (RFC 9112 §3.2, RFC 3986 §3.2.2)
  ['a list in Host', 'GET / HTTP/1.1\r\nHost: a, other.example.com\r\n\r\n', 400],
  ['a comma in Host', 'GET / HTTP/1.1\r\nHost: a,b\r\n\r\n', 400],
  ['a path in Host', 'GET / HTTP/1.1\r\nHost: foo/bar\r\n\r\n', 400],
  ['userinfo in Host', 'GET / HTTP/1.1\r\nHost: user@a\r\n\r\n', 400],
  ['a space in Host', 'GET / HTTP/1.1\r\nHost: bad host\r\n\r\n', 400],
  ['a non-numeric port in Host', 'GET / HTTP/1.1\r\nHost: a:b\r\n\r\n', 400],
  ['a port without a host', 'GET / HTTP/1.1\r\nHost: :80\r\n\r\n', 400],
  ['an unclosed IP-literal in Host', 'GET / HTTP/1.1\r\nHost: [::1\r\n\r\n', 400],
  ['an invalid Host on HTTP/1.0', 'GET / HTTP/1.0\r\nHost: a/b\r\n\r\n', 400]
]

/** @type {Awaited<ReturnType<typeof serve>>} */
let server
before(async () => { server = await serve({}, echo) })
after(() => server.close())

for (const [name, raw, status] of CASES) {
  test(`${name} → ${status}, closed, no handler, nothing smuggled`, async () => {
    const before = server.calls.count
    const { text } = await exchange(server.port, raw + SMUGGLED)
    const rs = responses(text)
    // a chunked request whose body breaks has already reached its handler,
    // which then sees an aborted body; nothing behind it ever runs
    const bodyStage = /chunk/.test(name)
    assert.equal(rs.length, bodyStage ? rs.length : 1, text)
    const last = rs[rs.length - 1]
    assert.equal(last.status, bodyStage ? last.status : status, text)
    assert.ok(rs.every(r => r.status === status || (bodyStage && r.status === 400)), text)
    assert.match(last.head, /\r\nConnection: close/i)
    if (!bodyStage) {
      const body = JSON.parse(last.body)
      assert.equal(body.statusCode, status)
      assert.equal(typeof body.message, 'string')
      assert.match(body.code, /^HP_ERR_/)
      assert.equal(server.calls.count, before, 'no handler ran')
    }
    assert.ok(!server.calls.urls.includes('/smuggled'), 'the smuggled request never ran')
  })
}

test('request split at every byte still rejected the same way', async () => {
  const raw = 'POST / HTTP/1.1\r\n' + H + 'Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' + SMUGGLED
  const { text } = await exchange(server.port, raw.split(''), { gap: 0 })
  assert.equal(responses(text)[0].status, 400)
  assert.ok(!server.calls.urls.includes('/smuggled'))
})

test('CL.TE smuggling attempt: the hidden request never runs', async () => {
  const raw = 'POST /a HTTP/1.1\r\n' + H + 'Content-Length: 4\r\nTransfer-Encoding : chunked\r\n\r\n1\r\nZ\r\n0\r\n\r\n' + SMUGGLED
  const { text } = await exchange(server.port, raw)
  assert.equal(responses(text)[0].status, 400)
  assert.ok(!server.calls.urls.includes('/smuggled'))
})

// RFC 9110 §5.5: the SP and HTAB around a field value are OWS, not part of
// it; a framing field with either on either side frames the request as
// without them, and the connection goes on.
const OWS = ['', ' ', '\t', ' \t', '\t ', '\t\t ']
for (const [field, value, body] of [['Content-Length', '5', 'hello'], ['Transfer-Encoding', 'chunked', '5\r\nhello\r\n0\r\n\r\n']]) {
  test(`SP and HTAB on both sides of ${field}'s value are accepted, and the next request on the connection is answered`, async () => {
    for (const lead of OWS) {
      for (const trail of OWS) {
        const raw = 'POST /ows HTTP/1.1\r\n' + H + `${field}:${lead}${value}${trail}\r\n\r\n` + body +
          'GET /next HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n'
        const { text } = await exchange(server.port, raw)
        const rs = responses(text)
        const label = JSON.stringify(lead + value + trail)
        assert.equal(rs.length, 2, `${field}: ${label}\n${text}`)
        assert.equal(rs[0].status, 200, label)
        assert.equal(rs[0].body, 'POST /ows hello', label)
        assert.equal(rs[1].body, 'GET /next ', label)
      }
    }
  })
}

// A field section past a few lines is checked by one regex run, a short one
// line by line (lib/engines/wire/parser.js): a malformed line among long
// well-formed ones is refused as it is alone, with the same answer.
const LONG = 'User-Agent: a-client-with-a-long-name/1.0\r\nAccept: application/json, text/plain;q=0.9\r\n'
const FIELD_LINE_CASES = ['obs-fold', 'space before colon', 'bare CR in a header value', 'bare LF inside the head',
  'NUL in a header value', 'control character in a header value', 'control character in a header name']
test('a malformed field line in a long section gets the answer it gets in a short one', async () => {
  for (const name of FIELD_LINE_CASES) {
    const raw = /** @type {string} */ (CASES.find(c => c[0] === name)?.[1])
    assert.ok(raw, name)
    const long = raw.replace(H, H + LONG)
    assert.notEqual(long, raw)
    const [short, padded] = await Promise.all([exchange(server.port, raw + SMUGGLED), exchange(server.port, long + SMUGGLED)])
    const a = responses(short.text)
    const b = responses(padded.text)
    assert.equal(b.length, 1, padded.text)
    assert.equal(b[0].status, 400, name)
    assert.match(b[0].head, /\r\nConnection: close/i)
    assert.deepEqual(JSON.parse(b[0].body), JSON.parse(a[0].body), name)
  }
  assert.ok(!server.calls.urls.includes('/smuggled'), 'the smuggled request never ran')
})
