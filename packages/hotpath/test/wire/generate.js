// Generated and mutated HTTP/1.1 requests for the differential harness:
// mostly well-formed requests built from the grammar (so they reach deep
// into the parser), plus byte mutations that break them in every place.

import fc from 'fast-check'

const METHODS = ['GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'get', 'FOO', 'PROPFIND', 'M-SEARCH']
const NAMES = ['Host', 'Accept', 'User-Agent', 'X-A', 'x-b', 'Cookie', 'Set-Cookie', 'Content-Type', 'Content-Length',
  'Transfer-Encoding', 'Connection', 'Referer', 'Authorization', 'If-None-Match', 'X-Forwarded-For', 'TE', 'Trailer',
  '__proto__', 'constructor', 'X A', 'X-A ', 'X:A', 'X\tA', '']
const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
const TARGET_CHARS = 'abcxyz019/-._~%?&=+;:@!$\'()*,"<>[]\\^`{|}#'
const ODD = ['\r', '\n', '\t', ' ', '\0', '\x01', '\x0b', '\x0c', '\x7f', '\x80', '\xff', ':', ',', ';', '"']
const VALUE_CHARS = 'abcXYZ0129 \t,;=-/"()\xe9'

const charFrom = (/** @type {string} */ s) => fc.integer({ min: 0, max: s.length - 1 }).map(i => s[i])
const str = (/** @type {fc.Arbitrary<string>} */ ch, max = 12) => fc.array(ch, { maxLength: max }).map(a => a.join(''))

const target = fc.oneof(
  { weight: 8, arbitrary: str(charFrom(TARGET_CHARS), 20).map(s => '/' + s) },
  { weight: 1, arbitrary: fc.constantFrom('*', 'http://example.com/x', 'example.com:443', '', '/a b', '/\xe9', '/a\tb') }
)

const headerName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES.slice(0, 18)) },
  { weight: 2, arbitrary: str(charFrom(TOKEN_CHARS), 10).filter(s => s.length > 0) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES.slice(18)) }
)
const headerValue = fc.oneof(
  { weight: 8, arbitrary: str(charFrom(VALUE_CHARS), 16) },
  { weight: 1, arbitrary: fc.tuple(str(charFrom(VALUE_CHARS), 6), fc.constantFrom(...ODD), str(charFrom(VALUE_CHARS), 6)).map(a => a.join('')) },
  { weight: 1, arbitrary: fc.constantFrom('chunked', 'close', 'keep-alive', '5', '0', '00', '+1', '-1', '1, 1', 'gzip, chunked', 'chunked, gzip', ' chunked ') }
)

const body = str(charFrom('abcdefXYZ0123\r\n '), 40)

/** Splits a body into chunks with optional extensions and trailers. */
const chunked = fc.tuple(body, fc.array(fc.integer({ min: 1, max: 16 }), { maxLength: 4 }),
  fc.constantFrom('', ';a=b', ';x', ';q="v w"', ' ;a', ';a=b c'),
  fc.constantFrom('', 'X-T: 1\r\n', 'X-T: a\r\nX-U: b\r\n')
).map(([b, cuts, ext, trailer]) => {
  let out = ''
  let pos = 0
  for (const n of cuts) {
    if (pos >= b.length) break
    const part = b.slice(pos, pos + n)
    out += part.length.toString(16) + ext + '\r\n' + part + '\r\n'
    pos += n
  }
  if (pos < b.length) out += (b.length - pos).toString(16) + '\r\n' + b.slice(pos) + '\r\n'
  return out + '0\r\n' + trailer + '\r\n'
})

const framing = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ headers: '', body: '' }) },
  { weight: 4, arbitrary: body.map(b => ({ headers: 'Content-Length: ' + b.length + '\r\n', body: b })) },
  { weight: 3, arbitrary: chunked.map(c => ({ headers: 'Transfer-Encoding: chunked\r\n', body: c })) },
  { weight: 1, arbitrary: fc.tuple(body, chunked).map(([b, c]) => ({ headers: 'Content-Length: ' + b.length + '\r\nTransfer-Encoding: chunked\r\n', body: c })) }
)

const request = fc.record({
  method: fc.constantFrom(...METHODS),
  target,
  version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'),
  host: fc.constantFrom('Host: example.com\r\n', 'Host: example.com\r\n', 'Host: a\r\n', ''),
  headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
  framing
}).map(r => {
  let head = r.method + ' ' + r.target + ' ' + r.version + '\r\n' + r.host
  for (const [n, v] of r.headers) {
    // framing headers come only from `framing`, so generated bodies stay consistent
    if (/^(content-length|transfer-encoding|connection|expect|upgrade)$/i.test(n) && Math.abs(v.length) >= 0 && n.length > 0 && !/[ \t:]/.test(n)) continue
    head += n + ': ' + v + '\r\n'
  }
  return head + r.framing.headers + '\r\n' + r.framing.body
})

const mutation = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  op: fc.constantFrom('insert', 'delete', 'replace'),
  ch: fc.constantFrom(...ODD, 'a', '0', 'G', 'f')
})

/** Requests as latin1 strings, with how many requests they hold when valid. */
export const requestBytes = fc.tuple(fc.array(request, { minLength: 1, maxLength: 3 }), fc.array(mutation, { maxLength: 3 }), fc.boolean())
  .map(([reqs, muts, mutate]) => {
    let s = reqs.join('')
    if (mutate) {
      for (const m of muts) {
        const i = Math.floor(m.at * s.length)
        if (m.op === 'insert') s = s.slice(0, i) + m.ch + s.slice(i)
        else if (m.op === 'delete') s = s.slice(0, i) + s.slice(i + 1)
        else s = s.slice(0, i) + m.ch + s.slice(i + 1)
      }
    }
    return { raw: s, requests: reqs.length }
  })
