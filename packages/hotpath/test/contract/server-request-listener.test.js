// app.server's 'request' listener, as code that attaches to the server
// sees it. On Fastify the server has one, the app: socket.io and
// engine.io save `server.listeners('request')`, remove them, and install
// their own listener, which answers their path and hands every other
// request to the saved ones. A differential test: the same app and the
// same wrapper on Fastify and on hotpath/fastify's engines (wire, node,
// h2), the answers compared; then what no answer may do twice, and
// socket.io itself attached to app.server, long-polling first, then
// upgraded to a WebSocket.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { engineOption, httpRequest, H2Client } from '../helpers/engines.js'
import { exchange, responses } from '../wire/util.js'
import { selfSigned } from '../helpers/tls.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')
const { Server: SocketIoServer } = require('socket.io')
const { io: connectSocketIo } = require('socket.io-client')

/** @typedef {'fastify' | 'wire' | 'node' | 'fastify-h2' | 'h2'} Kind */

/** hotpath's engines, each beside the Fastify it is compared with */
const PAIRS = /** @type {const} */ ([['fastify', 'wire'], ['fastify', 'node'], ['fastify-h2', 'h2']])

/** @param {Kind} kind */
function isH2 (kind) {
  return kind === 'h2' || kind === 'fastify-h2'
}

/** @param {Kind} kind */
function create (kind) {
  if (kind === 'fastify') return Fastify()
  if (kind === 'fastify-h2') return Fastify({ http2: true })
  return hotpathFastify(engineOption(kind))
}

/**
 * The same routes on either framework.
 * @param {any} app
 */
function routes (app) {
  app.addHook('onRequest', async (/** @type {any} */ req, /** @type {any} */ reply) => { reply.header('x-hook', 'app') })
  app.get('/hello', () => ({ hello: 'world' }))
  app.post('/echo', (/** @type {any} */ req) => req.body)
  app.get('/async', async () => {
    await new Promise((resolve) => setImmediate(resolve))
    return { later: true }
  })
}

/**
 * What engine.io's Server#attach does with the server (socket.io's
 * attach calls it): the request listeners saved and removed, and one of
 * its own that answers `path` (reading a POST's body first, as its
 * long-polling does) and hands every other request to the saved ones.
 * @param {any} server
 * @param {string} path
 */
function attachLikeEngineIo (server, path) {
  const listeners = server.listeners('request').slice(0)
  server.removeAllListeners('request')
  server.on('request', (/** @type {any} */ req, /** @type {any} */ res) => {
    if (path === req.url.slice(0, path.length)) {
      /** @type {Buffer[]} */
      const chunks = []
      req.on('data', (/** @type {Buffer} */ c) => chunks.push(c))
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(`wrapper ${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`)
      })
    } else {
      for (const listener of listeners) listener.call(server, req, res)
    }
  })
  return listeners
}

/**
 * An app of `kind`, listening, with a client that speaks its protocol.
 * @param {Kind} kind
 * @param {(app: any) => void} [beforeListen]  what to do with app.server before listen()
 */
