// hotpath({ http2: true }) and hotpath/fastify's fastify({ http2: true }):
// the h2 engine behind a whole app, read with node:http2's client (and curl
// when it speaks HTTP/2), over cleartext and over TLS with ALPN.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http2 from 'node:http2'
import https from 'node:https'
import { once } from 'node:events'
import net from 'node:net'
import { execFileSync, execFile } from 'node:child_process'
import { selfSigned } from '../helpers/tls.js'
import hotpath from '../../lib/index.js'
import fastify from 'hotpath/fastify'

const tls = selfSigned()

let curlH2 = false
try { curlH2 = /HTTP2/.test(execFileSync('curl', ['--version'], { encoding: 'utf8' })) } catch {}

/**
 * One request on a session; resolves with status, headers, body.
 * @param {http2.ClientHttp2Session} session
 * @param {Record<string, any>} headers
 * @param {string} [body]
 */
async function ask (session, headers, body) {
  const stream = session.request(headers, { endStream: body === undefined })
  if (body !== undefined) stream.end(body)
  /** @type {Buffer[]} */
  const chunks = []
  stream.on('data', (c) => chunks.push(c))
  // a head that ends the stream (no body) emits 'end' in the same turn as 'response'
  const ended = once(stream, 'end')
  const [head] = await once(stream, 'response')
  await ended
  return { status: Number(head[':status']), headers: head, body: Buffer.concat(chunks).toString() }
}

test('hotpath({ http2: true }) serves h2c: hostname from :authority, req.raw is node\'s Http2ServerRequest, bodies parsed', async () => {
  const app = hotpath({ http2: true })
  app.get('/', (req) => ({ hostname: req.hostname, version: req.raw.httpVersion, raw: req.raw instanceof http2.Http2ServerRequest }))
  app.post('/echo', (req) => req.body)
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  try {
    const r = await ask(session, { ':path': '/', ':authority': 'example.test:8080' })
    assert.equal(r.status, 200)
    assert.deepEqual(JSON.parse(r.body), { hostname: 'example.test', version: '2.0', raw: true })
    const e = await ask(session, { ':path': '/echo', ':method': 'POST', 'content-type': 'application/json' }, '{"a":1}')
    assert.deepEqual(JSON.parse(e.body), { a: 1 })
  } finally {
    session.close()
    await app.close()
  }
})

test('connection-specific fields a handler or middleware sets are dropped on HTTP/2, never thrown', async () => {
  const app = hotpath({ http2: true })
  app.get('/reply', (_req, reply) => {
    reply.header('Connection', 'keep-alive').header('Keep-Alive', 'timeout=5').header('Upgrade', 'h2c').header('Proxy-Connection', 'x').header('x-kept', '1')
    return 'ok'
  })
  app.get('/raw', (_req, reply) => {
    reply.raw.setHeader('Connection', 'close')
    reply.raw.setHeader('Transfer-Encoding', 'chunked')
    reply.raw.writeHead(200, { 'Keep-Alive': 'timeout=5', 'content-type': 'text/plain' })
    reply.raw.end('raw ok')
    reply.hijack()
  })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  try {
    for (const path of ['/reply', '/raw']) {
      const r = await ask(session, { ':path': path })
      assert.equal(r.status, 200, path)
      for (const name of ['connection', 'keep-alive', 'upgrade', 'proxy-connection', 'transfer-encoding']) assert.equal(r.headers[name], undefined, `${path} ${name}`)
    }
    assert.equal((await ask(session, { ':path': '/reply' })).headers['x-kept'], '1')
    assert.equal((await ask(session, { ':path': '/raw' })).body, 'raw ok')
  } finally {
    session.close()
    await app.close()
  }
})

test('hotpath/fastify: fastify({ http2: true }); close() with an idle session open resolves without waiting for the session timeout', async () => {
  const app = fastify({ http2: true })
  app.get('/', () => ({ hello: 'world' }))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  session.on('error', () => {})
  const r = await ask(session, { ':path': '/' })
  assert.deepEqual(JSON.parse(r.body), { hello: 'world' })
  const goaway = once(session, 'goaway')
  const ended = once(session, 'close')
  // the session stays open and idle; close() must not wait out its 72 s timeout
  await app.close()
  await goaway
  await ended
})

test('an idle session is closed after http2SessionTimeout', async () => {
  const app = hotpath({ http2: true, http2SessionTimeout: 100 })
  app.get('/', () => 'ok')
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  session.on('error', () => {})
  try {
    assert.equal((await ask(session, { ':path': '/' })).body, 'ok')
    await once(session, 'goaway')
    await once(session, 'close')
  } finally {
    await app.close()
  }
})

