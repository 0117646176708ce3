// req.raw and reply.raw are node:http's request and response on every
// engine and under inject: a Readable request, a Writable response that can
// be piped into and written in parts, the ServerResponse header API, the
// members Express adds, and hijack() leaving the answer to reply.raw.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable, Stream } from 'node:stream'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'

/**
 * The raw bytes of a response as a client receives them, with the head's
 * lines (to count a field) and the times the body's parts arrived.
 * @param {Awaited<ReturnType<typeof setup>>} s
 * @param {{ method?: string, url: string, headers?: Record<string, string>, payload?: string }} o
 */
async function fetchRaw (s, o) {
  if (s.mode === 'inject') {
    const r = await s.app.inject(o)
    return { statusCode: r.statusCode, headers: r.headers, rawHeaders: Object.entries(r.headers).flatMap(([k, v]) => [v].flat().map((x) => [k, x])).flat(), body: r.body, parts: 1 }
  }
  if (s.h2 !== null) {
    const r = await s.h2.request(o)
    return { statusCode: r.statusCode, headers: r.headers, rawHeaders: Object.entries(r.headers).flatMap(([k, v]) => [v].flat().map((x) => [k, x])).flat(), body: r.body, parts: r.parts }
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: s.port, method: o.method ?? 'GET', path: o.url, headers: o.headers, agent: false }, (res) => {
      /** @type {Buffer[]} */
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ statusCode: /** @type {number} */ (res.statusCode), headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks).toString(), parts: chunks.length }))
    })
    req.on('error', reject)
    req.end(o.payload)
  })
}

