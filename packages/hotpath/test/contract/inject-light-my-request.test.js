// app.inject() against light-my-request, side by side: each case builds the
// same app on Fastify (which injects through light-my-request) and on
// hotpath/fastify, makes the same inject() call on both, and compares the
// outcomes: the Response's members (status, headers, body bytes, json(),
// cookies, trailers, raw, stream()), what the handler saw of the request
// (method, url, query, headers, rawHeaders, body, ip, host), or the error
// the call failed with. Tests written against Fastify's inject() move to
// hotpath by changing one import; a difference here is one they would meet.
// What differs on purpose is in docs/migrating-from-fastify.md, "inject()".
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { Readable, Stream } from 'node:stream'
import Fastify from 'fastify'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
/** @type {any} the npm package, a classic stream (CombinedStream) */
const NpmFormData = require('form-data')

/**
 * @typedef {object} Side  one app and what its handlers saw
 * @property {any} app
 * @property {Record<string, any>[]} seen  one record a request that reached a handler
 * @property {string[]} events  hooks that ran, in order
 * @property {{ reached: Promise<void>, release: () => void }} gate  the '/hang' route's
 */

/** @returns {Side['gate']} */
function newGate () {
  /** @type {() => void} */
  let reachedNow = () => {}
  /** @type {() => void} */
  let release = () => {}
  const reached = new Promise((resolve) => { reachedNow = () => resolve(undefined) })
  const released = new Promise((resolve) => { release = () => resolve(undefined) })
  return { reached: reached.then(() => {}), release, /** @type {any} */ released, reachedNow }
}

/**
 * @param {Record<string, any>} headers
 * @returns {Record<string, any>}
 */
function visible (headers) {
  /** @type {Record<string, any>} */
  const out = {}
  for (const [k, v] of Object.entries(headers)) out[k] = v === undefined ? '(undefined)' : v
  return out
}

/**
 * The routes both apps get.
 * @param {any} app
 * @returns {Side}
 */
function routes (app) {
  /** @type {Side} */
  const side = { app, seen: [], events: [], gate: newGate() }
  /** @param {any} req */
  const record = (req) => {
    side.seen.push({
      method: req.method,
      url: req.url,
      query: JSON.parse(JSON.stringify(req.query)),
      headers: visible(req.headers),
      rawHeaders: [...req.raw.rawHeaders].map((v) => v === undefined ? '(undefined)' : v),
      body: req.body,
      ip: req.ip,
      host: req.host,
      hostname: req.hostname,
      remoteAddress: req.socket.remoteAddress
    })
  }
  // every body as its bytes, read as latin1; application/x-chunks as the
  // sizes of the chunks the request stream gave
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (/** @type {any} */ req, /** @type {Buffer} */ body, /** @type {Function} */ done) => { done(null, body.toString('latin1')) })
  app.addContentTypeParser('application/x-chunks', (/** @type {any} */ req, /** @type {any} */ payload, /** @type {Function} */ done) => {
    /** @type {number[]} */
    const sizes = []
    payload.on('data', (/** @type {Buffer} */ chunk) => sizes.push(chunk.length))
    payload.on('end', () => done(null, sizes))
    payload.on('error', (/** @type {Error} */ err) => done(err))
  })
  app.addHook('onRequestAbort', async (/** @type {any} */ _req) => { side.events.push('onRequestAbort') })
  app.get('/cookies', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.header('set-cookie', ['a=1%202; Path=/; HttpOnly', 'b=two; Max-Age=60; SameSite=Lax'])
    return 'ok'
  })
  app.get('/stream', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.trailer('x-count', (/** @type {any} */ _r, /** @type {any} */ _p, /** @type {Function} */ done) => { done(null, '3') })
    reply.type('text/plain')
    return Readable.from([Buffer.from('one,'), Buffer.from('two,'), Buffer.from('three')])
  })
  app.get('/json', () => ({ hello: 'world', n: [1, 2] }))
  app.get('/created', (/** @type {any} */ req, /** @type {any} */ reply) => reply.code(201).send('made'))
  app.get('/later', async () => {
    await new Promise((resolve) => setImmediate(resolve))
    return 'later'
  })
  app.get('/hang', async (/** @type {any} */ req) => {
    const gate = /** @type {any} */ (side.gate)
    record(req)
    gate.reachedNow()
    await gate.released
    return 'late'
  })
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    url: '/*',
    handler: (/** @type {any} */ req) => {
      record(req)
      return 'ok'
    }
  })
  return side
}