test('the session advertises 100 concurrent streams and the header-list bound by default; `http.settings` overrides', async () => {
  for (const [options, streams] of /** @type {const} */ ([[{}, 100], [{ http: { settings: { maxConcurrentStreams: 7 } } }, 7]])) {
    const app = hotpath({ http2: true, maxHeaderSize: 8192, ...options })
    app.get('/', () => 'ok')
    const base = await app.listen({ port: 0, host: '127.0.0.1' })
    const session = http2.connect(base)
    try {
      const [settings] = await once(session, 'remoteSettings')
      assert.equal(settings.maxConcurrentStreams, streams)
      assert.equal(settings.maxHeaderListSize, 8192)
    } finally {
      session.close()
      await app.close()
    }
  }
})

test('a header list past maxHeaderSize is refused, and the server goes on answering', async () => {
  const app = hotpath({ http2: true, maxHeaderSize: 4096 })
  app.get('/', () => 'ok')
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const big = http2.connect(base)
    big.on('error', () => {})
    const stream = big.request({ ':path': '/', 'x-big': 'a'.repeat(8000) })
    stream.on('error', () => {})
    const [head] = await once(stream, 'response')
    assert.equal(head[':status'], 431)
    big.destroy()
    const session = http2.connect(base)
    assert.equal((await ask(session, { ':path': '/' })).body, 'ok')
    session.close()
  } finally {
    await app.close()
  }
})

test('rapid reset: 1,000 streams opened and reset on one session; the server survives and answers', async () => {
  const app = hotpath({ http2: true })
  app.get('/', () => 'ok')
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const flood = http2.connect(base, { peerMaxConcurrentStreams: 2000 })
    flood.on('error', () => {})
    await once(flood, 'connect')
    for (let i = 0; i < 1000 && !flood.destroyed && !flood.closed; i++) {
      try {
        const s = flood.request({ ':path': '/' })
        s.on('error', () => {})
        s.close(http2.constants.NGHTTP2_CANCEL)
      } catch { break } // the server ended the session (GOAWAY): its mitigation
    }
    flood.destroy()
    const session = http2.connect(base)
    assert.equal((await ask(session, { ':path': '/' })).body, 'ok')
    session.close()
  } finally {
    await app.close()
  }
})

test('TLS: ALPN h2 is served by h2, http/1.1 on the same port by the wire engine (allowHTTP1)', { skip: tls === null ? 'openssl is not installed' : false }, async () => {
  const app = hotpath({ http2: true, https: { ...tls, allowHTTP1: true } })
  app.get('/', (req) => ({ version: req.raw.httpVersion, protocol: req.protocol, engineRequest: req.raw.constructor.name }))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const session = http2.connect(base, { rejectUnauthorized: false })
    const h2 = JSON.parse((await ask(session, { ':path': '/' })).body)
    session.close()
    assert.equal(h2.version, '2.0')
    assert.equal(h2.protocol, 'https')
    const h1 = await new Promise((resolve, reject) => {
      https.get(`${base}/`, { rejectUnauthorized: false, agent: false }, (res) => {
        let body = ''
        res.on('data', (c) => { body += c })
        res.on('end', () => resolve(JSON.parse(body)))
      }).on('error', reject)
    })
    assert.equal(h1.version, '1.1')
    assert.equal(h1.protocol, 'https')
    assert.notEqual(h1.engineRequest, h2.engineRequest)
  } finally {
    await app.close()
  }
})

test('curl --http2-prior-knowledge', { skip: curlH2 ? false : 'curl with HTTP/2 is not installed' }, async () => {
  const app = hotpath({ http2: true })
  app.get('/', () => ({ via: 'h2c' }))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const out = await new Promise((resolve, reject) => {
      execFile('curl', ['-s', '-i', '--http2-prior-knowledge', '--max-time', '10', `${base}/`], (err, stdout) => err ? reject(err) : resolve(stdout))
    })
    assert.match(out, /^HTTP\/2 200/)
    assert.match(out, /\{"via":"h2c"\}$/)
  } finally {
    await app.close()
  }
})

