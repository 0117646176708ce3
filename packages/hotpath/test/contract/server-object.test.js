// The server an app listens with: listen()'s options and answers, the
// members of node:http's Server that app.server has on every engine, and the
// server options that come from Fastify (connectionTimeout, http,
// return503OnClosing, handlerTimeout).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'
import { eachMode, setup, SOCKET_MODES, engineOption } from '../helpers/engines.js'

/**
 * Writes raw bytes on a new connection and resolves with all it reads until the server closes it.
 * @param {number} port
 * @param {string} bytes
 */
async function exchange (port, bytes) {
  const socket = net.connect(port, '127.0.0.1')
  let data = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk) => { data += chunk })
  socket.write(bytes)
  await once(socket, 'close')
  return data
}

test('listen() with an aborted signal closes the app and resolves undefined; the server never listens', async () => {
  const app = hotpath()
  let closed = false
  app.addHook('onClose', () => { closed = true })
  const controller = new AbortController()
  controller.abort()
  let called = false
  const address = await app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal }, () => { called = true })
  assert.equal(address, undefined)
  assert.equal(closed, true)
  assert.equal(app.server.listening, false)
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(called, false)
})

test('listen() with a signal that aborts while the plugins load never listens; one that aborts later closes the app', async () => {
  const early = hotpath()
  const controller = new AbortController()
  const listening = early.listen({ port: 0, host: '127.0.0.1', signal: controller.signal })
  controller.abort()
  assert.equal(await listening, undefined)
  assert.equal(early.server.listening, false)

  const late = hotpath()
  const onClose = new Promise((resolve) => late.addHook('onClose', () => { resolve(true) }))
  const later = new AbortController()
  assert.match(String(await late.listen({ port: 0, host: '127.0.0.1', signal: later.signal })), /^http:\/\/127\.0\.0\.1:\d+$/)
  later.abort()
  assert.equal(await onClose, true)
  assert.equal(late.server.listening, false)
})

test('listen() refuses a signal that is not an AbortSignal, at once', () => {
  assert.throws(() => hotpath().listen({ signal: /** @type {any} */ ({}) }), { code: 'HP_ERR_INVALID_LISTEN_OPTION' })
  assert.throws(() => fastify().listen({ signal: /** @type {any} */ ({}) }), { code: 'FST_ERR_LISTEN_OPTIONS_INVALID', message: "Invalid listen options: 'Invalid options.signal'" })
})

test('a second listen() fails with a null address; listen() after close() fails; the codes are Fastify\'s under hotpath/fastify', async () => {
  for (const [make, already, closed] of /** @type {const} */ ([[hotpath, 'HP_ERR_ALREADY_LISTENING', 'HP_ERR_CLOSED'], [fastify, 'FST_ERR_REOPENED_SERVER', 'FST_ERR_REOPENED_CLOSE_SERVER']])) {
    const app = make()
    await app.listen({ port: 0, host: '127.0.0.1' })
    /** @type {[any, any]} */
    const [err, address] = await new Promise((resolve) => app.listen({ port: 0, host: '127.0.0.1' }, (e, a) => resolve([e, a])))
    assert.equal(err.code, already)
    assert.equal(address, null)
    await app.close()
    await assert.rejects(app.listen({ port: 0 }), { code: closed })
    await assert.rejects(app.inject('/'), { code: closed })
  }
})

// Off h2: read with node:http's client over the socket file.
eachMode('listen() on a Unix socket path, listeningOrigin and addresses()', (mode) => {
  test('the path is the address, the origin and what addresses() lists; addresses() is empty once closed', { skip: process.platform === 'win32' }, async () => {
    const app = hotpath({ engine: mode })
    app.get('/', () => 'over the socket')
    const file = path.join(os.tmpdir(), `hotpath-${process.pid}-${mode}.sock`)
    const address = await app.listen({ path: file })
    assert.equal(address, file)
    assert.equal(app.server.address(), file)
    assert.equal(app.listeningOrigin, file)
    assert.deepEqual(app.addresses(), [file])
    const socket = net.connect(file)
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => { data += chunk })
    socket.write('GET / HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n')
    await once(socket, 'close')
    assert.match(data, /^HTTP\/1\.1 200 OK[\s\S]*over the socket$/)
    await app.close()
    assert.deepEqual(app.addresses(), [])
  })

  test('listeningOrigin is the origin a client reaches the app at', async () => {
    const app = hotpath({ engine: mode })
    assert.equal(app.listeningOrigin, undefined)
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    assert.equal(app.listeningOrigin, address)
    await app.close()
  })
}, SOCKET_MODES)