async function start (kind, beforeListen) {
  const app = create(kind)
  routes(app)
  const atCreation = app.server.listeners('request').length
  if (beforeListen !== undefined) beforeListen(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.server.address().port
  const h2 = isH2(kind) ? new H2Client(port) : null
  return {
    app,
    port,
    atCreation,
    /** @param {{ method?: string, url: string, headers?: Record<string, any>, payload?: any }} o */
    async request (o) {
      const r = h2 !== null ? await h2.request(o) : await httpRequest(port, o)
      return { status: r.statusCode, type: r.headers['content-type'], hook: r.headers['x-hook'] ?? null, body: r.body }
    },
    async close () {
      if (h2 !== null) await h2.close()
      await app.close()
    }
  }
}

const REQUESTS = [
  { url: '/engine.io/?EIO=4&transport=polling' },
  { method: 'POST', url: '/engine.io/?EIO=4&transport=polling&sid=1', headers: { 'content-type': 'text/plain' }, payload: '40' },
  { url: '/hello' },
  { method: 'POST', url: '/echo', payload: { a: 1 } },
  { url: '/async' },
  { url: '/missing' }
]

/**
 * Each request of REQUESTS, answered by an app of `kind`.
 * @param {Kind} kind
 * @param {(app: any) => void} [beforeListen]
 */
async function answers (kind, beforeListen) {
  const s = await start(kind, beforeListen)
  try {
    const out = []
    for (const o of REQUESTS) {
      const r = await s.request(o)
      // Fastify's 404 body names the route; the framework's own words are not compared
      out.push(r.status === 404 ? { ...r, body: '' } : r)
    }
    return { atCreation: s.atCreation, atListen: s.app.server.listeners('request').length, answers: out }
  } finally {
    await s.close()
  }
}

for (const [fastifyKind, kind] of PAIRS) {
  describe(`app.server's 'request' listener [${kind}]`, () => {
    test("the server has one 'request' listener, from the app's creation, as on Fastify", async () => {
      const expected = await answers(fastifyKind)
      const got = await answers(kind)
      assert.equal(expected.atCreation, 1)
      assert.equal(expected.atListen, 1)
      assert.equal(got.atCreation, 1)
      assert.equal(got.atListen, 1)
      assert.deepEqual(got.answers, expected.answers)
    })

    test("a wrapper installed as engine.io's attach does answers its path; the saved listener, the app, answers the rest", async () => {
      /** @type {number[]} */
      const saved = []
      const wrap = (/** @type {any} */ app) => { saved.push(attachLikeEngineIo(app.server, '/engine.io').length) }
      const expected = await answers(fastifyKind, wrap)
      const got = await answers(kind, wrap)
      assert.deepEqual(saved, [1, 1])
      assert.deepEqual(got.answers, expected.answers)
      assert.equal(got.answers[0].body, 'wrapper GET /engine.io/?EIO=4&transport=polling ')
      assert.equal(got.answers[1].body, 'wrapper POST /engine.io/?EIO=4&transport=polling&sid=1 40')
      assert.deepEqual(JSON.parse(got.answers[3].body), { a: 1 })
      assert.equal(got.answers[4].hook, 'app')
    })

    test('a listener added beside the app sees every request, and the app still answers each', async () => {
      /** @type {Record<string, string[]>} */
      const seen = { [fastifyKind]: [], [kind]: [] }
      /** @param {Kind} k */
      const observe = (k) => (/** @type {any} */ app) => {
        app.server.prependListener('request', (/** @type {any} */ req) => { seen[k].push(req.url) })
      }
      const expected = await answers(fastifyKind, observe(fastifyKind))
      const got = await answers(kind, observe(kind))
      assert.deepEqual(got.answers, expected.answers)
      assert.deepEqual(seen[kind], seen[fastifyKind])
      assert.equal(seen[kind].length, REQUESTS.length)
    })
  })
}

// Over HTTP/1.1 bytes: what goes out for each request, and nothing twice.
for (const kind of /** @type {const} */ (['fastify', 'wire', 'node'])) {
  test(`[${kind}] behind the wrapper, each pipelined request gets one answer, from the wrapper or from the app`, async () => {
    const s = await start(kind, (app) => attachLikeEngineIo(app.server, '/engine.io'))
    try {
      const { text } = await exchange(s.port, 'GET /engine.io/x HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /engine.io/y HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      const got = responses(text)
      assert.deepEqual(got.map((r) => [r.status, r.body]), [[200, 'wrapper GET /engine.io/x '], [200, '{"hello":"world"}'], [200, 'wrapper GET /engine.io/y ']])
      assert.equal(text.split('HTTP/1.1 ').length - 1, 3)
    } finally {
      await s.close()
    }
  })
}

/**
 * Collects the process warnings with `code` until the returned function is called.
 * @param {string} code
 */
function warnings (code) {
  /** @type {string[]} */
  const got = []
  const onWarning = (/** @type {any} */ w) => { if (w.code === code) got.push(w.message) }
  process.on('warning', onWarning)
  return async () => {
    // process warnings are emitted on the next tick
    await new Promise((resolve) => setImmediate(resolve))
    process.removeListener('warning', onWarning)
    return got
  }
}

describe('a request answered twice never ends the process', () => {
  for (const kind of /** @type {const} */ (['wire', 'node', 'h2'])) {
    test(`[${kind}] a listener that answers, then hands the request to the app as well: the app leaves it alone and says so`, async () => {
      const s = await start(kind, (app) => {
        const listeners = app.server.listeners('request')
        app.server.removeAllListeners('request')
        app.server.on('request', (/** @type {any} */ req, /** @type {any} */ res) => {
          if (req.url === '/both') {
            res.writeHead(200, { 'content-type': 'text/plain' })
            res.end('wrapper')
          }
          for (const listener of listeners) listener.call(app.server, req, res)
        })
      })
      const stop = warnings('HP_ERR_REP_ALREADY_SENT')
      try {
        const both = await s.request({ url: '/both' })
        const hello = await s.request({ url: '/hello' })
        assert.deepEqual([both.status, both.body], [200, 'wrapper'])
        assert.deepEqual([hello.status, hello.body], [200, '{"hello":"world"}'])
      } finally {
        await s.close()
      }
      const said = await stop()
      assert.equal(said.length, 1)
      assert.match(said[0], /GET \/both .*already been answered/)
    })

    test(`[${kind}] the app's listener called twice for one request: routed once, answered once`, async () => {
      let runs = 0
      const s = await start(kind, (app) => {
        app.addHook('onResponse', async (/** @type {any} */ req) => { if (req.url === '/async') runs++ })
        const listeners = app.server.listeners('request')
        app.server.removeAllListeners('request')
        app.server.on('request', (/** @type {any} */ req, /** @type {any} */ res) => {
          for (const listener of [...listeners, ...listeners]) listener.call(app.server, req, res)
        })
      })
      const stop = warnings('HP_ERR_REP_ALREADY_SENT')
      try {
        const r = await s.request({ url: '/async' })
        assert.deepEqual([r.status, r.body], [200, '{"later":true}'])
      } finally {
        await s.close()
      }
      const said = await stop()
      assert.equal(runs, 1)
      assert.equal(said.length, 1)
      assert.match(said[0], /GET \/async .*already been handed to the app/)
    })
  }

  for (const kind of /** @type {const} */ (['fastify', 'wire', 'node', 'fastify-h2', 'h2'])) {
    test(`[${kind}] a listener that answers while the app is still at work: the app's late answer is dropped, the client has the listener's`, async () => {
      /** @type {() => void} */
      let open = () => {}
      const gate = new Promise((resolve) => { open = () => resolve(undefined) })
      let handled = false
      const s = await start(kind, (app) => {
        app.get('/late', async () => {
          await gate
          handled = true
          return { late: true }
        })
        const listeners = app.server.listeners('request')
        app.server.removeAllListeners('request')
        app.server.on('request', (/** @type {any} */ req, /** @type {any} */ res) => {
          for (const listener of listeners) listener.call(app.server, req, res)
          if (req.url === '/late') {
            setImmediate(() => {
              res.writeHead(202, { 'content-type': 'text/plain' })
              res.end('first')
              res.on('finish', open)
            })
          }
        })
      })
      try {
        const r = await s.request({ url: '/late' })
        assert.deepEqual([r.status, r.body], [202, 'first'])
        // the app's answer came after, and went nowhere
        await gate
        while (!handled) await new Promise((resolve) => setImmediate(resolve))
        const hello = await s.request({ url: '/hello' })
        assert.deepEqual([hello.status, hello.body], [200, '{"hello":"world"}'])
      } finally {
        await s.close()
      }
    })
  }
})

/**
 * socket.io attached to app.server; a client of socket.io's connects
 * (long-polling first, then upgraded to a WebSocket, unless `transports`
 * says otherwise), sends an event and gets its acknowledgement.
 * @param {Kind} kind
 * @param {string[]} [transports]  the client's
 */
async function socketIoSession (kind, transports) {
  /** @type {any} */
  let io = null
  /** @type {string[]} */
  const seen = []
  const s = await start(kind, (app) => {
    io = new SocketIoServer(app.server)
    io.engine.on('connection', (/** @type {any} */ socket) => {
      seen.push(`open:${socket.transport.name}`)
      socket.on('upgrade', (/** @type {any} */ transport) => seen.push(`upgrade:${transport.name}`))
    })
    io.on('connection', (/** @type {any} */ socket) => {
      seen.push(`secure:${socket.handshake.secure}`)
      socket.on('greet', (/** @type {string} */ name, /** @type {Function} */ ack) => ack(`hello ${name}`))
    })
  })
  const client = connectSocketIo(`http://127.0.0.1:${s.port}`, { reconnection: false, forceNew: true, ...(transports ? { transports } : {}) })
  try {
    await Promise.race([once(client, 'connect'), once(client, 'connect_error').then(([err]) => { throw err })])
    // the first exchange goes on whatever transport is open; the second once
    // the client has upgraded (at once, with a WebSocket-only client)
    const first = await client.timeout(5000).emitWithAck('greet', 'polling')
    if (client.io.engine.transport.name !== 'websocket') await once(client.io.engine, 'upgrade')
    const second = await client.timeout(5000).emitWithAck('greet', 'websocket')
    const plain = await s.request({ url: '/hello' })
    return { seen, acks: [first, second], transport: client.io.engine.transport.name, plain: [plain.status, plain.body] }
  } finally {
    client.close()
    io.close()
    await s.close()
  }
}

describe('socket.io attached to app.server', () => {
  /** Fastify's sessions, each made once, for the engines to be compared with @type {Record<string, any>} */
  const fastify = {}
  for (const kind of /** @type {const} */ (['wire', 'node'])) {
    test(`[${kind}] its default client connects, long-polling then upgraded, and exchanges events; the routes still answer`, async () => {
      fastify.default ??= await socketIoSession('fastify')
      const got = await socketIoSession(kind)
      assert.deepEqual(fastify.default.seen, ['open:polling', 'secure:false', 'upgrade:websocket'])
      assert.deepEqual(got, fastify.default)
      assert.deepEqual(got.acks, ['hello polling', 'hello websocket'])
      assert.deepEqual(got.plain, [200, '{"hello":"world"}'])
    })

    test(`[${kind}] a WebSocket-only client: the handshake reads the upgrade request (req.connection)`, async () => {
      fastify.websocket ??= await socketIoSession('fastify', ['websocket'])
      const got = await socketIoSession(kind, ['websocket'])
      assert.deepEqual(fastify.websocket.seen, ['open:websocket', 'secure:false'])
      assert.deepEqual(got, fastify.websocket)
    })
  }
})

// h2 with allowHTTP1: HTTP/1.1 on the TLS port is served by wire, whose
// requests reach app.server's listeners as the h2 ones do.
const tls = selfSigned()
test('[h2, TLS with allowHTTP1] socket.io attached to app.server: its client connects over HTTP/1.1, long-polling then upgraded, as on Fastify', { skip: tls === null ? 'no openssl to make a certificate' : false }, async () => {
  /** @param {'fastify' | 'hotpath'} which */
  async function session (which) {
    const options = { http2: true, https: { allowHTTP1: true, ...tls } }
    const app = which === 'fastify' ? Fastify(options) : hotpathFastify(options)
    app.get('/hello', () => ({ hello: 'world' }))
    const io = new SocketIoServer(app.server)
    /** @type {string[]} */
    const seen = []
    io.engine.on('connection', (/** @type {any} */ socket) => {
      seen.push(`open:${socket.transport.name}`)
      socket.on('upgrade', (/** @type {any} */ transport) => seen.push(`upgrade:${transport.name}`))
    })
    io.on('connection', (/** @type {any} */ socket) => {
      seen.push(`secure:${socket.handshake.secure}`)
      socket.on('greet', (/** @type {string} */ name, /** @type {Function} */ ack) => ack(`hello ${name}`))
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const listeners = app.server.listeners('request').length
    const client = connectSocketIo(`https://127.0.0.1:${app.server.address().port}`, { reconnection: false, forceNew: true, rejectUnauthorized: false })
    try {
      await Promise.race([once(client, 'connect'), once(client, 'connect_error').then(([err]) => { throw err })])
      const first = await client.timeout(5000).emitWithAck('greet', 'polling')
      if (client.io.engine.transport.name !== 'websocket') await once(client.io.engine, 'upgrade')
      const second = await client.timeout(5000).emitWithAck('greet', 'websocket')
      return { listeners, seen, acks: [first, second] }
    } finally {
      client.close()
      io.close()
      await app.close()
    }
  }
  const expected = await session('fastify')
  assert.deepEqual(expected, { listeners: 1, seen: ['open:polling', 'secure:true', 'upgrade:websocket'], acks: ['hello polling', 'hello websocket'] })
  assert.deepEqual(await session('hotpath'), expected)
})

describe("the request an 'upgrade' listener gets has node:http's members", () => {
  /**
   * @param {Kind} kind
   */
  async function upgradeRequest (kind) {
    /** @type {Record<string, unknown>} */
    let seen = {}
    const s = await start(kind, (app) => {
      app.server.on('upgrade', (/** @type {any} */ req, /** @type {any} */ socket) => {
        seen = {
          connection: req.connection === req.socket,
          client: req.client === req.socket,
          encrypted: Boolean(req.connection.encrypted),
          remoteAddress: req.connection.remoteAddress,
          httpVersion: req.httpVersion,
          httpVersionMajor: req.httpVersionMajor,
          httpVersionMinor: req.httpVersionMinor,
          upgrade: req.upgrade
        }
        socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: raw\r\n\r\n')
      })
    })
    try {
      const { text } = await exchange(s.port, 'GET /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: raw\r\n\r\n')
      assert.match(text, /^HTTP\/1\.1 101 /)
    } finally {
      await s.close()
    }
    return seen
  }

  for (const kind of /** @type {const} */ (['wire', 'node'])) {
    test(`[${kind}] connection and client (node's aliases of socket), and the version's numbers, as on Fastify`, async () => {
      const expected = await upgradeRequest('fastify')
      assert.deepEqual(expected, { connection: true, client: true, encrypted: false, remoteAddress: '127.0.0.1', httpVersion: '1.1', httpVersionMajor: 1, httpVersionMinor: 1, upgrade: true })
      assert.deepEqual(await upgradeRequest(kind), expected)
    })
  }
})