test('curl over TLS: --http2 negotiates h2, --http1.1 on the same port is served by wire (allowHTTP1)', { skip: !curlH2 ? 'curl with HTTP/2 is not installed' : tls === null ? 'openssl is not installed' : false }, async () => {
  const app = hotpath({ http2: true, https: { ...tls, allowHTTP1: true } })
  app.get('/', (req) => ({ version: req.raw.httpVersion }))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  /** @param {string} flag */
  const curl = (flag) => new Promise((resolve, reject) => {
    execFile('curl', ['-s', '-i', '-k', flag, '--max-time', '10', `${base}/`], (err, stdout) => err ? reject(err) : resolve(stdout))
  })
  try {
    const h2 = await curl('--http2')
    assert.match(h2, /^HTTP\/2 200/)
    assert.match(h2, /\{"version":"2.0"\}$/)
    const h1 = await curl('--http1.1')
    assert.match(h1, /^HTTP\/1.1 200 OK/)
    assert.match(h1, /\{"version":"1.1"\}$/)
  } finally {
    await app.close()
  }
})

test('a large body the client cancels unread does not fill the session: its next stream is served', async () => {
  const app = hotpath({ http2: true })
  // past node:http2's maxSessionMemory (10 MB) if it were queued whole
  const payload = Buffer.alloc(24 * 1024 * 1024, 97)
  app.get('/large', (_req, reply) => { reply.header('content-type', 'application/octet-stream'); return payload })
  app.get('/small', () => 'ok')
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  session.on('error', () => {})
  try {
    const large = session.request({ ':path': '/large' })
    large.on('error', () => {})
    await once(large, 'response')
    large.pause()
    large.close(http2.constants.NGHTTP2_CANCEL)
    await once(large, 'close')
    assert.equal((await ask(session, { ':path': '/small' })).body, 'ok')
  } finally {
    session.close()
    await app.close()
  }
})

test('node\'s compat objects are built only when asked for, and show what was answered on the stream before they were', async () => {
  const app = hotpath({ http2: true, rewriteUrl: (req) => req.url === '/old' ? '/new' : /** @type {string} */ (req.url) })
  /** @type {Record<string, unknown>} */
  const seen = {}
  app.addHook('onResponse', async (req, reply) => {
    if (req.url !== '/late') return
    // asked for after the answer went out on the stream itself
    seen.status = reply.raw.statusCode
    seen.ended = reply.raw.writableEnded
    seen.headersSent = reply.raw.headersSent
  })
  app.get('/late', (_req, reply) => reply.code(201).send('late'))
  app.get('/new', (req) => ({ url: req.raw.url, originalUrl: /** @type {any} */ (req.raw).originalUrl }))
  app.get('/early', (_req, reply) => {
    // set through the compat response before the core answers: merged into its head
    reply.raw.setHeader('x-raw', 'yes')
    return 'early'
  })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  try {
    const late = await ask(session, { ':path': '/late' })
    assert.equal(late.status, 201)
    assert.equal(late.body, 'late')
    const rewritten = await ask(session, { ':path': '/old' })
    assert.deepEqual(JSON.parse(rewritten.body), { url: '/new', originalUrl: '/old' })
    const early = await ask(session, { ':path': '/early' })
    assert.equal(early.headers['x-raw'], 'yes')
    assert.equal(early.body, 'early')
  } finally {
    session.close()
    await app.close()
  }
  assert.deepEqual(seen, { status: 201, ended: true, headersSent: true })
})

test('Expect: 100-continue gets its interim 100 and is served; another Expect gets 417; CONNECT without a listener gets 405', async () => {
  const app = hotpath({ http2: true })
  app.post('/up', (req) => ({ got: req.body }))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  try {
    const stream = session.request({ ':method': 'POST', ':path': '/up', 'content-type': 'application/json', expect: '100-continue' })
    let interim = 0
    stream.on('continue', () => {
      interim++
      stream.end('{"n":1}')
    })
    /** @type {Buffer[]} */
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    const ended = once(stream, 'end')
    const [head] = await once(stream, 'response')
    await ended
    assert.equal(interim, 1)
    assert.equal(head[':status'], 200)
    assert.deepEqual(JSON.parse(Buffer.concat(chunks).toString()), { got: { n: 1 } })
    assert.equal((await ask(session, { ':path': '/up', ':method': 'POST', expect: 'something-else' }, '{}')).status, 417)
    assert.equal((await ask(session, { ':method': 'CONNECT', ':authority': 'example.test:443' })).status, 405)
    assert.equal((await ask(session, { ':path': '/nothing' })).status, 404)
  } finally {
    session.close()
    await app.close()
  }
})

test('a body not received within requestTimeout is answered 408 and its stream ends; the session goes on', async () => {
  const app = hotpath({ http2: true, requestTimeout: 200 })
  app.post('/', (req) => ({ got: req.body }))
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(base)
  try {
    const stream = session.request({ ':method': 'POST', ':path': '/', 'content-type': 'application/json' })
    stream.write('{"a":') // and nothing more
    /** @type {Buffer[]} */
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    const [head] = await once(stream, 'response')
    await once(stream, 'close')
    assert.equal(head[':status'], 408)
    assert.equal(JSON.parse(Buffer.concat(chunks).toString()).code, 'HP_ERR_REQUEST_TIMEOUT')
    assert.equal((await ask(session, { ':path': '/', ':method': 'POST', 'content-type': 'application/json' }, '{"b":2}')).status, 200)
  } finally {
    session.close()
    await app.close()
  }
})

