// app.routing(req, res): a request/response pair made outside hotpath's
// engines goes through the routes, hooks and handlers, as with Fastify's
// `routing`. WebSocket plugins use it to run an upgrade through the app's
// hooks before taking the socket.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { once } from 'node:events'
import { PassThrough, Duplex } from 'node:stream'
import hotpath from '../../lib/index.js'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'

const kTag = Symbol('tag')

/** @param {any} app */
function routes (app) {
  app.addHook('onRequest', async (/** @type {any} */ req) => {
    if (req.headers['x-deny'] !== undefined) throw Object.assign(new Error('denied'), { statusCode: 403, expose: true })
  })
  app.get('/tagged', (/** @type {any} */ req) => ({ tag: req.raw[kTag] ?? null, url: req.url }))
  app.post('/echo', (/** @type {any} */ req) => req.body)
}

// Off h2: 'upgrade' is HTTP/1.1's (RFC 9113 §8.6: HTTP/2 has no Upgrade).
eachMode('app.routing(req, res) from an upgrade listener', (mode) => {
  /** Sends an upgrade request; the app's listener routes it; returns what came back on the socket. */
  async function upgrade (/** @type {number} */ port, /** @type {string} */ head) {
    const socket = net.connect(port, '127.0.0.1')
    /** @type {Buffer[]} */
    const got = []
    socket.on('data', (d) => got.push(d))
    await once(socket, 'connect')
    socket.write(head)
    await once(socket, 'close')
    return Buffer.concat(got).toString('latin1')
  }

  /** An app whose upgrade listener hands each upgrade to app.routing(), tagging the request first. */
  function upgradingApp () {
    return setup(mode, (app) => {
      routes(app)
      app.server.on('upgrade', (/** @type {any} */ req, /** @type {any} */ socket) => {
        req[kTag] = 'from the listener'
        const res = new http.ServerResponse(req)
        res.assignSocket(socket)
        // the listener owns an upgrade's socket: it ends it after the answer
        res.on('finish', () => socket.end())
        app.routing(req, res)
      })
    })
  }

  test('an upgrade request goes through the hooks and the route; what the caller put on req is on request.raw', async () => {
    const s = await upgradingApp()
    const text = await upgrade(s.port, 'GET /tagged HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n')
    await s.close()
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/)
    assert.deepEqual(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)), { tag: 'from the listener', url: '/tagged' })
  })

  test('a hook that refuses the upgrade answers on the socket', async () => {
    const s = await upgradingApp()
    const text = await upgrade(s.port, 'GET /tagged HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\nX-Deny: 1\r\n\r\n')
    await s.close()
    assert.match(text, /^HTTP\/1\.1 403 Forbidden\r\n/)
    assert.equal(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).message, 'denied')
  })
}, SOCKET_MODES)

/** A socket-like duplex whose written bytes are collected. */
function memorySocket () {
  /** @type {Buffer[]} */
  const written = []
  const socket = new Duplex({
    read () {},
    write (chunk, _enc, cb) { written.push(chunk); cb() }
  })
  return { socket, text: () => Buffer.concat(written).toString('latin1') }
}

test('a plain object as the request (no socket, no body stream) is routed', async () => {
  const app = hotpath()
  routes(app)
  await app.ready()
  const { socket, text } = memorySocket()
  const req = { method: 'GET', url: '/tagged', headers: { host: 'x' }, httpVersion: '1.1', [kTag]: 'plain' }
  const res = new http.ServerResponse(/** @type {any} */ (req))
  res.assignSocket(/** @type {any} */ (socket))
  const finished = once(res, 'finish')
  app.routing(req, res)
  await finished
  assert.match(text(), /^HTTP\/1\.1 200 OK\r\n/)
  assert.deepEqual(JSON.parse(text().slice(text().indexOf('\r\n\r\n') + 4)), { tag: 'plain', url: '/tagged' })
})

test('a request that is a stream has its body parsed', async () => {
  const app = hotpath()
  routes(app)
  await app.ready()
  const { socket, text } = memorySocket()
  const body = JSON.stringify({ a: 1 })
  const req = Object.assign(new PassThrough(), { method: 'POST', url: '/echo', httpVersion: '1.1', headers: { host: 'x', 'content-type': 'application/json', 'content-length': String(body.length) } })
  req.end(body)
  const res = new http.ServerResponse(/** @type {any} */ (req))
  res.assignSocket(/** @type {any} */ (socket))
  const finished = once(res, 'finish')
  app.routing(req, res)
  await finished
  assert.deepEqual(JSON.parse(text().slice(text().indexOf('\r\n\r\n') + 4)), { a: 1 })
})

test('routing() before ready() throws HP_ERR_NOT_READY', () => {
  const app = hotpath()
  assert.throws(() => app.routing({ method: 'GET', url: '/', headers: {} }, new http.ServerResponse(/** @type {any} */ ({ method: 'GET', headers: {} }))), { code: 'HP_ERR_NOT_READY' })
})