/** @type {Side} */
let fastify
/** @type {Side} */
let hotpath

before(async () => {
  fastify = routes(Fastify())
  hotpath = routes(hotpathFastify())
  await Promise.all([fastify.app.ready(), hotpath.app.ready()])
})

after(() => Promise.all([fastify.app.close(), hotpath.app.close()]))

/** @param {import('node:stream').Readable} stream */
async function collect (stream) {
  /** @type {Buffer[]} */
  const chunks = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/**
 * A Response's members, as plain data. `date` changes between calls.
 * @param {any} res
 */
async function describe (res) {
  const headers = { ...res.headers }
  delete headers.date
  /** @type {unknown} */
  let json
  try {
    json = res.json()
  } catch (err) {
    json = `throws: ${/** @type {Error} */ (err).message}`
  }
  return {
    statusCode: res.statusCode,
    statusMessage: res.statusMessage,
    headers,
    payload: res.payload,
    body: res.body,
    rawPayload: Buffer.isBuffer(res.rawPayload) ? res.rawPayload.toString('hex') : res.rawPayload,
    json,
    cookies: res.cookies,
    trailers: { ...res.trailers },
    raw: {
      req: typeof res.raw?.req,
      res: typeof res.raw?.res,
      method: res.raw?.req?.method,
      url: res.raw?.req?.url,
      statusCode: res.raw?.res?.statusCode
    },
    stream: typeof res.stream === 'function' ? (await collect(res.stream())).toString('latin1') : 'no stream()'
  }
}

/** @param {any} err */
function describeError (err) {
  return { name: err?.name, code: err?.code, message: err?.message }
}

/**
 * One call's outcome on one side: the Response or the error, and what the
 * handlers saw.
 * @param {Side} side
 * @param {(app: any) => any} call
 */
async function outcome (side, call) {
  side.seen.length = 0
  side.events.length = 0
  try {
    const res = await call(side.app)
    return { response: await describe(res), seen: [...side.seen], events: [...side.events] }
  } catch (err) {
    return { error: describeError(err), seen: [...side.seen], events: [...side.events] }
  }
}

/**
 * The same call on both apps, compared.
 * @param {(app: any) => any} call  called once an app, so a stream payload is made for each
 * @param {(o: any) => any} [view]  what of the outcome to compare (all of it unless given)
 */
async function same (call, view = (o) => o) {
  const f = await outcome(fastify, call)
  const h = await outcome(hotpath, call)
  assert.deepEqual(view(h), view(f))
  return f
}

/** Only whether the call failed, for errors whose wording is each framework's own. */
const failedOnly = (/** @type {any} */ o) => ({ failed: 'error' in o, seen: o.seen })

// ── payloads ─────────────────────────────────────────────────────────

test('payload: a string, a Buffer, an object, with and without a Content-Type', async () => {
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: 'plain text' }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: 'plain text', headers: { 'content-type': 'text/plain' } }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: Buffer.from([0xde, 0xad, 0xbe, 0xef]), headers: { 'content-type': 'application/octet-stream' } }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: { a: 1, b: ['x'] } }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: { a: 1 }, headers: { 'content-type': 'application/vnd.x+json' } }))
  await same((app) => app.inject({ method: 'POST', url: '/p', body: 'through body' }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: 'é ü', headers: { 'content-type': 'text/plain; charset=utf-8' } }))
})

test('payload: empty and falsy values send no body', async () => {
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: '' }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: 0 }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: null }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: Buffer.alloc(0), headers: { 'content-type': 'text/plain' } }))
})

test('payload: a typed array that is not a Buffer is an object, sent as JSON', async () => {
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: new Uint8Array([1, 2, 3]) }))
})

test('payload: a Readable stream, with and without a declared length', async () => {
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: Readable.from([Buffer.from('ab'), Buffer.from('cd')]), headers: { 'content-type': 'text/plain' } }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: Readable.from([Buffer.from('ab'), Buffer.from('cd')]), headers: { 'content-type': 'text/plain', 'content-length': '4' } }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: Readable.from([Buffer.from('{"s":'), Buffer.from('1}')]), headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }))
})