eachMode('req.raw and reply.raw', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const seen = []
  /** @type {any[]} */
  const lines = []
  /** @type {boolean[]} what /parts saw as headersSent after its first write() */
  const partsHeadersSent = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/types', (req, reply) => {
        seen.push({
          readable: req.raw instanceof Readable,
          // node:http's ServerResponse is a (legacy) Stream, not a Writable
          writable: reply.raw instanceof Stream && typeof reply.raw.write === 'function',
          same: reply.raw.req === req.raw,
          method: req.raw.method,
          url: req.raw.url,
          httpVersion: req.raw.httpVersion,
          major: req.raw.httpVersionMajor,
          host: req.raw.headers.host,
          rawHeaders: req.raw.rawHeaders.length > 0,
          address: typeof req.raw.socket.remoteAddress,
          ip: /** @type {any} */ (req.raw).ip,
          path: /** @type {any} */ (req.raw).path,
          get: /** @type {any} */ (req.raw).get('X-Thing')
        })
        return { ok: true }
      })
      app.get('/pipe', (req, reply) => {
        reply.raw.setHeader('content-type', 'text/plain')
        Readable.from(['one ', 'two ', 'three']).pipe(reply.raw)
        return reply
      })
      app.get('/parts', (req, reply) => {
        const res = reply.raw
        res.statusCode = 201
        res.setHeader('x-a', '1')
        res.appendHeader('x-a', '2')
        res.write('first ')
        partsHeadersSent.push(res.headersSent)
        setTimeout(() => res.end('last'), 20)
        return reply
      })
      app.get('/same-turn', (req, reply) => {
        reply.raw.write('in ')
        reply.raw.write('one ')
        reply.raw.end('turn')
        return reply
      })
      app.get('/once', (req, reply) => {
        reply.raw.writeHead(202, { 'content-type': 'text/plain', 'x-b': 'b' })
        reply.raw.end('whole', () => seen.push('end callback'))
        return reply
      })
      app.get('/header-api', (req, reply) => {
        const res = reply.raw
        res.setHeader('X-Up', ['a', 'b'])
        const names = res.getHeaderNames()
        const has = res.hasHeader('x-up')
        res.removeHeader('x-up')
        reply.header('x-names', names.join(',')).header('x-had', String(has)).header('x-left', String(res.hasHeader('x-up')))
        return 'ok'
      })
      app.get('/raw-header', (req, reply) => {
        reply.raw.setHeader('x-raw', 'from raw')
        reply.raw.setHeader('x-both', 'raw loses')
        reply.header('x-both', 'reply wins')
        return { seen: reply.getHeader('x-raw'), all: reply.getHeaders()['x-raw'], has: reply.hasHeader('x-raw') }
      })
      app.get('/late-write', (req, reply) => {
        reply.raw.end('done')
        reply.raw.write('too late')
        return reply
      })
      app.get('/listener-throws', (req, reply) => {
        reply.raw.on('finish', () => { throw new Error('from a finish listener') })
        reply.raw.end('answered')
        return reply
      })
      app.post('/body-after-parse', async (req) => {
        // the route's parser read the body: the stream has ended for a late reader
        const chunks = []
        for await (const c of req.raw) chunks.push(c)
        return { parsed: req.body, late: Buffer.concat(chunks).length }
      })
      app.get('/express', (req, reply) => {
        const res = /** @type {any} */ (reply.raw)
        res.status(418).set('x-c', 'c').json({ teapot: true })
        return reply
      })
      app.get('/redirect', (req, reply) => {
        /** @type {any} */ (reply.raw).redirect(301, '/elsewhere')
        return reply
      })
      app.get('/hijack', (req, reply) => {
        reply.hijack()
        setTimeout(() => reply.raw.end('written after hijack'), 5)
      })
      app.head('/pipe-head', (req, reply) => {
        Readable.from(['not ', 'sent']).pipe(reply.raw)
        return reply
      })
    }, { logger: { level: 'error', stream: { write: (/** @type {string} */ l) => { lines.push(JSON.parse(l)) } } } })
  })
  after(() => s.close())

  test('they are a Readable and a Writable with the IncomingMessage fields code reads', async () => {
    seen.length = 0
    const res = await fetchRaw(s, { url: '/types?q=1', headers: { host: 'example.com', 'x-thing': 'yes' } })
    assert.equal(res.statusCode, 200)
    // on h2, req.raw is node:http2's Http2ServerRequest: version 2.0, and the
    // authority in :authority, with no Host field (RFC 9113 §8.3.1)
    const h2 = mode === 'h2'
    assert.deepEqual(seen, [{
      readable: true,
      writable: true,
      same: true,
      method: 'GET',
      url: '/types?q=1',
      httpVersion: h2 ? '2.0' : '1.1',
      major: h2 ? 2 : 1,
      host: h2 ? undefined : 'example.com',
      rawHeaders: true,
      address: 'string',
      ip: '127.0.0.1',
      path: '/types',
      get: 'yes'
    }])
  })

  test('a stream piped into reply.raw is the response body', async () => {
    const res = await fetchRaw(s, { url: '/pipe' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'text/plain')
    assert.equal(res.body, 'one two three')
  })

  test('write() then end() later: streamed, with the status and headers set before the first write', async () => {
    const res = await fetchRaw(s, { url: '/parts' })
    assert.equal(res.statusCode, 201)
    assert.deepEqual(partsHeadersSent, [true], 'headersSent is true once write() has run')
    assert.equal(res.body, 'first last')
    assert.match(String(res.headers['x-a']), /^1, ?2$|^1,2$/)
    if (mode !== 'inject') {
      // HTTP/2 frames the body itself: no Transfer-Encoding (RFC 9113 §8.2.2)
      assert.equal(res.headers['transfer-encoding'], mode === 'h2' ? undefined : 'chunked')
      assert.ok(res.parts >= 2, 'the first part went out before the end')
    }
  })

  test('writeHead() and one end(): the body chunked, as node:http frames it after a head without a length; the end callback runs', async () => {
    seen.length = 0
    const res = await fetchRaw(s, { url: '/once' })
    assert.equal(res.statusCode, 202)
    assert.equal(res.headers['x-b'], 'b')
    // node:http2's response ends the stream, which needs no framing
    // (RFC 9113 §8.1.1)
    if (mode !== 'h2') {
      assert.equal(res.headers['transfer-encoding'], 'chunked')
      assert.equal(res.headers['content-length'], undefined)
    }
    assert.equal(res.body, 'whole')
    for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    assert.deepEqual(seen, ['end callback'])
  })

  test('parts written and ended in the same turn: chunked, as node:http frames a body written before end()', async () => {
    const res = await fetchRaw(s, { url: '/same-turn' })
    assert.equal(res.body, 'in one turn')
    if (mode !== 'h2') assert.equal(res.headers['transfer-encoding'], 'chunked')
  })

  test('the header API of ServerResponse, and headers set there are the reply\'s', async () => {
    const res = await fetchRaw(s, { url: '/header-api' })
    assert.equal(res.headers['x-names'], 'x-up')
    assert.equal(res.headers['x-had'], 'true')
    assert.equal(res.headers['x-left'], 'false')
  })

  test('a header set on reply.raw by the route is the reply\'s: getHeader() sees it, it is sent once, the reply\'s own wins', async () => {
    const res = await fetchRaw(s, { url: '/raw-header' })
    assert.deepEqual(JSON.parse(res.body), { seen: 'from raw', all: 'from raw', has: true })
    assert.equal(res.headers['x-raw'], 'from raw')
    assert.equal(res.headers['x-both'], 'reply wins')
    const names = []
    for (let i = 0; i < res.rawHeaders.length; i += 2) names.push(String(res.rawHeaders[i]).toLowerCase())
    assert.equal(names.filter((n) => n === 'x-raw').length, 1)
    assert.equal(names.filter((n) => n === 'x-both').length, 1)
  })

  test('a write after end() and a throwing listener are logged; the answer stands and the server stays up', { skip: (mode === 'node' && 'node:http emits the events itself') || (mode === 'h2' && 'node:http2 emits the events itself') }, async () => {
    lines.length = 0
    const late = await fetchRaw(s, { url: '/late-write' })
    assert.equal(late.body, 'done')
    const threw = await fetchRaw(s, { url: '/listener-throws' })
    assert.equal(threw.body, 'answered')
    for (let i = 0; i < 50 && lines.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    assert.deepEqual(lines.map((l) => l.err?.code ?? l.err?.message).sort(), ['ERR_STREAM_WRITE_AFTER_END', 'from a finish listener'])
    assert.equal((await fetchRaw(s, { url: '/once' })).statusCode, 202)
  })

  test('after the route\'s parser read the body, req.raw has ended for a late reader', async () => {
    const res = await fetchRaw(s, { method: 'POST', url: '/body-after-parse', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(JSON.parse(res.body), { parsed: { a: 1 }, late: 0 })
  })

  test('Express\'s res.status().set().json() and res.redirect()', async () => {
    const res = await fetchRaw(s, { url: '/express' })
    assert.equal(res.statusCode, 418)
    assert.equal(res.headers['x-c'], 'c')
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.deepEqual(JSON.parse(res.body), { teapot: true })
    const moved = await fetchRaw(s, { url: '/redirect' })
    assert.equal(moved.statusCode, 301)
    assert.equal(moved.headers.location, '/elsewhere')
  })

  test('hijack(): hotpath stops, reply.raw answers', async () => {
    const res = await fetchRaw(s, { url: '/hijack' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'written after hijack')
  })

  test('HEAD: a stream piped into reply.raw sends no body, and the connection goes on', async () => {
    const res = await fetchRaw(s, { method: 'HEAD', url: '/pipe-head' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, '')
    assert.equal((await fetchRaw(s, { url: '/pipe' })).body, 'one two three')
  })
})

// Off h2: the body and the answer interleave on one HTTP/1.1 connection,
// written by hand.
eachMode('a body read as a stream while the answer streams back (full duplex)', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      // the route reads the body itself, from req.raw
      app.addContentTypeParser('application/x-duplex', { parseAs: 'stream' }, () => undefined)
      // echoes each part as it arrives: the answer starts before the body ends
      app.post('/echo', (req, reply) => {
        req.raw.on('data', (/** @type {Buffer} */ c) => reply.raw.write(c))
        req.raw.on('end', () => reply.raw.end())
        return reply
      })
    })
  })
  after(() => s.close())

  test('the last part of the body, sent after the answer began, still reaches its reader', { timeout: 10_000 }, async () => {
    const body = await new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: s.port, method: 'POST', path: '/echo', headers: { 'content-type': 'application/x-duplex', 'content-length': '10' }, agent: false }, (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
          // the second part goes once the first came back: the response is
          // under way, the body not yet complete
          if (text === 'first') req.end('-last')
        })
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.write('first')
    })
    assert.equal(body, 'first-last')
  })
}, SOCKET_MODES)
