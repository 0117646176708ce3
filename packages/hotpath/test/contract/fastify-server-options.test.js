// Fastify's server defaults and its `http` option (node:http's server
// options, which Fastify hands to http.createServer), beside real Fastify
// in each test, on both HTTP/1.1 engines: the keep-alive time an idle
// connection is given, the connection's fate after a body that cannot be
// read or parsed, and node:http's options taken where they apply (a
// limit becomes hotpath's own, a socket option applies on every engine,
// an option of node:http's own parser applies on the node engine and is
// refused by name on wire).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { SOCKET_MODES } from '../helpers/engines.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/**
 * Writes `text` on a new connection and collects what comes back until the
 * server closes it or 300 ms pass, then whether it had closed.
 * @param {number} port
 * @param {string} text
 * @returns {Promise<{ head: string[], body: string, closed: boolean }>}
 */
function exchange (port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let got = ''
    let closed = false
    socket.setEncoding('latin1')
    socket.on('data', (d) => { got += d })
    socket.on('error', reject)
    socket.on('end', () => { closed = true })
    const timer = setTimeout(() => socket.destroy(), 300)
    socket.on('close', () => {
      clearTimeout(timer)
      const [head, ...rest] = got.split('\r\n\r\n')
      resolve({ head: head.split('\r\n'), body: rest.join('\r\n\r\n'), closed })
    })
    socket.write(text)
  })
}

/**
 * The status line and the named header's value (lower case) of a head.
 * @param {string[]} head
 * @param {string} name
 */
function field (head, name) {
  const line = head.find((l) => l.toLowerCase().startsWith(name + ':'))
  return line === undefined ? null : line.slice(name.length + 1).trim().toLowerCase()
}

/**
 * Builds the same app on Fastify and on hotpath/fastify (in `mode`),
 * listening, and hands both to `trial`; closes them after.
 * @param {string} mode
 * @param {Record<string, any>} options
 * @param {(app: any) => void} build
 * @param {(port: number, app: any) => Promise<unknown>} trial
 */
async function beside (mode, options, build, trial) {
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const [name, app] of [['fastify', Fastify(options)], ['hotpath', hotpathFastify({ ...options, engine: mode })]]) {
    try {
      build(app)
      await app.listen({ port: 0, host: '127.0.0.1' })
      out[name] = await trial(app.server.address().port, app)
    } finally {
      await app.close()
    }
  }
  return out
}

const JSON_ROUTE = (/** @type {any} */ app) => { app.post('/j', async (/** @type {any} */ req) => req.body ?? null) }

for (const mode of SOCKET_MODES) {
  // keepAliveTimeout: 0 (or null) is Fastify's default too, as its `||` reads it
  for (const options of [{}, { keepAliveTimeout: 0 }, { keepAliveTimeout: null }]) {
    test(`an idle keep-alive connection is kept as Fastify keeps it, ${JSON.stringify(options)} [${mode}]`, async () => {
      const out = await beside(mode, options, JSON_ROUTE, async (port, app) => {
        const { head } = await exchange(port, 'POST /j HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}')
        return { keepAlive: field(head, 'keep-alive'), connection: field(head, 'connection'), initial: app.initialConfig.keepAliveTimeout }
      })
      assert.deepEqual(out.hotpath, out.fastify)
      assert.deepEqual(out.hotpath, { keepAlive: 'timeout=72', connection: 'keep-alive', initial: 72_000 })
    })
  }

  for (const [name, request] of [
    ['an empty JSON body', 'POST /j HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n'],
    ['a JSON body that does not parse', 'POST /j HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{x}'],
    ['a body past the limit', 'POST /j HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"a":"0123456789ab"}'],
    ['a body of an unknown type', 'POST /j HTTP/1.1\r\nHost: x\r\nContent-Type: text/unknown\r\nContent-Length: 3\r\n\r\nabc']
  ]) {
    test(`after ${name}, the connection's fate is Fastify's [${mode}]`, async () => {
      const out = await beside(mode, { bodyLimit: 16 }, JSON_ROUTE, async (port) => {
        const { head, closed } = await exchange(port, request)
        return { status: head[0], connection: field(head, 'connection'), closed }
      })
      assert.deepEqual(out.hotpath, out.fastify)
    })
  }

  test(`http: node:http's limits and socket options are taken [${mode}]`, async () => {
    const http = { headersTimeout: 15_000, keepAliveTimeout: 1_000, requestTimeout: 20_000, noDelay: true, keepAlive: true, keepAliveInitialDelay: 1_000 }
    const out = await beside(mode, { http }, JSON_ROUTE, async (port) => {
      const { head } = await exchange(port, 'POST /j HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}')
      // Fastify's own keepAliveTimeout (72 s) and requestTimeout (0) are
      // set on the server after it is made, over http's
      return { status: head[0], keepAlive: field(head, 'keep-alive') }
    })
    assert.deepEqual(out.hotpath, out.fastify)
    const app = hotpathFastify({ http, engine: mode })
    assert.equal(app.initialConfig.headersTimeout, 15_000)
    await app.close()
  })
}

test("http: an option of node:http's own parser applies on the node engine, as on Fastify", async () => {
  const out = await beside('node', { http: { joinDuplicateHeaders: true } }, (app) => {
    app.get('/h', async (/** @type {any} */ req) => ({ seen: req.headers['user-agent'] }))
  }, async (port) => {
    const res = await exchange(port, 'GET /h HTTP/1.1\r\nHost: x\r\nUser-Agent: 1\r\nUser-Agent: 2\r\nConnection: close\r\n\r\n')
    return [res.head[0], res.body]
  })
  assert.deepEqual(out.hotpath, out.fastify)
  // node:http keeps the first of a duplicated User-Agent unless it joins them
  assert.deepEqual(out.hotpath, ['HTTP/1.1 200 OK', '{"seen":"1, 2"}'])
})

test("http: on wire, an option of node:http's own parser is refused, named", () => {
  assert.throws(() => hotpathFastify({ http: { joinDuplicateHeaders: true } }), (/** @type {any} */ err) => {
    assert.equal(err.code, 'HP_ERR_UNSUPPORTED_OPTION')
    assert.match(err.message, /http\.joinDuplicateHeaders/)
    assert.match(err.message, /engine: 'node'/)
    return true
  })
  assert.throws(() => hotpathFastify({ http: { IncomingMessage: class {} }, engine: 'node' }), /http\.IncomingMessage/)
})