test("wire's app.server has node:http's limits, read and set live, and setTimeout()", async () => {
  const app = hotpath({ keepAliveTimeout: 7000, headersTimeout: 3000, requestTimeout: 9000, maxRequestsPerSocket: 4, connectionTimeout: 12 })
  const server = /** @type {any} */ (app.server)
  assert.deepEqual([server.keepAliveTimeout, server.headersTimeout, server.requestTimeout, server.maxRequestsPerSocket, server.timeout], [7000, 3000, 9000, 4, 12])
  server.keepAliveTimeout = 61_000
  assert.equal(server.keepAliveTimeout, 61_000)
  assert.throws(() => { server.maxRequestsPerSocket = -1 }, TypeError)
  assert.equal(server.setTimeout(500), server)
  assert.equal(server.timeout, 500)
  app.get('/', () => 'hi')
  await app.listen({ port: 0, host: '127.0.0.1' })
  // the Keep-Alive hint follows the limit set after the app was made
  assert.match(await exchange(app.server.address().port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), /Keep-Alive: timeout=61\r\n/)
  await app.close()
})

// Off h2: node:http's and wire's socket timeout; an h2 session's is
// http2SessionTimeout.
eachMode('connectionTimeout', (mode) => {
  test('a connection that stays silent past it is closed; setTimeout(ms, callback) hands it to the callback instead', async () => {
    const app = hotpath({ engine: mode, connectionTimeout: 30 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    const silent = net.connect(port, '127.0.0.1')
    await once(silent, 'close')
    /** @type {any[]} */
    const handed = []
    app.server.setTimeout(30, (/** @type {net.Socket} */ socket) => {
      handed.push(socket.remotePort)
      socket.destroy()
    })
    const second = net.connect(port, '127.0.0.1')
    await once(second, 'connect')
    const local = second.localPort
    await once(second, 'close')
    assert.deepEqual(handed, [local])
    await app.close()
  })
}, SOCKET_MODES)

// Off h2: node:http's connection methods; a node:http2 server has none.
eachMode('closeIdleConnections() and closeAllConnections()', (mode) => {
  test('an idle keep-alive connection is closed by either; a busy one only by closeAllConnections()', async () => {
    /** @type {() => void} */
    let release = () => {}
    let entered = /** @type {(v?: unknown) => void} */ (() => {})
    const inHandler = new Promise((resolve) => { entered = resolve })
    const app = hotpath({ engine: mode })
    app.get('/', () => 'ok')
    app.get('/wait', () => new Promise((resolve) => { release = () => resolve('done'); entered() }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    const idle = net.connect(port, '127.0.0.1')
    idle.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await once(idle, 'data')
    const busy = net.connect(port, '127.0.0.1')
    busy.write('GET /wait HTTP/1.1\r\nHost: x\r\n\r\n')
    await inHandler
    const server = /** @type {any} */ (app.server)
    const idleClosed = once(idle, 'close')
    server.closeIdleConnections()
    await idleClosed
    assert.equal(busy.destroyed, false)
    const busyClosed = once(busy, 'close')
    server.closeAllConnections()
    await busyClosed
    release()
    await app.close()
  })
}, SOCKET_MODES)

// Off h2: node:http's server options; h2 takes node:http2's (test/h2).
eachMode('the http option', (mode) => {
  test('requireHostHeader: false takes an HTTP/1.1 request without Host; request.host is then \'\' and request.port null', async () => {
    const s = await setup(mode, (app) => {
      app.get('/', (/** @type {any} */ req) => ({ host: req.host, hostname: req.hostname, port: req.port }))
    }, { http: { requireHostHeader: false } })
    const answer = await exchange(s.port, 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n')
    assert.match(answer, /^HTTP\/1\.1 200 OK/)
    assert.ok(answer.endsWith('{"host":"","hostname":"","port":null}'), answer)
    await s.close()
  })

  test('an empty Host on HTTP/1.1 is taken (a target without an authority); request.host is then \'\' and request.port null', async () => {
    const s = await setup(mode, (app) => {
      app.get('/', (/** @type {any} */ req) => ({ host: req.host, hostname: req.hostname, port: req.port }))
    })
    const answer = await exchange(s.port, 'GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n')
    assert.match(answer, /^HTTP\/1\.1 200 OK/)
    assert.ok(answer.endsWith('{"host":"","hostname":"","port":null}'), answer)
    await s.close()
  })

  test('maxHeaderSize bounds the head (431); the top-level option wins over it', async () => {
    const s = await setup(mode, (app) => { app.get('/', () => 'ok') }, { http: { maxHeaderSize: 1024 } })
    const res = await s.request({ url: '/', headers: { 'x-large': 'a'.repeat(1024) } })
    assert.equal(res.statusCode, 431)
    await s.close()
    assert.equal(hotpath({ maxHeaderSize: 2048, http: { maxHeaderSize: 1024 } }).initialConfig.maxHeaderSize, 2048)
  })
}, SOCKET_MODES)

test('listen() on 0.0.0.0 reports each IPv4 address of the machine, the loopback ones first, and resolves the first', async () => {
  /** @type {string[]} */
  const lines = []
  const app = hotpath({ engine: 'wire' })
  const url = await app.listen({ port: 0, host: '0.0.0.0', listenTextResolver: (/** @type {string} */ u) => { lines.push(u); return u } })
  const port = /** @type {import('node:net').AddressInfo} */ (app.server.address()).port
  const expected = Object.values(os.networkInterfaces()).flatMap((l) => (l ?? []).filter((i) => i.family === 'IPv4'))
  assert.equal(lines.length, expected.length)
  assert.deepEqual(new Set(lines), new Set(expected.map((i) => `http://${i.address}:${port}`)))
  assert.equal(url, lines[0])
  assert.ok(expected.some((i) => i.internal && url === `http://${i.address}:${port}`), url)
  await app.close()
})

test('the http option refuses what hotpath does not do, naming it', () => {
  assert.throws(() => hotpath({ http: { insecureHTTPParser: true } }), { code: 'HP_ERR_UNSUPPORTED_OPTION', message: /^Option http\.insecureHTTPParser: true is not supported/ })
  assert.throws(() => hotpath({ http: { requireHostHeader: 'no' } }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ http: 1 }), { code: 'HP_ERR_INVALID_OPTION' })
})

test('request.port is the port of the Host header, null without one', async () => {
  const app = hotpath()
  app.get('/', (/** @type {any} */ req) => ({ port: req.port, hostname: req.hostname }))
  assert.deepEqual((await app.inject({ url: '/', headers: { host: 'example.com:8080' } })).json(), { port: 8080, hostname: 'example.com' })
  assert.deepEqual((await app.inject({ url: '/', headers: { host: '[::1]' } })).json(), { port: null, hostname: '[::1]' })
  assert.deepEqual((await app.inject({ url: '/', headers: { host: '[::1]:3000' } })).json(), { port: 3000, hostname: '[::1]' })
})

// Off h2: kept-alive HTTP/1.1 connections through node:http's Agent; h2 answers
// 503 on a session's new streams while closing (test/h2).
eachMode('return503OnClosing', (mode) => {
  for (const return503OnClosing of [true, false]) {
    test(`${return503OnClosing}: a request that arrives once close() has begun is ${return503OnClosing ? 'answered 503' : 'served'}, with Connection: close`, async () => {
      const s = await setup(mode, (app) => {
        app.get('/first', () => 'first')
        app.get('/next', () => 'next')
      }, { return503OnClosing })
      const socket = net.connect(s.port, '127.0.0.1')
      let data = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk) => { data += chunk })
      socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n')
      await once(socket, 'data')
      // a keep-alive connection that has just answered is kept open a
      // moment once close() begins, for a request already on its way
      const closing = s.close()
      await new Promise((resolve) => setImmediate(resolve))
      socket.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n')
      await once(socket, 'close')
      await closing
      const second = data.slice(data.indexOf('HTTP/1.1', 1))
      if (return503OnClosing) assert.match(second, /^HTTP\/1\.1 503 /)
      else assert.match(second, /^HTTP\/1\.1 200 OK[\s\S]*next$/)
      assert.match(second, /connection: close/i)
    })
  }
}, SOCKET_MODES)

// Off h2: a request on a kept-alive HTTP/1.1 connection while closing.
eachMode('a request refused while closing, under logFormat \'fastify\'', (mode) => {
  test('is logged as Fastify logs it; the answer in flight before keeps its connection', async () => {
    /** @type {any[]} */
    const lines = []
    const stream = { write: (/** @type {string} */ line) => { lines.push(JSON.parse(line)) } }
    const app = fastify({ engine: mode, forceCloseConnections: false, logger: { stream, level: 'info' } })
    /** @type {Promise<void> | null} */
    let closing = null
    app.get('/', () => { closing ??= app.close(); return 'ok' })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = /** @type {import('node:net').AddressInfo} */ (app.server.address()).port
    const socket = net.connect(port, '127.0.0.1')
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => { data += chunk })
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await once(socket, 'data')
    assert.match(data, /^HTTP\/1\.1 200 OK/)
    assert.match(data, /\r\nconnection: keep-alive\r\n/i)
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await once(socket, 'close')
    await closing
    assert.match(data.slice(data.indexOf('HTTP/1.1', 1)), /^HTTP\/1\.1 503 /)
    const refused = lines.filter((l) => l.msg === 'request aborted - refusing to accept new requests as server is closing')
    assert.equal(refused.length, 1)
    assert.deepEqual(refused[0].res, { statusCode: 503 })
  })
}, SOCKET_MODES)

eachMode('handlerTimeout', (mode) => {
  test('a route late past its handlerTimeout is answered 503, and req.signal aborts with that error', async () => {
    /** @type {unknown} */
    let reason = null
    const s = await setup(mode, (app) => {
      app.get('/late', { handlerTimeout: 20 }, (/** @type {any} */ req) => new Promise((resolve) => {
        req.signal.addEventListener('abort', () => { reason = req.signal.reason; resolve('too late') })
      }))
      app.get('/inherits', (/** @type {any} */ req) => ({ handlerTimeout: req.routeOptions.handlerTimeout }))
    }, { handlerTimeout: 5000 })
    const res = await s.request('/late')
    assert.equal(res.statusCode, 503)
    assert.equal(res.json().code, 'HP_ERR_HANDLER_TIMEOUT')
    assert.equal(/** @type {any} */ (reason).code, 'HP_ERR_HANDLER_TIMEOUT')
    assert.deepEqual((await s.request('/inherits')).json(), { handlerTimeout: 5000 })
    await s.close()
  })

  test("the route's errorHandler answers it, and hotpath/fastify names it FST_ERR_HANDLER_TIMEOUT", async () => {
    const app = fastify(engineOption(mode))
    /** @type {string[]} */
    const codes = []
    app.get('/', {
      handlerTimeout: 20,
      errorHandler: (/** @type {any} */ err, /** @type {any} */ _req, /** @type {any} */ reply) => { codes.push(err.code); reply.code(504).send({ late: true }) }
    }, (/** @type {any} */ req) => new Promise((resolve) => req.signal.addEventListener('abort', () => resolve('x'))))
    const res = await app.inject('/')
    assert.equal(res.statusCode, 504)
    assert.deepEqual(res.json(), { late: true })
    assert.deepEqual(codes, ['FST_ERR_HANDLER_TIMEOUT'])
    await app.close()
  })
})

test('a route handlerTimeout that is not an integer above 0 is refused when the route is declared', () => {
  for (const value of ['fast', -1, 1.5, 0]) {
    assert.throws(() => hotpath().get('/', { handlerTimeout: value }, () => 'x'), { code: 'HP_ERR_INVALID_HANDLER_TIMEOUT' })
    assert.throws(() => fastify().get('/', { handlerTimeout: value }, () => 'x'), { code: 'FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT' })
  }
  assert.equal(hotpath().initialConfig.handlerTimeout, 0)
  assert.equal(hotpath({ handlerTimeout: 250 }).initialConfig.handlerTimeout, 250)
})

eachMode('a web payload that cannot be read', (mode) => {
  test('a Response whose body was read, or a locked ReadableStream, goes to the error path (500)', async () => {
    const s = await setup(mode, (app) => {
      app.get('/used', async () => {
        const response = new Response('body')
        await response.text()
        return response
      })
      app.get('/locked', (/** @type {any} */ _req, /** @type {any} */ reply) => {
        const stream = new ReadableStream({ start (c) { c.enqueue(new TextEncoder().encode('x')); c.close() } })
        stream.getReader()
        reply.send(stream)
      })
    })
    const used = await s.request('/used')
    assert.equal(used.statusCode, 500)
    assert.equal(used.json().code, 'HP_ERR_RESPONSE_BODY_USED')
    const locked = await s.request('/locked')
    assert.equal(locked.statusCode, 500)
    assert.equal(locked.json().code, 'HP_ERR_STREAM_LOCKED')
    await s.close()
  })
})

test('inject(): simulate: { error: true } fails the read of the body with a 400', async () => {
  const app = hotpath()
  app.post('/', () => 'read')
  const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 }, simulate: { error: true } })
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().code, 'HP_ERR_REQUEST_ABORTED')
})

