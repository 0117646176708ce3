// The health route and close() with `drain`: the shutdown a load balancer
// needs (docs/operations.md). The health route answers before shedding,
// routing and hooks; close() with drain keeps serving for its delay (the
// health route answering 503), then stops accepting, answers every request
// that still arrives with Connection: close, and closes no idle connection
// under its client.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'

eachMode('health route', (mode) => {
  test('GET and HEAD of the path answer 200 {"status":"ok"}, before hooks, not cached; other methods are routed', async () => {
    const s = await setup(mode, (app) => {
      // an authentication hook refuses everything the routes get
      app.addHook('onRequest', async (_req, reply) => { reply.code(401).send({ error: 'no' }) })
      app.post('/health', async () => 'posted')
    }, { health: '/health' })
    try {
      const res = await s.request('/health')
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), { status: 'ok' })
      assert.equal(res.headers['cache-control'], 'no-store')
      assert.match(res.headers['content-type'], /^application\/json/)
      const withQuery = await s.request('/health?probe=k8s')
      assert.equal(withQuery.statusCode, 200)
      const head = await s.request({ method: 'HEAD', url: '/health' })
      assert.equal(head.statusCode, 200)
      assert.equal(head.body, '')
      // another method, and a longer path, go through the routes and their hooks
      assert.equal((await s.request({ method: 'POST', url: '/health' })).statusCode, 401)
      assert.equal((await s.request('/healthz')).statusCode, 401)
    } finally {
      await s.close()
    }
  })

  test('answered while the process is overloaded and everything else is shed', async () => {
    const s = await setup(mode, (app) => {
      app.get('/', () => 'ok')
    }, { health: { path: '/ready' }, load: { maxRssBytes: 1, sampleInterval: 60_000 } })
    try {
      s.app._core.loadMonitor.sample()
      assert.equal(s.app.load.overloaded, true)
      assert.equal((await s.request('/')).statusCode, 503)
      const res = await s.request('/ready')
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), { status: 'overloaded' })
    } finally {
      await s.close()
    }
  })
})

test('options: health and drain are checked when the app is made', () => {
  for (const health of ['health', '/a b', '/x?y', 42, { path: 1 }]) {
    assert.throws(() => hotpath({ health }), { code: 'HP_ERR_INVALID_OPTION' }, JSON.stringify(health))
  }
  for (const drain of [1, 'yes', { delay: -1 }, { delay: 1.5 }, { wait: 1 }, []]) {
    assert.throws(() => hotpath({ drain }), { code: 'HP_ERR_INVALID_OPTION' }, JSON.stringify(drain))
  }
  assert.doesNotThrow(() => hotpath({ health: false, drain: false }))
  assert.doesNotThrow(() => hotpath({ health: '/h', drain: { delay: 0 } }))
  assert.doesNotThrow(() => fastify({ health: '/h', drain: true }))
})

test('inject: requests are served while the drain delay runs, refused once it is over', async () => {
  const app = hotpath({ drain: { delay: 200 }, health: '/health' })
  app.get('/', () => 'ok')
  await app.ready()
  const closing = app.close()
  const during = await app.inject('/')
  assert.equal(during.statusCode, 200)
  const health = await app.inject('/health')
  assert.equal(health.statusCode, 503)
  assert.deepEqual(health.json(), { status: 'draining' })
  await closing
  await assert.rejects(app.inject('/'), { code: 'HP_ERR_CLOSED' })
})

/**
 * A raw keep-alive connection: send a request, read exactly one response.
 * @param {number} port
 */
