import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { Writable } from 'node:stream'
import { eachMode, setup, SOCKET_MODES, LISTENING_MODES } from '../helpers/engines.js'

/** @param {() => boolean} cond */
async function waitFor (cond, ms = 3000) {
  for (let waited = 0; !cond() && waited < ms; waited += 10) await sleep(10)
  return cond()
}

/**
 * A request on a connection of its own, through node:http's client; leaving destroys it.
 * @param {number} port
 * @param {string} path
 */
function httpLeaving (port, path) {
  const req = http.request({ host: '127.0.0.1', port, path, agent: false })
  req.on('error', () => {})
  req.end()
  return { leave: () => req.destroy() }
}

eachMode('client abort', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const state = { started: false, aborted: /** @type {any} */ (null), abortHooks: 0, lateSendThrew: false, errors: 0, bodyAbortHooks: 0 }
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { if (JSON.parse(chunk).level >= 50) state.errors++; cb() } })
    s = await setup(mode, (app) => {
      app.get('/slow', { onRequestAbort: () => { state.abortHooks++ } }, async (req, reply) => {
        state.started = true
        const signal = req.signal
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
        state.aborted = signal.reason
        try { reply.send({ late: true }) } catch { state.lateSendThrew = true }
        return reply
      })
      app.post('/upload', { onRequestAbort: () => { state.bodyAbortHooks++ } }, (req) => ({ got: req.body }))
      app.get('/', () => 'alive')
    }, { logger: { level: 'info', stream }, requestTimeout: 2000 })
  })
  after(() => s.close())

  // The wire engine treats a client's FIN as a half-close and still answers,
  // so it reports no abort for these two cases yet.

  test('mid-handler: req.signal fires, onRequestAbort runs once, a later send is ignored', async () => {
    // HTTP/1.1: the client closes its connection; HTTP/2: it resets the stream
    const leaving = s.h2 !== null ? s.h2.start({ url: '/slow' }) : httpLeaving(s.port, '/slow')
    assert.ok(await waitFor(() => state.started))
    leaving.leave()
    assert.ok(await waitFor(() => state.aborted !== null), 'signal aborted')
    await sleep(50)
    assert.equal(state.abortHooks, 1)
    assert.equal(state.lateSendThrew, false)
    assert.equal(state.errors, 0)
    assert.equal((await s.request('/')).body, 'alive')
  })

  test('mid-body: onRequestAbort runs once, the handler never runs', async () => {
    const headers = { 'content-type': 'application/json', 'content-length': '100' }
    let leaving
    if (s.h2 !== null) leaving = s.h2.start({ method: 'POST', url: '/upload', headers, body: '{"a":' })
    else {
      const socket = net.connect(s.port, '127.0.0.1')
      await once(socket, 'connect')
      socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":')
      leaving = { leave: () => socket.destroy() }
    }
    await sleep(50)
    leaving.leave()
    assert.ok(await waitFor(() => state.bodyAbortHooks === 1))
    await sleep(50)
    assert.equal(state.bodyAbortHooks, 1)
    assert.equal(state.errors, 0)
    assert.equal((await s.request('/')).body, 'alive')
  })
}, LISTENING_MODES)

eachMode('request timeout', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const state = { timeouts: 0, reason: /** @type {any} */ (null) }
  before(async () => {
    s = await setup(mode, (app) => {
      app.addHook('onTimeout', () => { state.timeouts++ })
      app.get('/never', (req) => { req.signal.addEventListener('abort', () => { state.reason = req.signal.reason }) })
      app.get('/never-async', () => new Promise(() => {}))
    }, { requestTimeout: 300 })
  })
  after(() => s.close())

  test('a handler that never answers is bounded: 503, onTimeout, signal aborted', async () => {
    const res = await s.request('/never')
    assert.equal(res.statusCode, 503)
    assert.equal(res.json().code, 'HP_ERR_HANDLER_TIMEOUT')
    assert.equal(state.reason?.name, 'TimeoutError')
    const res2 = await s.request('/never-async')
    assert.equal(res2.statusCode, 503)
    assert.equal(state.timeouts, 2)
  })
})