test('hotpath/fastify: a method node:http does not know (only HTTP/2 carries one) gets Fastify\'s FST_ERR_NOT_FOUND, not the not-found handler; node\'s methods get the handler', async () => {
  const app = fastify({ http2: true })
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ custom: true }))
  app.get('/', () => 'root')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const session = http2.connect(`http://127.0.0.1:${/** @type {any} */ (app.server.address()).port}`)
  try {
    const unknown = await ask(session, { ':method': 'UNKNOWN_METHOD', ':path': '/' })
    assert.equal(unknown.status, 404)
    assert.deepEqual(JSON.parse(unknown.body), { statusCode: 404, code: 'FST_ERR_NOT_FOUND', error: 'Not Found', message: 'Not Found' })
    const webdav = await ask(session, { ':method': 'PROPFIND', ':path': '/' })
    assert.deepEqual([webdav.status, JSON.parse(webdav.body)], [404, { custom: true }])
  } finally {
    session.close()
    await app.close()
  }
})

test('TLS with allowHTTP1: an HTTP/1.1 upgrade on the h2 port goes to app.server\'s \'upgrade\' listeners (a WebSocket server takes it there)', { skip: tls === null ? 'openssl is not installed' : false }, async () => {
  const app = hotpath({ http2: true, https: { ...tls, allowHTTP1: true } })
  app.get('/ws', () => 'no upgrade')
  await app.ready()
  /** @type {string[]} */
  const upgrades = []
  app.server.on('upgrade', (/** @type {any} */ req, /** @type {import('node:net').Socket} */ socket) => {
    upgrades.push(`${req.method} ${req.url} ${req.headers.upgrade}`)
    socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: probe\r\n\r\n')
  })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const status = await new Promise((resolve, reject) => {
      const req = https.request(`${base}/ws`, { rejectUnauthorized: false, agent: false, headers: { connection: 'Upgrade', upgrade: 'probe' } })
      req.on('upgrade', (res, socket) => {
        socket.destroy()
        resolve(res.statusCode)
      })
      req.on('response', (res) => resolve(res.statusCode))
      req.on('error', reject)
      req.end()
    })
    assert.equal(status, 101)
    assert.deepEqual(upgrades, ['GET /ws probe'])
  } finally {
    await app.close()
  }
})

test('a malformed frame is answered by the session\'s own GOAWAY (PROTOCOL_ERROR); the server goes on serving other sessions', async () => {
  const app = hotpath({ http2: true })
  app.get('/', () => 'still here')
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const port = Number(new URL(base).port)
    const received = await new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1')
      /** @type {Buffer[]} */
      const chunks = []
      socket.on('data', (c) => chunks.push(c))
      socket.on('close', () => resolve(Buffer.concat(chunks)))
      socket.on('error', (err) => /** @type {any} */ (err).code === 'ECONNRESET' ? resolve(Buffer.concat(chunks)) : reject(err))
      setTimeout(() => socket.destroy(), 3000).unref()
      const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')
      const settings = Buffer.from([0, 0, 0, 0x4, 0, 0, 0, 0, 0]) // an empty SETTINGS frame
      // a DATA frame on stream 0, which RFC 9113 §6.1 makes a connection error of type PROTOCOL_ERROR
      const bad = Buffer.from([0, 0, 1, 0x0, 0, 0, 0, 0, 0, 0x61])
      socket.write(Buffer.concat([preface, settings, bad]))
    })
    assert.equal(goAwayCode(received), 1, 'a GOAWAY with PROTOCOL_ERROR')
    const session = http2.connect(base)
    try {
      assert.equal((await ask(session, { ':path': '/' })).body, 'still here')
    } finally {
      session.close()
    }
  } finally {
    await app.close()
  }
})

/**
 * The error code of the first GOAWAY frame (type 0x7) among the frames a
 * server sent, or -1.
 * @param {Buffer} bytes
 */
function goAwayCode (bytes) {
  for (let at = 0; at + 9 <= bytes.length;) {
    const length = bytes.readUIntBE(at, 3)
    if (bytes[at + 3] === 0x7 && at + 9 + 8 <= bytes.length) return bytes.readUInt32BE(at + 9 + 4)
    at += 9 + length
  }
  return -1
}
