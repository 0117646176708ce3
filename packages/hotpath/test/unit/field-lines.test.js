// The parser checks a long field section with one regex run and a short one
// line by line (lib/engines/wire/parser.js, FIELD_LINES). Both ways must
// take the same heads, cut them into the same fields, and refuse the same
// heads for the same reason.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Parser } from '../../lib/engines/wire/parser.js'
import { resolveLimits } from '../../lib/engines/wire/limits.js'

// enough valid lines around a case to put its section past the regex's threshold
const PAD_BEFORE = 'Host: example.com\r\nUser-Agent: a-client-with-a-long-name/1.0\r\n'
const PAD_AFTER = 'Accept: application/json, text/plain;q=0.9\r\n'

/**
 * @param {string} fields  the field lines, each ending in CRLF
 * @returns {{ raw: string[] } | { error: string, detail: unknown }}
 */
function parse (fields) {
  /** @type {any} */
  let result = null
  const sink = {
    stopped: false,
    onHeadStart () {},
    onRequest (/** @type {any} */ req) { result = { raw: req.rawHeaders } },
    onBody () {},
    onComplete () {},
    onError (/** @type {string} */ code, /** @type {unknown} */ detail) { result = { error: code, detail } }
  }
  const parser = new Parser(sink, null, resolveLimits({}))
  parser.execute(Buffer.from(`GET / HTTP/1.1\r\n${fields}\r\n`, 'latin1'))
  assert.ok(result !== null, 'the head was neither taken nor refused')
  return result
}

const REFUSED = [
  ['X-A: a\r\n  b\r\n', 'Obsolete line folding (obs-fold) is not allowed'],
  ['X-A : a\r\n', 'Whitespace before the colon of a header'],
  ['X-A\t: a\r\n', 'Whitespace before the colon of a header'],
  ['X-A a\r\n', 'Header line without a colon'],
  [': a\r\n', 'Empty header name'],
  ['X-\x01: a\r\n', 'Invalid character in header name'],
  ['X(A): a\r\n', 'Invalid character in header name'],
  ['X-A: a\rb\r\n', 'Bare CR in header value'],
  ['X-A: a\0b\r\n', 'Invalid character in header value'],
  ['X-A: a\x1bb\r\n', 'Invalid character in header value'],
  ['X-A: a\x7fb\r\n', 'Invalid character in header value']
]

test('a malformed field line is refused for the same reason in a short and a long section', () => {
  for (const [line, reason] of REFUSED) {
    for (const fields of [`Host: a\r\n${line}`, PAD_BEFORE + line + PAD_AFTER]) {
      assert.ok(fields.length - 2 > 48 || fields.startsWith('Host: a'), 'the long case is past the threshold')
      const result = parse(fields)
      assert.deepEqual(result, { error: 'HP_ERR_BAD_REQUEST', detail: reason }, JSON.stringify(fields))
    }
  }
})

test('a well-formed section is cut into the same fields, short or long', () => {
  const lines = [
    ['X-Plain: value', 'X-Plain', 'value'],
    ['X-Ows:\t \tpadded \t', 'X-Ows', 'padded'],
    ['X-Empty:', 'X-Empty', ''],
    ['X-Blank:   ', 'X-Blank', ''],
    ['X-Colons: a:b::c', 'X-Colons', 'a:b::c'],
    ['X-Obs-Text: caf\xe9', 'X-Obs-Text', 'caf\xe9'],
    ["X-!#$%&'*+-.^_`|~09az: tchars", "X-!#$%&'*+-.^_`|~09az", 'tchars']
  ]
  for (const [line, name, value] of lines) {
    const short = parse(`Host: a\r\n${line}\r\n`)
    assert.deepEqual(short, { raw: ['Host', 'a', name, value] }, line)
    const long = parse(`${PAD_BEFORE}${line}\r\n${PAD_AFTER}`)
    assert.deepEqual(long, { raw: ['Host', 'example.com', 'User-Agent', 'a-client-with-a-long-name/1.0', name, value, 'Accept', 'application/json, text/plain;q=0.9'] }, line)
  }
})

test('a long section still applies the field rules: framing, Host, limits', () => {
  assert.deepEqual(parse(`${PAD_BEFORE}Content-Length: 1\r\nContent-Length: 1\r\n${PAD_AFTER}`), { error: 'HP_ERR_BAD_REQUEST', detail: 'Duplicate Content-Length' })
  assert.deepEqual(parse(`${PAD_BEFORE}Host: other\r\n${PAD_AFTER}`), { error: 'HP_ERR_BAD_REQUEST', detail: 'Duplicate Host header' })
  assert.deepEqual(parse(`User-Agent: a-client-with-a-long-name/1.0\r\nHost: a/b\r\n${PAD_AFTER}`), { error: 'HP_ERR_BAD_REQUEST', detail: 'Invalid Host header' })
  const many = parse('Host: a\r\n' + 'X-A: a\r\n'.repeat(120))
  assert.equal(/** @type {any} */ (many).error, 'HP_ERR_HEADERS_TOO_LARGE')
})