// Off h2: a head dripped byte by byte on an HTTP/1.1 connection; an HTTP/2 head
// is one HEADERS block, and idle sessions end with http2SessionTimeout.
eachMode('slow clients', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => { app.get('/', () => 'ok') }, { headersTimeout: 300, requestTimeout: 600 })
  })
  after(() => s.close())

  test('slow-drip headers are cut off (408 or closed) within the timeout + 1 s', async () => {
    // allowHalfOpen: the client goes on sending after the server's FIN
    const socket = net.connect({ port: s.port, host: '127.0.0.1', allowHalfOpen: true })
    await once(socket, 'connect')
    let data = ''
    socket.on('data', (c) => { data += c.toString('latin1') })
    socket.on('error', () => {})
    const start = Date.now()
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n')
    let closed = false
    socket.on('close', () => { closed = true })
    // one header line every 100 ms, until the headers timeout (300 ms) + 1 s
    // has passed: a client that keeps sending must not keep the connection
    // open past the answer
    for (let i = 0; Date.now() - start < 1300 && !closed; i++) {
      socket.write(`X-Drip-${i}: y\r\n`)
      await sleep(100)
    }
    assert.ok(closed, 'the server closed the connection')
    assert.ok(data === '' || /^HTTP\/1\.1 408 /.test(data), data)
    socket.destroy()
  })
}, SOCKET_MODES)

// Off h2: kept-alive HTTP/1.1 sockets; h2's close() is tested in test/h2 and
// test/engines.
eachMode('close()', (mode) => {
  test('in-flight requests finish, idle keep-alive sockets close, hooks run, new connections are refused', async () => {
    /** @type {string[]} */
    const hooks = []
    let started = false
    const s = await setup(mode, (app) => {
      app.addHook('preClose', () => { hooks.push('preClose') })
      app.addHook('onClose', () => { hooks.push('onClose') })
      app.get('/slow', async () => { started = true; await sleep(200); return { done: true } })
      app.get('/', () => 'ok')
    })
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 })
    // an idle keep-alive socket
    await new Promise((resolve) => http.get({ host: '127.0.0.1', port: s.port, path: '/', agent }, (res) => { res.resume(); res.on('end', resolve) }))
    const idleSockets = Object.values(agent.freeSockets).flat()
    assert.equal(idleSockets.length, 1)
    const idleClosed = once(/** @type {net.Socket} */ (idleSockets[0]), 'close')
    // an in-flight request
    const inflight = new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/slow', agent: false }, (res) => {
        let body = ''
        res.on('data', (c) => { body += c })
        res.on('end', () => resolve({ status: res.statusCode, body, connection: res.headers.connection }))
      })
      req.on('error', reject)
    })
    assert.ok(await waitFor(() => started))
    const closing = s.close()
    await idleClosed
    const r = /** @type {any} */ (await inflight)
    assert.equal(r.status, 200)
    assert.deepEqual(JSON.parse(r.body), { done: true })
    assert.equal(r.connection, 'close')
    await closing
    assert.deepEqual(hooks, ['preClose', 'onClose'])
    await assert.rejects(new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/', agent: false }, resolve)
      req.on('error', reject)
    }), { code: 'ECONNREFUSED' })
    agent.destroy()
  })

  test('a request arriving on a busy keep-alive socket after close() began never reaches a handler', async () => {
    let started = false
    let fastRuns = 0
    const s = await setup(mode, (app) => {
      app.get('/slow', async () => { started = true; await sleep(150); return 'slow' })
      app.get('/', () => { fastRuns++; return 'fast' })
    })
    const socket = net.connect(s.port, '127.0.0.1')
    await once(socket, 'connect')
    let data = ''
    socket.on('data', (c) => { data += c.toString('latin1') })
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.ok(await waitFor(() => started))
    const closing = s.close()
    await sleep(20)
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await once(socket, 'close')
    await closing
    const statuses = [...data.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1])
    // the in-flight request completes; the late one gets 503 or a closed connection
    assert.equal(statuses[0], '200')
    assert.match(data, /connection: close/i)
    assert.ok(statuses.slice(1).every((st) => st === '503'), data)
    assert.equal(fastRuns, 0)
  })
}, SOCKET_MODES)
