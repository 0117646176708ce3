// The engine contract (lib/engines/engine.js, docs/architecture.md): every
// engine, driven directly through the interface the core uses, with no app
// in between. node and wire are read over a raw socket, byte for byte;
// inject through its own client; h2 through node:http2's client, over
// cleartext (prior knowledge). A case that needs a socket (a client that
// stops reading, leaves, or sends half a head) runs on the socket engines.
// A case about HTTP/1.1 framing (the bytes between two responses on one
// connection, chunked coding, a head sent in parts) has no HTTP/2 form: h2
// runs the rest, and its own forms of leaving, backpressure and close().
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import http2 from 'node:http2'
import { once } from 'node:events'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { createEngine } from '../../lib/engines/index.js'
import { InjectEngine } from '../../lib/engines/inject/index.js'
import { exchange, responses } from '../wire/util.js'

/** @type {import('../../lib/engines/engine.js').EngineOptions} */
const OPTIONS = { headersTimeout: 500, requestTimeout: 1000, keepAliveTimeout: 5000, maxHeaderSize: 16 * 1024, closeGraceTimeout: 2000 }

const H = 'Host: x\r\n'

/**
 * What the test handler saw, by case, read after each response.
 * @type {Map<string, any[]>}
 */
const seen = new Map()
/** @param {string} key @param {any} value */
function note (key, value) {
  const list = seen.get(key) ?? []
  list.push(value)
  seen.set(key, list)
}

/** @param {() => boolean} cond */
async function waitFor (cond, ms = 3000) {
  for (let waited = 0; !cond() && waited < ms; waited += 10) await sleep(10)
  return cond()
}

/**
 * The handler every engine gets: one behaviour per path, each using only
 * the RawRequest and ResponseHandle members.
 * @param {any} raw
 * @param {any} res
 */
function handler (raw, res) {
  const path = raw.url.split('?')[0]
  switch (path) {
    case '/text':
      note('fields', { method: raw.method, url: raw.url, version: raw.httpVersion, host: raw.headers.host ?? raw.headers[':authority'], x: raw.headers['x-mixed-case'], address: typeof raw.socket.remoteAddress, hasBody: raw.hasBody })
      return res.respond(200, { 'content-type': 'text/plain' }, 'hello')
    case '/204':
      return res.respond(204, { 'x-kind': 'empty' }, null)
    case '/304':
      return res.respond(304, { etag: '"v1"' }, null)
    case '/echo':
      return raw.readBody(16, (/** @type {any} */ err, /** @type {Buffer} */ body) => {
        if (err) return res.respond(err.statusCode, { 'content-type': 'text/plain', connection: 'close' }, err.code)
        res.respond(200, { 'content-type': 'text/plain' }, 'got ' + body.toString())
      })
    case '/body-stream': {
      /** @type {Buffer[]} */
      const chunks = []
      const stream = raw.bodyStream()
      stream.on('data', (/** @type {Buffer} */ c) => chunks.push(c))
      stream.on('end', () => res.respond(200, {}, Buffer.concat(chunks)))
      return
    }
    case '/stream':
      return res.respondStream(200, { 'content-type': 'text/plain' }, Readable.from(['ab', 'cd', 'ef']), (/** @type {any} */ err) => note('stream', err))
    case '/stream-length':
      return res.respondStream(200, { 'content-length': 6 }, Readable.from(['ab', 'cd', 'ef']), (/** @type {any} */ err) => note('stream-length', err))
    case '/stream-fails-first': {
      const failing = new Readable({ read () { this.destroy(new Error('no data')) } })
      return res.respondStream(200, {}, failing, (/** @type {any} */ err) => {
        note('early', { message: err?.message, headersSent: res.headersSent })
        if (!res.headersSent) res.respond(500, { 'content-type': 'text/plain' }, 'answered instead')
      })
    }
    case '/bad-header':
      try {
        res.respond(200, { 'x-split': 'a\r\nb' }, 'never')
      } catch (err) {
        note('refused', { code: /** @type {any} */ (err).code, headersSent: res.headersSent })
        res.respond(500, { 'content-type': 'text/plain' }, 'refused')
      }
      return
    case '/on-end': {
      const arg = { id: raw.headers['x-id'] }
      res.onEnd((/** @type {any} */ got, /** @type {any} */ err) => note('end', { same: got === arg, err: err === null ? null : 'error' }), arg)
      return res.respond(200, {}, 'ended')
    }
    case '/never':
      // answered only by the client leaving (or close()'s grace timer)
      res.onEnd((/** @type {any} */ _arg, /** @type {any} */ err) => note('never', err === null ? null : 'error'), null)
      return
    case '/slow':
      setTimeout(() => res.respond(200, {}, 'slow done'), 300)
      return
    case '/big-stream': {
      let produced = 0
      const source = new Readable({
        read () {
          produced += 64 * 1024
          note('produced', produced)
          this.push(produced > 64 * 1024 * 1024 ? null : Buffer.alloc(64 * 1024, 97))
        }
      })
      return res.respondStream(200, {}, source, (/** @type {any} */ err) => note('big', err === null ? null : 'error'))
    }
    default:
      res.respond(404, {}, 'none')
  }
}