test('payload: a classic Stream that only emits data and end once resumed', async () => {
  const classic = () => {
    const stream = /** @type {any} */ (new Stream())
    stream.resume = () => {
      setImmediate(() => {
        stream.emit('data', Buffer.from('first '))
        stream.emit('data', 'second')
        stream.emit('end')
      })
    }
    return stream
  }
  const f = await same((app) => app.inject({ method: 'POST', url: '/p', payload: classic(), headers: { 'content-type': 'text/plain' } }))
  assert.equal(f.seen[0].body, 'first second')
})

test('payload: the npm form-data package, with its own headers', async () => {
  const form = () => {
    const fd = new NpmFormData()
    fd.setBoundary('hotpath-differential')
    fd.append('field', 'a value')
    fd.append('file', Buffer.from('file bytes'), { filename: 'a.txt', contentType: 'text/plain' })
    return fd
  }
  const f = await same((app) => { const fd = form(); return app.inject({ method: 'POST', url: '/upload', payload: fd, headers: fd.getHeaders() }) })
  assert.match(f.seen[0].body, /name="file"; filename="a.txt"\r\nContent-Type: text\/plain\r\n\r\nfile bytes\r\n/)
})

test('payload: a FormData, streamed with its boundary (the request heads compared without it)', async () => {
  const withoutBoundary = (/** @type {any} */ o) => JSON.parse(JSON.stringify(o).replace(/-{4}formdata-[0-9a-f-]+/g, 'BOUNDARY').replace(/"content-length","?\d+"?,?/g, ''))
  await same((app) => {
    const form = new FormData()
    form.set('field', 'value')
    form.set('file', new Blob(['blob bytes'], { type: 'text/plain' }), 'b.txt')
    return app.inject({ method: 'POST', url: '/form', payload: form, headers: { 'content-type': 'text/plain' } })
  }, withoutBoundary)
})

test('payload: an async iterable that is not a stream is an object, sent as JSON', async () => {
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: { async * [Symbol.asyncIterator] () { yield 'x' } } }))
  await same((app) => app.inject({ method: 'POST', url: '/p', payload: (async function * () { yield 'x' })() }))
})

// ── URL and query ────────────────────────────────────────────────────

test('url: with and without a leading slash, absolute, protocol-relative, with a fragment', async () => {
  for (const url of ['q', 'q/r?s=1', '/x/../y', 'http://example.com:3000/abs?z=9', 'https://example.com/tls', '//double/slash', '/frag#part', '/sp ace', '/ü']) {
    await same((app) => app.inject(url), (o) => ({ url, ...o }))
  }
})

test('url: an object with pathname, query, protocol, hostname and port', async () => {
  await same((app) => app.inject({ url: { pathname: '/obj', query: { a: '1', b: ['2', '3'] }, protocol: 'http:', hostname: 'example.org', port: '8080' } }))
  await same((app) => app.inject({ url: { pathname: '/obj' }, query: { c: '4' } }))
  await same((app) => app.inject({ path: '/by-path?x=1' }))
})

test('query: an object, a string, and either merged with the URL\'s own', async () => {
  await same((app) => app.inject({ url: '/q', query: { a: '1', list: ['x', 'y'], n: /** @type {any} */ (2) } }))
  await same((app) => app.inject({ url: '/q', query: 'a=1&a=2&b=%20c' }))
  await same((app) => app.inject({ url: '/q?a=0&keep=1', query: { a: '1' } }))
  await same((app) => app.inject({ url: '/q?a=0&keep=1', query: 'a=1&a=2' }))
  await same((app) => app.inject({ url: '/q?a=0', query: {} }))
  await same((app) => app.inject({ url: '/q', query: '' }))
})

// ── headers, cookies, address, authority, method ──────────────────────

test('headers: names in upper case, values that are numbers and arrays', async () => {
  await same((app) => app.inject({ url: '/h', headers: { 'X-Upper': 'Yes', 'X-Number': /** @type {any} */ (42) } }))
  await same((app) => app.inject({ url: '/h', headers: { 'x-list': ['a', 'b'], accept: ['text/html', 'application/json'] } }))
  // Node's rules: a single-value field keeps its first value, cookie joins with '; '
  await same((app) => app.inject({ url: '/h', headers: { authorization: ['Bearer one', 'Bearer two'], cookie: ['a=1', 'b=2'], 'set-cookie': ['s=1', 's=2'] } }))
  await same((app) => app.inject({ url: '/h', headers: { host: 'given.example:81', 'user-agent': 'mine' } }))
})