test('serverFactory: the app runs on the node:http server it makes, with its own request and response objects', async () => {
  /** @type {any} */
  let given = null
  const app = hotpath({
    serverFactory: (/** @type {any} */ handler, /** @type {any} */ options) => {
      given = options
      return http.createServer((req, res) => {
        /** @type {any} */ (req).tagged = 'by the server'
        handler(req, res)
      })
    }
  })
  app.post('/', (/** @type {any} */ req) => ({ tagged: req.raw.tagged, body: req.body }))
  assert.equal(typeof given.serverFactory, 'function')
  assert.equal(app.initialConfig.engine, 'node')
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const res = await fetch(`${address}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
  assert.deepEqual(await res.json(), { tagged: 'by the server', body: { a: 1 } })
  await app.close()
  assert.equal(app.server.listening, false)
})

test('serverFactory: close() leaves alone a server the app did not open; addresses() follows the server', async () => {
  const server = http.createServer()
  const app = hotpath({ serverFactory: (/** @type {any} */ handler) => server.on('request', handler) })
  app.get('/', () => 'ok')
  await app.ready()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  await app.close()
  assert.equal(server.listening, true)
  assert.deepEqual(app.addresses(), [server.address()])
  server.close()
  await once(server, 'close')
})

test("serverFactory: forceCloseConnections: 'idle' needs a server with closeIdleConnections(); engine must be node", () => {
  const bare = () => /** @type {any} */ ({ on () {} })
  assert.throws(() => hotpath({ forceCloseConnections: 'idle', serverFactory: bare }), { code: 'HP_ERR_FORCE_CLOSE_IDLE_UNAVAILABLE' })
  assert.throws(() => fastify({ forceCloseConnections: 'idle', serverFactory: bare }), { code: 'FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE' })
  assert.equal(typeof fastify({ serverFactory: bare }).inject, 'function')
  assert.throws(() => hotpath({ engine: 'wire', serverFactory: () => http.createServer() }), { code: 'HP_ERR_INVALID_OPTION' })
})

// Off h2: malformed HTTP/1.1 heads written by hand.
eachMode('clientErrorHandler', (mode) => {
  test('a request the engine refuses is handed to it, with the socket, `this` the app', async () => {
    /** @type {any[]} */
    const seen = []
    const app = hotpath({
      engine: mode,
      clientErrorHandler (/** @type {any} */ err, /** @type {net.Socket} */ socket) {
        seen.push(this === app, typeof err.message)
        socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 6\r\nConnection: close\r\n\r\ncustom')
      }
    })
    app.get('/', () => 'ok')
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n')
    assert.equal(answer, 'HTTP/1.1 400 Bad Request\r\nContent-Length: 6\r\nConnection: close\r\n\r\ncustom')
    assert.deepEqual(seen, [true, 'string'])
    // a well-formed request is not its business
    assert.match(await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 200 OK/)
    await app.close()
  })
}, SOCKET_MODES)