async function rawClient (port) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let buffer = ''
  /** @type {(() => void) | null} */
  let wake = null
  let closed = false
  socket.on('data', (d) => { buffer += d; wake?.() })
  socket.on('close', () => { closed = true; wake?.() })
  socket.on('error', () => {})
  return {
    socket,
    get closed () { return closed },
    /**
     * @param {string} path
     * @returns {Promise<{ status: number, head: string, body: string }>}
     */
    async get (path) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: a\r\n\r\n`)
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end !== -1) {
          const head = buffer.slice(0, end)
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0)
          if (buffer.length >= end + 4 + length) {
            const body = buffer.slice(end + 4, end + 4 + length)
            buffer = buffer.slice(end + 4 + length)
            return { status: Number(head.split(' ')[1]), head, body }
          }
        }
        if (closed) throw new Error(`connection closed before a response; got ${JSON.stringify(buffer)}`)
        await new Promise((resolve) => { wake = () => { wake = null; resolve(null) } })
      }
    }
  }
}

/**
 * Whether a new connection to the port is accepted.
 * @param {number} port
 * @returns {Promise<string>}
 */
function connectOutcome (port) {
  return new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1')
    c.on('connect', () => { c.destroy(); resolve('connected') })
    c.on('error', (/** @type {any} */ err) => resolve(err.code))
  })
}

// Off h2: Connection: close on open HTTP/1.1 connections and their keep-alive
// timeout; h2's close() is tested in test/h2 and test/engines.
eachMode('close() with drain', (mode) => {
  for (const [entry, make] of /** @type {const} */ ([['hotpath', hotpath], ['hotpath/fastify', fastify]])) {
    test(`${entry}: serves through the delay (health 503), then refuses new connections and answers on open ones with Connection: close`, async () => {
      const app = make({ engine: mode, drain: { delay: 300 }, health: '/health', logger: false })
      app.get('/x', async () => ({ ok: true }))
      await app.listen({ port: 0, host: '127.0.0.1' })
      const port = app.server.address().port
      const busy = await rawClient(port)
      const idle = await rawClient(port)
      assert.equal((await idle.get('/x')).status, 200)
      assert.equal((await busy.get('/health')).status, 200)
      let closed = false
      const closing = app.close().then(() => { closed = true })
      // the delay: the health route says draining, everything else is served, keep-alive
      const draining = await busy.get('/health')
      assert.equal(draining.status, 503)
      assert.deepEqual(JSON.parse(draining.body), { status: 'draining' })
      const during = await busy.get('/x')
      assert.equal(during.status, 200)
      assert.match(during.head, /connection: keep-alive/i)
      assert.equal(await connectOutcome(port), 'connected')
      // after the delay the listener closes: connections are refused (one
      // the kernel took as the listener closed is reset, unserved)
      let outcome = 'connected'
      while (outcome !== 'ECONNREFUSED') {
        outcome = await connectOutcome(port)
        assert.ok(['connected', 'ECONNRESET', 'ECONNREFUSED'].includes(outcome), outcome)
        if (outcome !== 'ECONNREFUSED') await new Promise((resolve) => setTimeout(resolve, 20))
      }
      // a connection idle since before the close is still open, and the
      // request its client sends on it is served, its last
      assert.equal(idle.closed, false)
      assert.equal(closed, false)
      const last = await idle.get('/x')
      assert.equal(last.status, 200)
      assert.deepEqual(JSON.parse(last.body), { ok: true })
      assert.match(last.head, /connection: close/i)
      await once(idle.socket, 'close')
      // the other connection is its client's to close: close() waits for it
      assert.equal(closed, false)
      const lastBusy = await busy.get('/x')
      assert.equal(lastBusy.status, 200)
      assert.match(lastBusy.head, /connection: close/i)
      await once(busy.socket, 'close')
      await closing
      assert.equal(closed, true)
    })
  }

  test('a response in flight when the listener closes goes out with Connection: close', async () => {
    /** @type {() => void} */
    let release = () => {}
    /** @type {() => void} */
    let entered = () => {}
    const started = new Promise((resolve) => { entered = () => resolve(null) })
    const app = hotpath({ engine: mode, drain: true })
    app.get('/slow', async () => {
      entered()
      await new Promise((resolve) => { release = () => resolve(null) })
      return { slow: true }
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    const client = await rawClient(port)
    const answer = client.get('/slow')
    await started
    const closing = app.close()
    while (await connectOutcome(port) === 'connected') await new Promise((resolve) => setTimeout(resolve, 10))
    release()
    const res = await answer
    assert.equal(res.status, 200)
    assert.deepEqual(JSON.parse(res.body), { slow: true })
    assert.match(res.head, /connection: close/i)
    await once(client.socket, 'close')
    await closing
  })

  // The kernel completes a handshake on its own and queues the connection
  // until the process accepts it, and libuv accepts one per turn: closing
  // the listener resets what waits there, requests included (a balancer
  // answers such a POST 502). Another process opens the connections and
  // sends a request on each while this one is busy, so they all wait in the
  // queue when close() begins.
  // Without drain too: their clients sent the request before close(), as on
  // a connection open then, and hotpath/fastify (as Fastify) reset them.
  // They are held until the listener has closed, and served then: one
  // served while it is open keeps its connection alive, and a balancer
  // sends its next requests on it and opens new connections meanwhile,
  // which fill the queue again (on the node engine, node:http read a
  // connection paused as it was accepted all the same).
  for (const drain of [true, false]) test(`connections waiting in the listener's queue when close() begins are served once it has closed, not reset (drain: ${drain})`, { skip: process.platform !== 'linux' && 'the queue is read from /proc/net/tcp (Linux)' }, async () => {
    const app = hotpath({ engine: mode, drain, logger: false })
    let servedWhileListening = 0
    app.post('/items', async (req) => {
      if (app.server.listening) servedWhileListening++
      return { got: /** @type {any} */ (req.body).n }
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    const dir = mkdtempSync(join(tmpdir(), 'hotpath-drain-queue-'))
    const marker = join(dir, 'sent')
    const count = 20
    // the child connects, sends, writes the marker, then reports each outcome
    const child = spawn(process.execPath, ['-e', `
      const net = require('node:net'), fs = require('node:fs')
      const outcomes = []
      let sent = 0
      process.once('message', () => {
        for (let i = 0; i < ${count}; i++) {
          const body = JSON.stringify({ n: i })
          const s = net.connect(${port}, '127.0.0.1', () => {
            s.write('POST /items HTTP/1.1\\r\\nHost: a\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + body.length + '\\r\\n\\r\\n' + body, () => {
              if (++sent === ${count}) fs.writeFileSync(${JSON.stringify(marker)}, '')
            })
          })
          let got = ''
          let error = null
          s.on('data', (d) => { got += d })
          s.on('error', (err) => { error = err.code })
          s.on('close', () => {
            const status = /^HTTP\\/1\\.1 (\\d+)/.exec(got)
            outcomes.push(error ?? (status ? status[1] + (got.includes('{"got":' + i + '}') ? '' : ' wrong body') : 'closed unanswered'))
            if (outcomes.length === ${count}) process.send(outcomes, () => process.exit(0))
          })
        }
      })
      process.send('ready')
    `], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    try {
      await once(child, 'message')
      child.send('go')
      // busy until every request is sent: the connections wait in the queue
      const end = Date.now() + 10_000
      while (!existsSync(marker) && Date.now() < end) {}
      assert.ok(existsSync(marker), 'the child sent its requests')
      const closing = app.close()
      const [outcomes] = await once(child, 'message')
      await closing
      assert.deepEqual(outcomes, Array(count).fill('200'))
      assert.equal(servedWhileListening, 0, 'requests served before the listener closed')
    } finally {
      child.kill()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('an idle connection its client keeps is closed at its keep-alive timeout, and close() resolves', async () => {
    const app = hotpath({ engine: mode, drain: true, keepAliveTimeout: 300 })
    app.get('/x', () => 'ok')
    await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await rawClient(app.server.address().port)
    assert.equal((await client.get('/x')).status, 200)
    await app.close()
    // the server closed it: the client sees its end
    if (!client.closed) await once(client.socket, 'close')
    assert.equal(client.socket.readableEnded || client.socket.destroyed, true)
  })
}, SOCKET_MODES)