test('headers: an undefined user-agent or content-type is kept undefined, another undefined value is refused', async () => {
  await same((app) => app.inject({ url: '/h', headers: { 'user-agent': undefined } }))
  await same((app) => app.inject({ method: 'POST', url: '/h', payload: { a: 1 }, headers: { 'content-type': undefined } }))
  await same((app) => app.inject({ url: '/h', headers: { 'x-gone': undefined } }), failedOnly)
})

test('cookies: an object, values encoded, after a Cookie header given, filtered by path', async () => {
  await same((app) => app.inject({ url: '/c', cookies: { a: 'one two', b: 'ü;' } }))
  await same((app) => app.inject({ url: '/c', headers: { cookie: 'first=0' }, cookies: { a: '1' } }))
  await same((app) => app.inject({ url: '/c', cookies: {} }))
  await same((app) => app.inject({ url: '/admin/x', cookies: [{ name: 'a', value: '1', path: '/admin' }, { name: 'b', value: '2', path: '/other' }] }))
  await same((app) => app.inject({ url: '/c', cookies: { item: { value: 'v', path: '/c' }, other: { name: 'renamed', value: 'w', path: '/d' } } }))
})

test('remoteAddress, authority and a lower-case method', async () => {
  await same((app) => app.inject({ url: '/r', remoteAddress: '203.0.113.7' }))
  await same((app) => app.inject({ url: '/r', authority: 'api.example:4000' }))
  await same((app) => app.inject({ url: '/r', authority: 'api.example', headers: { host: 'wins.example' } }))
  await same((app) => app.inject({ url: 'http://from-url.example/r', authority: 'api.example' }))
  await same((app) => app.inject({ method: 'post', url: '/r', payload: 'x' }))
  await same((app) => app.inject({ method: 'head', url: '/json' }))
})

// ── the Response ─────────────────────────────────────────────────────

test('Response: json(), cookies, status message, a streamed body and its trailers', async () => {
  await same((app) => app.inject('/json'))
  await same((app) => app.inject('/cookies'))
  await same((app) => app.inject('/created'))
  await same((app) => app.inject('/stream'))
  await same((app) => app.inject('/nowhere-route/../missing?x'))
})

test('Response: raw.req and raw.res are the request and response objects', async () => {
  const seen = await Promise.all([fastify, hotpath].map(async ({ app }) => {
    const res = await app.inject({ method: 'POST', url: '/raw?x=1', payload: 'body' })
    return {
      req: { method: res.raw.req.method, url: res.raw.req.url, headers: res.raw.req.headers, readable: typeof res.raw.req.on },
      res: { statusCode: res.raw.res.statusCode, finished: res.raw.res.writableEnded, header: res.raw.res.getHeader('content-type') }
    }
  }))
  assert.deepEqual(seen[1], seen[0])
})

test('payloadAsStream: the body comes as stream(), payload and rawPayload are undefined', async () => {
  await same((app) => app.inject({ url: '/stream', payloadAsStream: true }))
  await same((app) => app.inject({ url: '/json', payloadAsStream: true }))
  await same((app) => app.inject({ method: 'HEAD', url: '/json', payloadAsStream: true }))
})

// ── simulate and signal ──────────────────────────────────────────────

test('simulate: split gives the body as two chunks, end: false on a request without a body', async () => {
  await same((app) => app.inject({ method: 'POST', url: '/s', payload: 'abcdef', headers: { 'content-type': 'application/x-chunks' }, simulate: { split: true } }))
  await same((app) => app.inject({ method: 'POST', url: '/s', payload: 'abcdef', headers: { 'content-type': 'application/x-chunks' } }))
  await same((app) => app.inject({ url: '/s', simulate: { end: false } }))
  await same((app) => app.inject({ method: 'POST', url: '/s', payload: 'abc', simulate: { end: true, split: false, error: false, close: false } }))
})

