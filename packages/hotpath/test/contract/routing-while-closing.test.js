// Requests that arrive once close() has begun, as Fastify refuses them.
// app.routing(req, res) once close() has begun: an 'upgrade' listener that
// routes its requests through the app (@fastify/websocket's way) gets the
// same 503 a request arriving then gets, as on Fastify (its routing checks
// the closing state); before, the upgrade was served and a client waiting
// for the refusal waited for ever. Beside Fastify, on wire and node.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** An upgrade request to `port`: resolves with the status of a refusal, or 'upgraded'. */
function upgrade (port) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/live', headers: { connection: 'Upgrade', upgrade: 'websocket' } })
    // a refused upgrade's socket is the client's to close, as ws does
    req.on('response', (res) => { res.socket.destroy(); resolve({ status: res.statusCode, connection: res.headers.connection, type: res.headers['content-type'] }) })
    req.on('upgrade', (res, socket) => { socket.destroy(); resolve('upgraded') })
    req.on('error', reject)
    req.end()
  })
}

/** What an upgrade request sent as close() begins gets from `app`. */
async function refusedWhileClosing (app) {
  app.get('/live', (req, reply) => { reply.hijack(); req.raw.socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n') })
  await app.ready()
  // as @fastify/websocket routes an upgrade: a response on its socket,
  // the socket ended with an answer that did not upgrade it
  app.server.on('upgrade', (req, socket) => {
    const res = new http.ServerResponse(req)
    res.assignSocket(socket)
    res.on('finish', () => socket.destroy())
    app.routing(req, res)
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.server.address().port
  const before = await upgrade(port)
  const close = app.server.close
  let during
  app.server.close = function (cb) {
    during = upgrade(port)
    // the listener closes once the request has reached the app
    app.server.once('upgrade', () => setImmediate(() => close.call(this, cb)))
  }
  await app.close()
  return { before, during: await during }
}

for (const engine of ['wire', 'node']) {
  test(`an upgrade routed through app.routing() once close() has begun is refused 503, as on Fastify [${engine}]`, async () => {
    const theirs = await refusedWhileClosing(Fastify())
    const ours = await refusedWhileClosing(hotpathFastify({ engine }))
    assert.equal(theirs.before, 'upgraded')
    assert.equal(theirs.during.status, 503)
    assert.deepEqual(ours, theirs)
  })
}

/**
 * A GET on a new connection, sent from inside a replaced app.server.close()
 * (close() has begun, the listener is still open): what it gets.
 */
async function requestFromInsideClose (app) {
  app.get('/', async () => ({ served: true }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.server.address().port
  const close = app.server.close
  let during
  app.server.close = function (cb) {
    during = new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let body = ''
        res.on('data', (c) => { body += c })
        res.on('end', () => resolve({ status: res.statusCode, body, type: res.headers['content-type'], connection: res.headers.connection }))
      })
      req.on('error', reject)
    }).finally(() => close.call(this, cb))
  }
  await app.close()
  return during
}

for (const engine of ['wire', 'node']) {
  test(`a request on a connection accepted after close() called the listener's close is refused 503, as on Fastify [${engine}]`, async () => {
    const theirs = await requestFromInsideClose(Fastify())
    const ours = await requestFromInsideClose(hotpathFastify({ engine }))
    assert.equal(theirs.status, 503)
    assert.deepEqual(ours, theirs)
  })
}