/**
 * One HTTP/2 request on a session of its own, as the socket engines' client
 * opens a connection per request.
 * @param {number} port
 * @param {{ method?: string, url: string, headers?: Record<string, string>, payload?: string }} opts
 */
async function h2Request (port, opts) {
  const session = http2.connect(`http://127.0.0.1:${port}`)
  session.on('error', () => {})
  try {
    const stream = session.request({ ':method': opts.method ?? 'GET', ':path': opts.url, ':authority': 'x', ...opts.headers }, { endStream: opts.payload === undefined })
    if (opts.payload !== undefined) stream.end(opts.payload)
    const [head] = await once(stream, 'response')
    /** @type {Buffer[]} */
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    await once(stream, 'close')
    /** @type {Record<string, string>} */
    const headers = {}
    for (const [k, v] of Object.entries(head)) if (!k.startsWith(':')) headers[k] = String(v)
    return { status: Number(head[':status']), headers, body: Buffer.concat(chunks).toString('latin1'), rstCode: stream.rstCode }
  } finally {
    session.close()
  }
}

/**
 * An engine behind one client, the same shape for all four.
 * @param {'node' | 'wire' | 'inject' | 'h2'} name
 */
async function start (name) {
  if (name === 'inject') {
    const engine = new InjectEngine()
    engine.setHandler(handler)
    return {
      engine,
      port: 0,
      /** @param {{ method?: string, url: string, headers?: Record<string, string>, payload?: string }} opts */
      async request (opts) {
        const r = await engine.request(opts)
        return { status: r.statusCode, headers: r.headers, body: r.body }
      }
    }
  }
  const engine = createEngine(name, OPTIONS)
  engine.setHandler(handler)
  const { port } = /** @type {import('node:net').AddressInfo} */ (await engine.listen({ port: 0, host: '127.0.0.1' }))
  if (name === 'h2') {
    return {
      engine,
      port,
      /** @param {{ method?: string, url: string, headers?: Record<string, string>, payload?: string }} opts */
      request: (opts) => h2Request(port, opts)
    }
  }
  return {
    engine,
    port,
    /** @param {{ method?: string, url: string, headers?: Record<string, string>, payload?: string }} opts */
    async request (opts) {
      const body = opts.payload ?? ''
      const lines = Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('')
      const length = opts.payload === undefined ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`
      const { text } = await exchange(port, `${opts.method ?? 'GET'} ${opts.url} HTTP/1.1\r\n${H}${lines}${length}Connection: close\r\n\r\n${body}`)
      const r = responses(text)[0]
      /** @type {Record<string, string>} */
      const headers = {}
      for (const line of r.head.split('\r\n').slice(1)) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      return { status: r.status, headers, body: r.body, head: r.head }
    }
  }
}

for (const name of /** @type {const} */ (['node', 'wire', 'inject', 'h2'])) {
  describe(`engine contract [${name}]`, () => {
    /** @type {Awaited<ReturnType<typeof start>>} */
    let s
    before(async () => { s = await start(name) })
    after(() => s.engine.close())
    const onSocket = name !== 'inject'
    const h1 = name === 'node' || name === 'wire'

    test('respond(): status, headers, body and a Content-Length; the request fields', async () => {
      seen.delete('fields')
      const r = await s.request({ url: '/text?q=1', headers: { 'X-Mixed-Case': 'yes' } })
      assert.equal(r.status, 200)
      assert.equal(r.body, 'hello')
      assert.equal(r.headers['content-type'], 'text/plain')
      assert.equal(r.headers['content-length'], '5')
      assert.deepEqual(seen.get('fields'), [{ method: 'GET', url: '/text?q=1', version: name === 'h2' ? '2.0' : '1.1', host: name === 'inject' ? 'localhost:80' : 'x', x: 'yes', address: 'string', hasBody: false }])
      if (h1) assert.match(/** @type {any} */ (r).head, /\r\ndate: /i)
      if (name === 'h2') assert.ok(r.headers.date)
    })

    test('HEAD: the head of the GET answer, with its length, and no body', async () => {
      if (!h1) {
        const r = await s.request({ method: 'HEAD', url: '/text' })
        assert.equal(r.status, 200)
        assert.equal(r.body, '')
        if (name === 'h2') assert.equal(r.headers['content-length'], '5')
        return
      }
      // a GET after the HEAD on the same connection: its status line must
      // follow the HEAD's blank line at once, with no body between
      const { text } = await exchange(s.port, `HEAD /text HTTP/1.1\r\n${H}\r\nGET /text HTTP/1.1\r\n${H}Connection: close\r\n\r\n`)
      const m = /^(HTTP\/1\.1 200 [^]*?\r\n\r\n)(HTTP\/1\.1 200 [^]*?\r\n\r\n)hello$/.exec(text)
      assert.ok(m, text)
      assert.match(m[1], /\r\ncontent-length: 5\r\n/i)
    })

    test('204 and 304 have no body; 204 no Content-Length', async () => {
      const r204 = await s.request({ url: '/204' })
      assert.equal(r204.status, 204)
      assert.equal(r204.body, '')
      assert.equal(r204.headers['x-kind'], 'empty')
      assert.equal(r204.headers['content-length'], undefined)
      const r304 = await s.request({ url: '/304' })
      assert.equal(r304.status, 304)
      assert.equal(r304.body, '')
      assert.equal(r304.headers.etag, '"v1"')
      if (h1) {
        const { text } = await exchange(s.port, `GET /204 HTTP/1.1\r\n${H}\r\nGET /text HTTP/1.1\r\n${H}Connection: close\r\n\r\n`)
        assert.match(text, /^HTTP\/1\.1 204 [^]*?\r\n\r\nHTTP\/1\.1 200 [^]*?\r\n\r\nhello$/)
      }
    })

    test('readBody(): the body within the limit; past it, a 413 error with the code of the table', async () => {
      const ok = await s.request({ method: 'POST', url: '/echo', payload: 'small' })
      assert.equal(ok.body, 'got small')
      const big = await s.request({ method: 'POST', url: '/echo', payload: 'x'.repeat(100) })
      assert.equal(big.status, 413)
      assert.equal(big.body, 'HP_ERR_BODY_TOO_LARGE')
    })

    test('bodyStream(): the body as a Readable', async () => {
      const r = await s.request({ method: 'POST', url: '/body-stream', payload: 'streamed body' })
      assert.equal(r.body, 'streamed body')
    })

    test('respondStream(): chunked without a length, framed by Content-Length with one; done(null)', async () => {
      seen.delete('stream')
      seen.delete('stream-length')
      const r = await s.request({ url: '/stream' })
      assert.equal(r.body, 'abcdef')
      // HTTP/2 has no chunked coding (RFC 9113 §8.2.2): DATA frames end with END_STREAM
      if (h1) assert.equal(r.headers['transfer-encoding'], 'chunked')
      const l = await s.request({ url: '/stream-length' })
      assert.equal(l.body, 'abcdef')
      assert.equal(l.headers['content-length'], '6')
      assert.equal(l.headers['transfer-encoding'], undefined)
      assert.deepEqual(seen.get('stream'), [null])
      assert.deepEqual(seen.get('stream-length'), [null])
    })

    test('respondStream(): a stream that fails before its first byte leaves the head unsent, so another answer can go', async () => {
      seen.delete('early')
      const r = await s.request({ url: '/stream-fails-first' })
      assert.equal(r.status, 500)
      assert.equal(r.body, 'answered instead')
      assert.deepEqual(seen.get('early'), [{ message: 'no data', headersSent: false }])
    })

    test('respond() refuses a header with CR/LF: it throws, nothing is written, another answer can go', async () => {
      seen.delete('refused')
      const r = await s.request({ url: '/bad-header' })
      assert.equal(r.status, 500)
      assert.equal(r.body, 'refused')
      assert.deepEqual(seen.get('refused'), [{ code: 'ERR_INVALID_CHAR', headersSent: false }])
    })

    test('onEnd(): told once, with the argument it was given, after the response', async () => {
      seen.delete('end')
      await s.request({ url: '/on-end', headers: { 'x-id': '1' } })
      assert.ok(await waitFor(() => seen.get('end')?.length === 1))
      await sleep(20)
      assert.deepEqual(seen.get('end'), [{ same: true, err: null }])
    })

    if (name === 'h2') return h2Cases(() => s)
    if (!onSocket) return

    test('a client that leaves before the answer: onEnd reports an error, once', async () => {
      seen.delete('never')
      const socket = net.connect(s.port, '127.0.0.1')
      socket.on('error', () => {})
      await once(socket, 'connect')
      socket.write(`GET /never HTTP/1.1\r\n${H}\r\n`)
      await sleep(100)
      socket.destroy()
      assert.ok(await waitFor(() => seen.get('never')?.length === 1))
      await sleep(50)
      assert.deepEqual(seen.get('never'), ['error'])
    })

    test('a client that does not read a large stream: the source stops being read (backpressure)', async () => {
      seen.delete('produced')
      seen.delete('big')
      const socket = net.connect(s.port, '127.0.0.1')
      socket.on('error', () => {})
      await once(socket, 'connect')
      socket.pause()
      socket.write(`GET /big-stream HTTP/1.1\r\n${H}\r\n`)
      await sleep(500)
      const produced = Math.max(...(seen.get('produced') ?? [0]))
      // 64 MiB would flow without backpressure; the socket buffers and the
      // stream's high-water marks hold a few MiB at most
      assert.ok(produced > 0 && produced < 16 * 1024 * 1024, `produced ${produced} bytes`)
      socket.destroy()
      assert.ok(await waitFor(() => seen.get('big')?.length === 1), 'the stream is ended when the client goes')
      assert.deepEqual(seen.get('big'), ['error'])
    })

    test('a keep-alive connection that waited idle answers what comes next: a head in two parts, a body, two pipelined requests', async () => {
      const socket = net.connect(s.port, '127.0.0.1')
      socket.on('error', () => {})
      await once(socket, 'connect')
      let text = ''
      socket.on('data', (d) => { text += d.toString('latin1') })
      const answered = (/** @type {number} */ n) => waitFor(() => responses(text).length >= n)
      socket.write(`GET /text HTTP/1.1\r\n${H}\r\n`)
      assert.ok(await answered(1))
      // idle for a few ticks of wire's shared timer (it lets go of what only
      // a request needs); the next request must not notice
      await sleep(800)
      socket.write(`POST /echo HTTP/1.1\r\nHo`)
      await sleep(50)
      socket.write(`st: x\r\nContent-Length: 4\r\n\r\nidle`)
      assert.ok(await answered(2))
      await sleep(800)
      socket.write(`GET /204 HTTP/1.1\r\n${H}\r\nGET /text HTTP/1.1\r\n${H}Connection: close\r\n\r\n`)
      assert.ok(await answered(4))
      assert.deepEqual(responses(text).map((r) => [r.status, r.body]), [[200, 'hello'], [200, 'got idle'], [204, ''], [200, 'hello']])
      socket.destroy()
    })

    test('half a head and silence: 408 with the code of the table, and the connection closes', async () => {
      const { text, closedByServer } = await exchange(s.port, `GET /text HTTP/1.1\r\n${H}`, { ms: 4000 })
      assert.ok(closedByServer)
      const r = responses(text)[0]
      assert.equal(r.status, 408)
      assert.equal(JSON.parse(r.body).code, 'HP_ERR_REQUEST_TIMEOUT')
    })

    test('close(): a request on a connection that just answered gets 503 + Connection: close; the one in flight is answered with keep-alive, as on node:http, and its connection closed once idle; close() resolves', async () => {
      const idle = net.connect(s.port, '127.0.0.1')
      idle.on('error', () => {})
      await once(idle, 'connect')
      /** @type {Buffer[]} */
      const idleGot = []
      idle.on('data', (d) => idleGot.push(d))
      idle.write(`GET /text HTTP/1.1\r\n${H}\r\n`)
      assert.ok(await waitFor(() => Buffer.concat(idleGot).toString('latin1').endsWith('hello')))
      const busy = net.connect(s.port, '127.0.0.1')
      busy.on('error', () => {})
      await once(busy, 'connect')
      /** @type {Buffer[]} */
      const busyGot = []
      busy.on('data', (d) => busyGot.push(d))
      busy.write(`GET /slow HTTP/1.1\r\n${H}\r\n`)
      await sleep(50)
      const closed = s.engine.close()
      // the client's next request was already on its way
      idle.write(`GET /text HTTP/1.1\r\n${H}\r\n`)
      await Promise.all([once(idle, 'close'), once(busy, 'close')])
      await closed
      const late = responses(Buffer.concat(idleGot).toString('latin1'))
      assert.deepEqual(late.map((r) => r.status), [200, 503])
      assert.match(late[1].head, /\r\nconnection: close(\r\n|$)/i)
      assert.equal(JSON.parse(late[1].body).code, 'HP_ERR_SERVER_CLOSING')
      const inFlight = responses(Buffer.concat(busyGot).toString('latin1'))
      assert.deepEqual(inFlight.map((r) => r.status), [200])
      assert.equal(inFlight[0].body, 'slow done')
      assert.match(inFlight[0].head, /\r\nconnection: keep-alive(\r\n|$)/i)
      await assert.rejects(new Promise((resolve, reject) => {
        const c = net.connect(s.port, '127.0.0.1')
        c.on('connect', () => { c.destroy(); resolve(undefined) })
        c.on('error', reject)
      }), 'new connections are refused')
    })
  })
}

for (const name of /** @type {const} */ (['node', 'wire', 'h2'])) {
  test(`engine contract [${name}]: listen() with no host binds 'localhost' only, as Fastify does`, async () => {
    const engine = createEngine(name, OPTIONS)
    engine.setHandler(handler)
    const address = await engine.listen({ port: 0 })
    try {
      assert.ok(['127.0.0.1', '::1'].includes(address.address), `bound to ${address.address}`)
    } finally {
      await engine.close()
    }
  })
}

/**
 * A session to an h2 engine and a request on it; the body is collected.
 * @param {http2.ClientHttp2Session} session
 * @param {string} path
 * @param {{ method?: string, payload?: string }} [opts]
 */
function h2Stream (session, path, opts = {}) {
  const stream = session.request({ ':method': opts.method ?? 'GET', ':path': path, ':authority': 'x' }, { endStream: opts.payload === undefined })
  if (opts.payload !== undefined) stream.end(opts.payload)
  stream.on('error', () => {})
  /** @type {Buffer[]} */
  const chunks = []
  stream.on('data', (c) => chunks.push(c))
  const done = new Promise((resolve) => {
    /** @type {any} */
    let head = null
    stream.on('response', (h) => { head = h })
    stream.on('close', () => resolve({ status: head === null ? null : Number(head[':status']), body: Buffer.concat(chunks).toString('latin1'), rstCode: stream.rstCode }))
  })
  return { stream, done: /** @type {Promise<{ status: number | null, body: string, rstCode: number | undefined }>} */ (done) }
}

/**
 * The cases of the socket engines in HTTP/2's terms: a stream reset
 * (RST_STREAM) where an HTTP/1.1 client closes its socket, flow control
 * where it stops reading, GOAWAY where close() ends connections. No
 * "half a head": an HTTP/2 head is one HEADERS block, parsed whole or
 * refused by the session.
 * @param {() => { engine: import('../../lib/engines/engine.js').Engine, port: number }} get
 */
function h2Cases (get) {
  /** @param {number} port */
  const connect = async (port) => {
    const session = http2.connect(`http://127.0.0.1:${port}`)
    session.on('error', () => {})
    await once(session, 'connect')
    return session
  }

  test('a body past the limit: 413, then the stream is reset with NO_ERROR and the session serves the next request', async () => {
    const session = await connect(get().port)
    try {
      const big = h2Stream(session, '/echo', { method: 'POST', payload: 'x'.repeat(100) })
      const r = await big.done
      assert.equal(r.status, 413)
      assert.equal(r.body, 'HP_ERR_BODY_TOO_LARGE')
      const next = await h2Stream(session, '/text').done
      assert.equal(next.status, 200)
      assert.equal(next.body, 'hello')
    } finally {
      session.close()
    }
  })

  test('a stream the client resets before the answer: onEnd reports an error, once; the session goes on', async () => {
    seen.delete('never')
    const session = await connect(get().port)
    try {
      const { stream } = h2Stream(session, '/never')
      await sleep(100)
      stream.close(http2.constants.NGHTTP2_CANCEL)
      assert.ok(await waitFor(() => seen.get('never')?.length === 1))
      await sleep(50)
      assert.deepEqual(seen.get('never'), ['error'])
      assert.equal((await h2Stream(session, '/text').done).body, 'hello')
    } finally {
      session.close()
    }
  })

  test('a client that does not read a large stream: flow control stops the source being read', async () => {
    seen.delete('produced')
    seen.delete('big')
    const session = await connect(get().port)
    const { stream } = h2Stream(session, '/big-stream')
    stream.removeAllListeners('data')
    stream.pause()
    await once(stream, 'response')
    await sleep(500)
    const produced = Math.max(...(seen.get('produced') ?? [0]))
    assert.ok(produced > 0 && produced < 16 * 1024 * 1024, `produced ${produced} bytes`)
    session.destroy()
    assert.ok(await waitFor(() => seen.get('big')?.length === 1), 'the stream is ended when the client goes')
    assert.deepEqual(seen.get('big'), ['error'])
  })

  test('half a head and silence: 408', { skip: 'no HTTP/2 form: a head is one HEADERS block (with its CONTINUATIONs), taken whole by the session; a body that stops is the core\'s request timeout' }, () => {})

  // node:http2 reads nothing more from a session with no open stream once
  // it has sent a GOAWAY: an idle session gets the one GOAWAY with its real
  // last stream id at once (a request the client sent past it is safe to
  // retry, RFC 9113 §8.7), where a round trip's wait would take nothing and
  // held close() a second; a busy one gets the highest id first, so what
  // its client sent before reading it is still taken (§6.8)
  test('close(): GOAWAY to every session (an idle one with its last stream id, a busy one with the highest first), the stream in flight is answered, idle sessions end, close() resolves, new connections are refused', async () => {
    const { engine, port } = get()
    const idle = await connect(port)
    assert.equal((await h2Stream(idle, '/text').done).body, 'hello')
    const busy = await connect(port)
    const slow = h2Stream(busy, '/slow')
    await sleep(50)
    const goaways = [once(idle, 'goaway'), once(busy, 'goaway')]
    const ended = [once(idle, 'close'), once(busy, 'close')]
    const closed = engine.close()
    const [[idleCode, idleLastId], [busyCode, busyLastId]] = await Promise.all(goaways)
    assert.deepEqual([idleCode, idleLastId], [0, 1], 'the idle session: NO_ERROR, its one stream the last')
    assert.deepEqual([busyCode, busyLastId], [0, 2 ** 31 - 1], 'the busy session: NO_ERROR, the highest id first')
    const r = await slow.done
    assert.equal(r.status, 200)
    assert.equal(r.body, 'slow done')
    await Promise.all(ended)
    await closed
    await assert.rejects(new Promise((resolve, reject) => {
      const c = net.connect(port, '127.0.0.1')
      c.on('connect', () => { c.destroy(); resolve(undefined) })
      c.on('error', reject)
    }), 'new connections are refused')
  })

  // A request the client sent on an idle session just as close() began:
  // without drain it is refused (REFUSED_STREAM, past the GOAWAY's last
  // id: safe to retry, RFC 9113 §8.7); under drain it is served, the
  // GOAWAY (the highest id first) going out once it came, while its stream
  // is open (node reads nothing more from a session with none after one)
  for (const drain of [false, true]) {
    test(`close()${drain ? ' with drain' : ''}: a request sent on an idle session as close() begins is ${drain ? 'served' : 'refused, safe to retry'}`, async () => {
      const engine = createEngine('h2', { ...OPTIONS, drain })
      engine.setHandler(handler)
      const { port } = await engine.listen({ port: 0, host: '127.0.0.1' })
      const session = await connect(port)
      try {
        assert.equal((await h2Stream(session, '/text').done).body, 'hello')
        const goaway = once(session, 'goaway')
        // queued on the client's socket in this turn; the server reads it after close() began
        const late = h2Stream(session, '/text')
        const closed = engine.close()
        const r = await late.done
        if (drain) {
          assert.deepEqual([r.status, r.body], [200, 'hello'])
        } else {
          assert.equal(r.status, null)
          assert.equal(r.rstCode, http2.constants.NGHTTP2_REFUSED_STREAM)
        }
        const [code, lastId] = await goaway
        assert.deepEqual([code, lastId], [0, drain ? 2 ** 31 - 1 : 1], drain ? 'the GOAWAY of a graceful shutdown first' : 'one GOAWAY, NO_ERROR, with the last stream the server took')
        await closed
      } finally {
        session.destroy()
      }
    })
  }
}
