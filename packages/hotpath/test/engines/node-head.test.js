// The node engine writes the head node:http's writeHead() would write
// (lib/engines/node/head.js): for any status, headers and response state,
// the head it builds is node's own, byte for byte, and where it cannot say
// (a header node treats specially, a value node refuses, a wrapped
// writeHead) it builds none and node's writeHead() runs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import fc from 'fast-check'
import { ownHead } from '../../lib/engines/node/head.js'

const DATE = /^Date: [^\r]*\r\n/m

/** @param {Record<string, any>} state */
function response (state = {}, server = undefined) {
  const req = /** @type {any} */ ({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {}, socket: server ? { server } : undefined })
  const res = /** @type {any} */ (new http.ServerResponse(req))
  res.shouldKeepAlive = true
  res._keepAliveTimeout = 5000
  res._maxRequestsPerSocket = 0
  Object.assign(res, state)
  return res
}

/**
 * node's head for the same response, or the error its writeHead throws
 * @param {Record<string, any>} state
 * @param {number} status
 * @param {Record<string, any>} headers
 */
function nodeHead (state, status, headers) {
  const res = response(state)
  try {
    res.writeHead(status, structuredClone(headers))
  } catch (err) {
    return { error: /** @type {any} */ (err).code }
  }
  return { head: res._header, last: res._last, chunked: res.chunkedEncoding, length: res._contentLength, message: res.statusMessage }
}

const COMMON = { 'content-type': 'application/json; charset=utf-8', 'content-length': 17 }

test('a JSON answer on a kept-alive connection: node\'s head, built without writeHead()', () => {
  const head = ownHead(response(), 200, COMMON)
  assert.equal(typeof head, 'string')
  assert.equal(/** @type {string} */ (head).replace(DATE, ''), nodeHead({}, 200, COMMON).head.replace(DATE, ''))
  assert.match(/** @type {string} */ (head), /\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n$/)
  assert.equal(ownHead(response({ _maxRequestsPerSocket: 100, _keepAliveTimeout: 72000 }), 201, COMMON)?.replace(DATE, ''),
    nodeHead({ _maxRequestsPerSocket: 100, _keepAliveTimeout: 72000 }, 201, COMMON).head.replace(DATE, ''))
})

test('what only node\'s writeHead() decides gets no head of ours', () => {
  const cases = [
    ['a closing connection', response({ shouldKeepAlive: false }), 200, COMMON],
    ['the last request a connection may make', response({ maxRequestsOnConnectionReached: true }), 200, COMMON],
    ['no Date asked for', response({ sendDate: false }), 200, COMMON],
    ['a 100-continue not answered', response({ _expect_continue: true }), 200, COMMON],
    ['204', response(), 204, { 'content-length': 0 }],
    ['304', response(), 304, { 'content-length': 0 }],
    ['an interim status', response(), 103, { 'content-length': 0 }],
    ['a status node has no phrase for', response(), 599, COMMON],
    ['a reason phrase of the app\'s', response({ statusMessage: 'Fine' }), 200, COMMON],
    ['no Content-Length', response(), 200, { 'content-type': 'text/plain' }],
    ['a Content-Length not named in lower case', response(), 200, { 'Content-Length': 17 }],
    ['Connection given', response(), 200, { ...COMMON, Connection: 'close' }],
    ['Transfer-Encoding given', response(), 200, { 'transfer-encoding': 'chunked' }],
    ['Date given', response(), 200, { ...COMMON, date: 'Thu, 01 Jan 1970 00:00:00 GMT' }],
    ['Keep-Alive given', response(), 200, { ...COMMON, 'Keep-Alive': 'timeout=1' }],
    ['Trailer given', response(), 200, { ...COMMON, trailer: 'x-sum' }],
    ['Content-Disposition given', response(), 200, { ...COMMON, 'content-disposition': 'attachment; filename="caf\u00e9"' }],
    ['a value node refuses', response(), 200, { ...COMMON, 'x-bad': 'a\r\nb' }],
    ['a name node refuses', response(), 200, { ...COMMON, 'x bad': '1' }],
    ['an undefined value', response(), 200, { ...COMMON, 'x-u': undefined }],
    ['an object value', response(), 200, { ...COMMON, 'x-o': {} }],
    ['a boolean value', response(), 200, { ...COMMON, 'x-b': true }],
    ['a bigint value', response(), 200, { ...COMMON, 'x-n': 10n }],
    ['a list with a hole', response(), 200, { ...COMMON, 'x-l': ['a', undefined] }]
  ]
  for (const [name, res, status, headers] of cases) assert.equal(ownHead(res, status, headers), null, name)
  const wrapped = response()
  const writeHead = wrapped.writeHead
  // what on-headers does (compression, morgan, express-session)
  wrapped.writeHead = function (/** @type {any[]} */ ...args) { return writeHead.apply(this, args) }
  assert.equal(ownHead(wrapped, 200, COMMON), null, 'a wrapped writeHead')
  const unique = http.createServer({ uniqueHeaders: ['x-list'] })
  const withUnique = response()
  // node copies the server's option onto each response it makes
  for (const s of Object.getOwnPropertySymbols(unique)) if (s.description === 'kUniqueHeaders') withUnique[s] = /** @type {any} */ (unique)[s]
  assert.equal(ownHead(withUnique, 200, COMMON), null, 'a server with uniqueHeaders')
})

