// req.signal read for the first time after the request has already ended
// badly (the client left, or the request timed out) is born aborted, with
// the reason a signal read at the start would have got — whether or not
// something (a hook, the logger) was already watching the request's end.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { setImmediate as tick } from 'node:timers/promises'
import { eachMode, setup, LISTENING_MODES } from '../helpers/engines.js'

/** What a handler saw of its signal, recorded outside it. */
function reasonOf (/** @type {AbortSignal} */ signal) {
  const r = /** @type {any} */ (signal.reason)
  return { aborted: signal.aborted, name: r?.name, code: r?.code, message: r?.message }
}

/** A promise with its resolve function. */
function deferred () {
  /** @type {(v?: any) => void} */
  let resolve = () => {}
  /** @type {Promise<any>} */
  const promise = new Promise((r) => { resolve = r })
  return { promise, resolve }
}

const VARIANTS = [
  { title: 'nothing watches the end of the request', options: {}, hooks: {} },
  { title: 'an onRequestAbort hook watches it', options: {}, hooks: { onRequestAbort: () => {} } },
  { title: 'the logger watches it', options: { logger: { level: 'silent' } }, hooks: {} }
]

for (const variant of VARIANTS) {
  eachMode(`req.signal after the client left, ${variant.title}`, (mode) => {
    /** @type {Awaited<ReturnType<typeof setup>>} */
    let s
    /** @type {Record<string, ReturnType<typeof deferred>>} */
    let entered
    /** @type {ReturnType<typeof deferred>} */
    let gate
    /** @type {Record<string, ReturnType<typeof deferred>>} */
    let seen
    /** @type {net.Socket[]} */
    const serverSockets = []
    /** @type {import('node:http2').ServerHttp2Stream[]} the h2 server's streams */
    const serverStreams = []
    before(async () => {
      s = await setup(mode, (app) => {
        app.get('/early', variant.hooks, async (/** @type {any} */ req) => {
          const signal = req.signal
          entered.early.resolve()
          await gate.promise
          seen.early.resolve(reasonOf(signal))
          return 'late answer'
        })
        app.get('/late', variant.hooks, async (/** @type {any} */ req) => {
          entered.late.resolve()
          await gate.promise
          seen.late.resolve(reasonOf(req.signal))
          return 'late answer'
        })
      }, variant.options)
      s.app.server.on('connection', (/** @type {net.Socket} */ socket) => serverSockets.push(socket))
      s.app.server.on('stream', (/** @type {import('node:http2').ServerHttp2Stream} */ stream) => serverStreams.push(stream))
    })
    after(() => s.close())

    /** Starts a request, leaves once its handler runs, waits for the server to see it. */
    async function leaveMidHandler (/** @type {'early' | 'late'} */ which) {
      if (s.h2 !== null) {
        // HTTP/2: the client resets the stream; the session goes on
        serverStreams.length = 0
        const request = s.h2.start({ url: `/${which}` })
        await entered[which].promise
        const serverStream = serverStreams[0]
        request.leave()
        if (!serverStream.destroyed) await once(serverStream, 'close')
        await tick()
        return
      }
      serverSockets.length = 0
      const client = net.connect(s.port, '127.0.0.1')
      client.on('error', () => {})
      client.write(`GET /${which} HTTP/1.1\r\nHost: x\r\n\r\n`)
      await entered[which].promise
      const serverSocket = serverSockets[0]
      client.destroy()
      if (!serverSocket.destroyed) await once(serverSocket, 'close')
      await tick() // whatever the engine defers past the socket's 'close'
    }

    test('a signal first read after the client left is already aborted, with the early reason', async () => {
      entered = { early: deferred(), late: deferred() }
      seen = { early: deferred(), late: deferred() }
      gate = deferred()
      await leaveMidHandler('early')
      await leaveMidHandler('late')
      gate.resolve()
      const early = await seen.early.promise
      const late = await seen.late.promise
      assert.equal(early.aborted, true)
      assert.deepEqual(late, early)
    })
  }, LISTENING_MODES)
}

eachMode('req.signal after the request timed out', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Record<string, ReturnType<typeof deferred>>} */
  const timedOut = { early: deferred(), late: deferred() }
  /** @type {Record<string, ReturnType<typeof deferred>>} */
  const seen = { early: deferred(), late: deferred() }
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/early', { onTimeout: () => timedOut.early.resolve() }, async (/** @type {any} */ req) => {
        const signal = req.signal
        await timedOut.early.promise
        seen.early.resolve(reasonOf(signal))
      })
      app.get('/late', { onTimeout: () => timedOut.late.resolve() }, async (/** @type {any} */ req) => {
        await timedOut.late.promise
        seen.late.resolve(reasonOf(req.signal))
      })
    }, { requestTimeout: 50 })
  })
  after(() => s.close())

  test('a signal first read after the timeout is already aborted, with the early reason', async () => {
    const [a, b] = await Promise.all([s.request('/early'), s.request('/late')])
    assert.equal(a.statusCode, 503)
    assert.equal(b.statusCode, 503)
    const early = await seen.early.promise
    const late = await seen.late.promise
    assert.deepEqual(early, { aborted: true, name: 'TimeoutError', code: 23, message: 'The request timed out' })
    assert.deepEqual(late, early)
  })
})