test('simulate: error and close while the body is read', async () => {
  const status = (/** @type {any} */ o) => ({ failed: 'error' in o, statusCode: o.response?.statusCode, seen: o.seen.length })
  await same((app) => app.inject({ method: 'POST', url: '/s', payload: 'abc', headers: { 'content-type': 'text/plain' }, simulate: { error: true } }), status)
  await same((app) => app.inject({ method: 'POST', url: '/s', payload: 'abc', headers: { 'content-type': 'application/x-chunks' }, simulate: { error: true } }), status)
  await same((app) => app.inject({ method: 'POST', url: '/s', payload: 'abc', headers: { 'content-type': 'text/plain' }, simulate: { close: true } }), status)
  await same((app) => app.inject({ url: '/s', simulate: { error: true } }), status)
})

test('signal: aborted before the call, and while the handler runs', async () => {
  // (an answer that does not wait on I/O can come before the abort is seen)
  await same((app) => app.inject({ url: '/later', signal: AbortSignal.abort() }), (o) => ({ error: o.error, response: o.response }))
  for (const side of [fastify, hotpath]) side.gate = newGate()
  const view = (/** @type {any} */ o) => ({ error: o.error, response: o.response, seen: o.seen.length })
  await same(async (app) => {
    const side = app === fastify.app ? fastify : hotpath
    const controller = new AbortController()
    const pending = app.inject({ url: '/hang', signal: controller.signal })
    await side.gate.reached
    controller.abort()
    try {
      return await pending
    } finally {
      side.gate.release()
    }
  }, view)
})

// ── the call's forms ─────────────────────────────────────────────────

test('chained: methods, headers, query, cookies, payload; end(), then, a callback', async () => {
  await same((app) => app.inject().post('/chain').headers({ 'x-a': '1' }).query({ q: 'v' }).cookies({ c: 'd' }).payload({ n: 1 }).end())
  await same((app) => app.inject().get('/chain').headers({ 'x-b': '2' }))
  await same((app) => app.inject().put('/chain').body('text'))
  await same((app) => app.inject({ url: '/chain', headers: { 'x-from': 'options' } }).headers({ 'x-later': 'chained' }))
  await same((app) => app.inject('/chain').query('z=1'))
  await same((app) => new Promise((resolve, reject) => app.inject().delete('/chain').end((/** @type {any} */ err, /** @type {any} */ res) => err ? reject(err) : resolve(res))))
  await same((app) => new Promise((resolve, reject) => app.inject({ url: '/cb' }, (/** @type {any} */ err, /** @type {any} */ res) => err ? reject(err) : resolve(res))))
  await same((app) => app.inject('/then').then((/** @type {any} */ res) => res))
})

test('chained: a change after the request was sent is refused with light-my-request\'s message', async () => {
  const messages = await Promise.all([fastify, hotpath].map(async ({ app }) => {
    const chain = app.inject().get('/late')
    await chain
    /** @type {string[]} */
    const out = []
    for (const change of [() => chain.headers({}), () => chain.end(), () => chain.get('/x')]) {
      try { change() } catch (err) { out.push(/** @type {Error} */ (err).message) }
    }
    return out
  }))
  assert.deepEqual(messages[1], messages[0])
})

test('errors: the options light-my-request refuses are refused, those its validator coerces are taken as it takes them', async () => {
  await same(async (app) => await app.inject({ method: 'NOT_A_METHOD', url: '/' }), failedOnly)
  await same(async (app) => await app.inject({ method: /** @type {any} */ (5), url: '/' }), failedOnly)
  await same(async (app) => await app.inject({ headers: {} }), failedOnly)
  await same(async (app) => await app.inject({ url: /** @type {any} */ (5) }), failedOnly)
  await same(async (app) => await app.inject({ url: { query: {} } }), failedOnly)
  await same(async (app) => await app.inject({ url: '/', headers: /** @type {any} */ ('x: y') }), failedOnly)
  await same(async (app) => await app.inject({ url: '/', query: /** @type {any} */ (5) }), failedOnly)
  await same(async (app) => await app.inject({ url: '/', simulate: { end: /** @type {any} */ ('no') } }), failedOnly)
  await same(async (app) => await app.inject({ url: '/', remoteAddress: /** @type {any} */ (1) }), failedOnly)
  await same(async (app) => await app.inject({ url: '/', authority: /** @type {any} */ (1) }), failedOnly)
  await same(async (app) => await app.inject({ url: '/', cookies: /** @type {any} */ ([{ name: 'a' }]) }), failedOnly)
  // validate: false lets them through
  await same(async (app) => await app.inject({ url: '/v', validate: false, simulate: { end: /** @type {any} */ ('no') } }))
})
