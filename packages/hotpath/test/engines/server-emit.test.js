// wire and inject hand each request to http.Server.prototype.emit while an
// instrumentation has wrapped it (lib/engines/server-emit.js), with
// node:http-like objects that carry what it reads, and the answer is the
// same, byte for byte, as without it. The wrapper here is what
// instrumentation-http's is, reduced: it sees 'request', listens to the
// response, and calls node's emit.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { once, errorMonitor } from 'node:events'
import { Readable } from 'node:stream'
import hotpath from '../../lib/index.js'

const original = http.Server.prototype.emit

/**
 * @typedef {{ target: unknown, method: string, url: string, host: unknown, httpVersion: string, remoteAddress: unknown, events: string[], statusAtClose?: number, typeAtClose?: unknown, namesAtClose?: string[], hasTypeAtClose?: boolean }} Seen
 */

/** @type {Seen[]} */
const seen = []
/** @type {(() => void) | null} */
let onClose = null

/**
 * @this {any}
 * @param {string | symbol} event
 * @param {...any} args
 */
function wrappedEmit (event, ...args) {
  if (event !== 'request') return original.call(this, event, ...args)
  const [req, res] = args
  /** @type {Seen} */
  const entry = { target: this, method: req.method, url: req.url, host: req.headers.host, httpVersion: req.httpVersion, remoteAddress: req.socket.remoteAddress, events: [] }
  seen.push(entry)
  res.on('finish', () => entry.events.push('finish'))
  res.on(errorMonitor, () => entry.events.push('error'))
  res.on('close', () => {
    entry.events.push('close')
    entry.statusAtClose = res.statusCode
    entry.typeAtClose = res.getHeader('content-type')
    entry.namesAtClose = res.getHeaderNames()
    entry.hasTypeAtClose = res.hasHeader('content-type')
    onClose?.()
  })
  return original.call(this, event, ...args)
}

/** @param {any} app */
function routes (app) {
  app.get('/json/:id', (/** @type {any} */ req) => ({ id: req.params.id }))
  app.get('/async', async () => 'later')
  app.get('/stream', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('text/plain').send(Readable.from(['a', 'b', 'c'])) })
  app.get('/raw-header', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.setHeader('x-raw', 'yes')
    return 'raw'
  })
  app.get('/fails', () => { throw Object.assign(new Error('nope'), { statusCode: 503 }) })
  app.get('/never', () => new Promise(() => {}))
}

const PIPELINE = [
  'GET /json/1 HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /async HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /stream HTTP/1.1\r\nHost: x\r\n\r\n',
  'HEAD /json/2 HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /raw-header HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /fails HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
].join('')

/**
 * Every byte the server sends back to PIPELINE, Date lines left out.
 * @param {number} port
 */
async function exchange (port) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  /** @type {Buffer[]} */
  const chunks = []
  socket.on('data', (c) => chunks.push(c))
  socket.write(PIPELINE)
  await once(socket, 'close')
  return Buffer.concat(chunks).toString('latin1').replace(/^Date: .*\r\n/gim, '')
}

/** @param {import('node:net').AddressInfo | string | null} address */
function portOf (address) {
  return /** @type {import('node:net').AddressInfo} */ (address).port
}

describe('wire, with http.Server.prototype.emit wrapped', () => {
  /** @type {any} */
  let app
  before(async () => {
    app = hotpath({ engine: 'wire' })
    routes(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(async () => {
    http.Server.prototype.emit = original
    await app.close()
  })

  test('the bytes on the wire are the same, and the wrapper saw every request', async () => {
    seen.length = 0
    http.Server.prototype.emit = original
    const plain = await exchange(portOf(app.server.address()))
    assert.equal(seen.length, 0)
    http.Server.prototype.emit = wrappedEmit
    const wrapped = await exchange(portOf(app.server.address()))
    http.Server.prototype.emit = original
    assert.equal(wrapped, plain)
    assert.match(plain, /^HTTP\/1\.1 200 OK/)
    assert.deepEqual(seen.map((s) => `${s.method} ${s.url}`), ['GET /json/1', 'GET /async', 'GET /stream', 'HEAD /json/2', 'GET /raw-header', 'GET /fails', 'GET /missing'])
    for (const s of seen) {
      // emitted by app.server, as node:http's server emits
      assert.equal(s.target, app.server)
      assert.equal(s.host, 'x')
      assert.equal(s.httpVersion, '1.1')
      assert.equal(s.remoteAddress, '127.0.0.1')
      assert.deepEqual(s.events, ['finish', 'close'])
    }
    assert.deepEqual(seen.map((s) => s.statusAtClose), [200, 200, 200, 200, 200, 503, 404])
    assert.equal(seen[0].typeAtClose, 'application/json; charset=utf-8')
    // the other header readers agree with getHeader()
    assert.equal(seen[0].hasTypeAtClose, true)
    assert.ok(seen[0].namesAtClose.includes('content-type'), String(seen[0].namesAtClose))
    assert.equal(seen[2].typeAtClose, 'text/plain')
    seen.length = 0
  })

  test('a client that leaves: the response closes without finishing', async () => {
    seen.length = 0
    http.Server.prototype.emit = wrappedEmit
    const socket = net.connect(portOf(app.server.address()), '127.0.0.1')
    await once(socket, 'connect')
    const closed = new Promise((resolve) => { onClose = () => resolve(undefined) })
    socket.write('GET /never HTTP/1.1\r\nHost: x\r\n\r\n')
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve))
    socket.destroy()
    await closed
    onClose = null
    http.Server.prototype.emit = original
    assert.deepEqual(seen[0].events, ['close'])
    seen.length = 0
  })
})

describe('inject, with http.Server.prototype.emit wrapped', () => {
  /** @type {any} */
  let app
  before(async () => {
    app = hotpath()
    routes(app)
    await app.ready()
  })
  after(async () => {
    http.Server.prototype.emit = original
    await app.close()
  })

  test('the results are the same, and the wrapper saw every request', async () => {
    seen.length = 0
    const urls = ['/json/1', '/async', '/stream', '/raw-header', '/fails', '/missing']
    /** @param {any} r */
    const comparable = (r) => ({ statusCode: r.statusCode, body: r.body, headers: { ...r.headers, date: undefined } })
    http.Server.prototype.emit = original
    const plain = []
    for (const url of urls) plain.push(comparable(await app.inject(url)))
    http.Server.prototype.emit = wrappedEmit
    const wrapped = []
    for (const url of urls) wrapped.push(comparable(await app.inject(url)))
    http.Server.prototype.emit = original
    assert.deepEqual(wrapped, plain)
    assert.deepEqual(seen.map((s) => s.url), urls)
    for (const s of seen) {
      assert.ok(s.target !== null && typeof s.target === 'object')
      assert.deepEqual(s.events, ['finish', 'close'])
    }
    assert.deepEqual(seen.map((s) => s.statusAtClose), [200, 200, 200, 200, 503, 404])
    seen.length = 0
  })
})
