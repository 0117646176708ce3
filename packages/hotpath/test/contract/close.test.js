// close() under load and with responses that never end: nothing in flight
// is reset, and close() is bounded by closeGraceTimeout.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { Readable } from 'node:stream'
import hotpath from '../../lib/index.js'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'

// Off h2: kept-alive HTTP/1.1 connections through node:http's Agent; h2's
// close() (GOAWAY, sessions) is tested in test/h2 and test/engines.
eachMode('close()', (mode) => {
  test('under load on keep-alive connections: every request is answered 200 or 503, none is reset', async () => {
    const s = await setup(mode, (app) => {
      app.get('/', async () => { await sleep(Math.random() * 3); return { ok: true } })
    })
    const agent = new http.Agent({ keepAlive: true, maxSockets: 30 })
    /** @type {Record<string, number>} */
    const outcomes = {}
    const count = (/** @type {string} */ k) => { outcomes[k] = (outcomes[k] ?? 0) + 1 }
    let stop = false
    const one = () => new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/', agent }, (res) => {
        res.resume()
        res.on('end', () => { count(String(res.statusCode)); resolve(null) })
      })
      req.on('error', (/** @type {any} */ err) => { count(req.reusedSocket ? `${err.code} on a kept-alive connection` : err.code); resolve(null) })
    })
    const loops = Array.from({ length: 30 }, async () => { while (!stop) await one() })
    await sleep(300)
    await s.close()
    stop = true
    await Promise.all(loops)
    agent.destroy()
    assert.ok(outcomes['200'] > 0, JSON.stringify(outcomes))
    // After close() new connections are refused, and one still waiting in
    // the kernel's accept queue when the listener closes is reset: both
    // happen before anything was served on it. A kept-alive connection must
    // never fail.
    const failed = Object.keys(outcomes).filter((k) => k !== '200' && k !== '503' && k !== 'ECONNREFUSED' && k !== 'ECONNRESET')
    assert.deepEqual(failed, [], JSON.stringify(outcomes))
  })

  test('a response that never ends is cut off after closeGraceTimeout and close() resolves', async () => {
    const s = await setup(mode, (app) => {
      // an event stream that sends a comment every 50 ms, forever
      app.get('/events', (_req, reply) => {
        const stream = new Readable({ read () {} })
        const timer = setInterval(() => stream.push(':\n\n'), 50)
        stream.on('close', () => clearInterval(timer))
        reply.type('text/event-stream').send(stream)
      })
    }, { closeGraceTimeout: 300 })
    const closedByServer = new Promise((resolve) => {
      http.get({ host: '127.0.0.1', port: s.port, path: '/events', agent: false }, (res) => {
        res.resume()
        res.on('close', () => resolve(true))
      }).on('error', () => resolve(true))
    })
    await sleep(150)
    const outcome = await Promise.race([s.close().then(() => 'closed'), sleep(5000).then(() => 'still open after 5 s')])
    assert.equal(outcome, 'closed')
    assert.equal(await closedByServer, true)
  })

  // A keep-alive connection that has just answered, and a request that is
  // still being handled on a second one, at the moment close() is called.
  // Returns what each connection received after close() began.
  async function closeWithTwoConnections (/** @type {Record<string, any>} */ options) {
    let release = () => {}
    const s = await setup(mode, (app) => {
      app.get('/', () => 'hi')
      app.get('/slow', () => new Promise((resolve) => { release = () => resolve('slow done') }))
    }, options)
    const head = 'Host: x\r\nConnection: keep-alive\r\n\r\n'
    const idle = net.connect(s.port, '127.0.0.1')
    const busy = net.connect(s.port, '127.0.0.1')
    const bothClosed = Promise.all([once(idle, 'close'), once(busy, 'close')])
    /** @type {string[]} */
    const idleGot = []
    /** @type {string[]} */
    const busyGot = []
    for (const [sock, got] of /** @type {const} */ ([[idle, idleGot], [busy, busyGot]])) {
      sock.on('error', () => {})
      sock.on('data', (d) => got.push(d.toString('latin1')))
      await once(sock, 'connect')
    }
    idle.write(`GET / HTTP/1.1\r\n${head}`)
    busy.write(`GET /slow HTTP/1.1\r\n${head}`)
    while (!idleGot.join('').endsWith('hi')) await sleep(5)
    idleGot.length = 0
    const closed = s.close()
    // the client's next request, already on its way
    idle.write(`GET / HTTP/1.1\r\n${head}`)
    await sleep(20)
    release()
    await Promise.all([bothClosed, closed])
    return { idle: idleGot.join(''), busy: busyGot.join('') }
  }

  test("forceCloseConnections 'idle': an idle connection closes at once, however recently it answered; the busy one is answered", async () => {
    const got = await closeWithTwoConnections({ forceCloseConnections: 'idle' })
    assert.equal(got.idle, '', 'nothing more is answered on the idle connection')
    assert.match(got.busy, /^HTTP\/1\.1 200[^]*\r\nconnection: close\r\n[^]*slow done$/i)
  })

  test('forceCloseConnections true: every connection is destroyed at once, the busy one too', async () => {
    const got = await closeWithTwoConnections({ forceCloseConnections: true })
    assert.deepEqual(got, { idle: '', busy: '' })
  })

  test('by default a connection that has just answered stays open a moment: the request on its way gets 503 and Connection: close', async () => {
    const got = await closeWithTwoConnections({})
    assert.match(got.idle, /^HTTP\/1\.1 503[^]*\r\nconnection: close\r\n/i)
    assert.match(got.busy, /^HTTP\/1\.1 200[^]*slow done$/)
  })
}, SOCKET_MODES)

test('forceCloseConnections accepts only true, false and "idle"', () => {
  assert.throws(() => hotpath({ forceCloseConnections: 'all' }), { code: 'HP_ERR_INVALID_OPTION' })
})