test('any status, headers and keep-alive state: our head is node\'s, and the state it leaves is node\'s', () => {
  const tokenChar = fc.constantFrom(...'abcdefxyzABC-_0123!#$%&\'*+.^`|~'.split(''))
  const ordinaryName = fc.array(tokenChar, { minLength: 1, maxLength: 10 }).map((a) => a.join(''))
  const name = fc.oneof(
    { weight: 6, arbitrary: ordinaryName },
    { weight: 1, arbitrary: fc.constantFrom('Content-Type', 'set-cookie', 'Set-Cookie', 'x powered', '', 'x-ü', 'vary', 'Cookie', 'EXPECT', 'Date', 'connection') }
  )
  const valueChar = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...'abc xyz=;,/"0123'.split('')) },
    { weight: 1, arbitrary: fc.constantFrom('\t', '\u00e9', '\u00ff', '\u0100', '\r', '\n', '\u0000', '\u007f', '\u20ac') }
  )
  const text = fc.array(valueChar, { maxLength: 20 }).map((a) => a.join(''))
  const value = fc.oneof(
    { weight: 6, arbitrary: text },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 1e6 }) },
    { weight: 1, arbitrary: fc.constantFrom(true, false, 0.5, -1, 12n) },
    { weight: 2, arbitrary: fc.array(fc.oneof(text, fc.integer({ min: 0, max: 99 })), { maxLength: 3 }) }
  )
  const status = fc.constantFrom(200, 200, 200, 201, 202, 301, 400, 404, 418, 500, 503, 204, 304, 103, 599)
  const state = fc.record({
    shouldKeepAlive: fc.constantFrom(true, true, true, false),
    _keepAliveTimeout: fc.constantFrom(0, 5000, 72000, 999),
    _maxRequestsPerSocket: fc.constantFrom(0, 3),
    maxRequestsOnConnectionReached: fc.constantFrom(false, false, false, true),
    sendDate: fc.constantFrom(true, true, true, false)
  })
  let built = 0
  fc.assert(fc.property(status, state, fc.array(fc.tuple(name, value), { maxLength: 5 }), fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined, freq: 5 }), (code, st, pairs, length) => {
    /** @type {Record<string, any>} */
    const headers = {}
    for (const [n, v] of pairs) headers[n] = v
    if (length !== undefined) headers['content-length'] = length
    const ours = ownHead(response(st), code, headers)
    if (ours === null) return
    built++
    const node = nodeHead(st, code, headers)
    assert.equal(node.error, undefined, 'node writes what we wrote')
    assert.equal(ours.replace(DATE, ''), node.head.replace(DATE, ''))
    assert.equal(node.last, false)
    assert.equal(node.chunked, false)
    assert.equal(node.length, Number(headers['content-length']))
    assert.equal(node.message, http.STATUS_CODES[code])
  }), { numRuns: 2000, seed: 42 })
  // the common response is the one built here, not node's every time
  assert.ok(built > 200, `our head was built for ${built} of 2000`)
})

test('over a socket: a writeHead wrapped on the response (on-headers) still runs on the node engine', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  const { default: onHeaders } = await import('on-headers')
  const app = hotpath({ engine: 'node' })
  app.addHook('onRequest', (req, reply, done) => {
    if (req.query.wrap === '1') onHeaders(reply.raw, function () { this.setHeader('x-seen-at-head', 'yes') })
    done()
  })
  app.get('/', () => ({ hello: 'world' }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const { port } = /** @type {import('node:net').AddressInfo} */ (app.server.address())
    const wrapped = await fetch(`http://127.0.0.1:${port}/?wrap=1`)
    assert.equal(wrapped.headers.get('x-seen-at-head'), 'yes')
    assert.deepEqual(await wrapped.json(), { hello: 'world' })
    const plain = await fetch(`http://127.0.0.1:${port}/`)
    assert.equal(plain.headers.get('x-seen-at-head'), null)
    assert.equal(plain.headers.get('content-length'), '17')
    assert.equal(plain.headers.get('keep-alive'), 'timeout=5')
    assert.deepEqual(await plain.json(), { hello: 'world' })
  } finally {
    await app.close()
  }
})

test('a writeHead wrapped on the prototype before hotpath loads (an APM preloaded with -r) still sees every head', async () => {
  const { execFileSync } = await import('node:child_process')
  const preload = 'import http from "node:http"; const original = http.ServerResponse.prototype.writeHead; ' +
    'globalThis.heads = 0; http.ServerResponse.prototype.writeHead = function wrapped (...args) { globalThis.heads++; return original.apply(this, args) }'
  const app = `const { default: hotpath } = await import(${JSON.stringify(new URL('../../lib/index.js', import.meta.url).href)});
    const app = hotpath({ engine: 'node' }); app.get('/', () => ({ hello: 'world' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch('http://127.0.0.1:' + app.server.address().port + '/'); await res.text();
    await app.close(); console.log(JSON.stringify({ heads: globalThis.heads, status: res.status }))`
  const out = execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, '--input-type=module', '-e', app], { encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out.trim().split('\n').pop()), { heads: 1, status: 200 })
})

test('over a socket: the bytes hotpath\'s node engine sends are those of a node:http server given the same headers', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  const { rawRequest } = await import('../helpers/engines.js')
  const body = JSON.stringify({ hello: 'w\u00f6rld' })
  const app = hotpath({ engine: 'node' })
  app.get('/', (req, reply) => { reply.header('x-list', ['a', 'b']).header('x-num', 5).header('x-latin', 'caf\u00e9'); return { hello: 'w\u00f6rld' } })
  const plain = http.createServer((req, res) => {
    res.writeHead(200, { 'x-list': ['a', 'b'], 'x-num': 5, 'x-latin': 'caf\u00e9', 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    // a Buffer body, as node sends a head with obs-text: its latin1 bytes
    res.end(Buffer.from(body))
  })
  plain.keepAliveTimeout = 5000
  await app.listen({ port: 0, host: '127.0.0.1' })
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', () => resolve(undefined)))
  try {
    // kept alive (hotpath's own head), then Connection: close (node's writeHead)
    const bytes = 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
    const portOf = (/** @type {any} */ s) => s.address().port
    const [ours, nodes] = await Promise.all([rawRequest(portOf(app.server), bytes), rawRequest(portOf(plain), bytes)])
    const noDate = (/** @type {string} */ t) => t.replace(/Date: [^\r]*\r\n/g, '')
    assert.equal(ours.split('HTTP/1.1 200 OK').length - 1, 2)
    assert.equal(noDate(ours), noDate(nodes))
  } finally {
    await app.close()
    await new Promise((resolve) => plain.close(() => resolve(undefined)))
  }
})
