// hotpath's own diagnostics channels, the same on every engine: the tracing
// channel `hotpath.request` around each request, and
// `hotpath.request.rejected` for the answers given before any route sees a
// request (docs/observability.md).
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import diagnostics from 'node:diagnostics_channel'
import { AsyncLocalStorage } from 'node:async_hooks'
import net from 'node:net'
import { once } from 'node:events'
import { eachMode, setup, rawRequest, SOCKET_MODES } from '../helpers/engines.js'

const EVENTS = /** @type {const} */ (['start', 'end', 'asyncStart', 'asyncEnd', 'error'])
const requestChannel = diagnostics.tracingChannel('hotpath.request')
const storage = new AsyncLocalStorage()

/**
 * Records the events of each request by its URL, and wakes whoever waits
 * for a request's asyncEnd.
 */
class Recorder {
  constructor () {
    /** @type {Map<string, { event: string, msg: any, route: unknown, statusCode: unknown, error: unknown, store: unknown }[]>} */
    this.byUrl = new Map()
    /** @type {Map<string, () => void>} */
    this.waiting = new Map()
    /** @type {[string, (msg: any) => void][]} */
    this.subscribers = EVENTS.map((event) => [event, (/** @type {any} */ msg) => this.record(event, msg)])
  }

  subscribe () {
    for (const [event, fn] of this.subscribers) requestChannel[event].subscribe(fn)
    requestChannel.start.bindStore(storage, (/** @type {any} */ msg) => msg.url)
  }

  unsubscribe () {
    for (const [event, fn] of this.subscribers) requestChannel[event].unsubscribe(fn)
    requestChannel.start.unbindStore(storage)
  }

  /**
   * @param {string} event
   * @param {any} msg
   */
  record (event, msg) {
    const list = this.byUrl.get(msg.url) ?? []
    list.push({ event, msg, route: msg.route, statusCode: msg.statusCode, error: msg.error, store: storage.getStore() })
    this.byUrl.set(msg.url, list)
    if (event === 'asyncEnd') this.waiting.get(msg.url)?.()
  }

  /**
   * The events of `url` once its asyncEnd was published.
   * @param {string} url
   */
  async settled (url) {
    const done = () => this.byUrl.get(url)?.some((e) => e.event === 'asyncEnd')
    if (!done()) await new Promise((resolve) => this.waiting.set(url, () => resolve(undefined)))
    return /** @type {any[]} */ (this.byUrl.get(url))
  }
}

/** @param {any} app */
function routes (app) {
  app.get('/users/:id', (/** @type {any} */ req) => ({ id: req.params.id, store: storage.getStore() ?? null }))
  app.get('/async/:id', async (/** @type {any} */ req) => {
    await new Promise((resolve) => setImmediate(resolve))
    return { store: storage.getStore() ?? null }
  })
  app.get('/boom', () => { throw new Error('kaboom') })
  app.get('/teapot', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(418).send('short and stout') })
  app.get('/hooked', { onResponse: (/** @type {any} */ req) => { onResponseStores.push(storage.getStore()) } }, () => 'hooked')
  app.get('/never', () => new Promise(() => {}))
}

/** @type {unknown[]} */
const onResponseStores = []

eachMode('hotpath.request', (mode) => {
  const recorder = new Recorder()
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let server
  before(async () => {
    recorder.subscribe()
    server = await setup(mode, routes)
  })
  after(async () => {
    recorder.unsubscribe()
    await server.close()
  })

  test('a sync route: start, end, then asyncStart and asyncEnd once handed to the socket', async () => {
    const res = await server.request('/users/42')
    assert.equal(res.statusCode, 200)
    // the handler ran in the store bound to start
    assert.equal(res.json().store, '/users/42')
    const events = await recorder.settled('/users/42')
    assert.deepEqual(events.map((e) => e.event), ['start', 'end', 'asyncStart', 'asyncEnd'])
    const msg = events[0].msg
    // one message through every event
    for (const e of events) assert.equal(e.msg, msg)
    assert.equal(msg.method, 'GET')
    assert.equal(msg.url, '/users/42')
    assert.equal(msg.route, '/users/:id')
    assert.equal(msg.statusCode, 200)
    assert.equal(msg.error, undefined)
    assert.equal(msg.request.params.id, '42')
    assert.equal(msg.reply.request, msg.request)
    // at start nothing is known of the route yet
    assert.equal(events[0].route, undefined)
    assert.equal(events[0].statusCode, undefined)
  })

  test('an async route: the handler and what it awaits run in the store', async () => {
    const res = await server.request('/async/1')
    assert.equal(res.json().store, '/async/1')
    const events = await recorder.settled('/async/1')
    assert.deepEqual(events.map((e) => e.event), ['start', 'end', 'asyncStart', 'asyncEnd'])
    assert.equal(events[3].statusCode, 200)
    assert.equal(events[3].route, '/async/:id')
  })

  test('a handler that throws: error, with the error and the 500', async () => {
    const res = await server.request('/boom')
    assert.equal(res.statusCode, 500)
    const events = await recorder.settled('/boom')
    assert.deepEqual(events.map((e) => e.event), ['start', 'end', 'error', 'asyncStart', 'asyncEnd'])
    assert.equal(events[2].statusCode, 500)
    assert.equal(/** @type {Error} */ (events[2].error).message, 'kaboom')
  })

  test('a 4xx the route sends is no error', async () => {
    const res = await server.request('/teapot')
    assert.equal(res.statusCode, 418)
    const events = await recorder.settled('/teapot')
    assert.deepEqual(events.map((e) => e.event), ['start', 'end', 'asyncStart', 'asyncEnd'])
    assert.equal(events[3].statusCode, 418)
  })

  test('a 404 has no route', async () => {
    const res = await server.request('/nope/123')
    assert.equal(res.statusCode, 404)
    const events = await recorder.settled('/nope/123')
    assert.equal(events[3].route, undefined)
    assert.equal(events[3].statusCode, 404)
    assert.equal(events[3].msg.method, 'GET')
  })

  test('onResponse hooks run between asyncStart and asyncEnd', async () => {
    onResponseStores.length = 0
    await server.request('/hooked')
    await recorder.settled('/hooked')
    // the hook has run by asyncEnd
    assert.equal(onResponseStores.length, 1)
  })

  // the client leaves an HTTP/1.1 connection it wrote by hand
  if (mode === 'node' || mode === 'wire') {
    test('the client leaves first: error with the connection\'s error', async () => {
      const socket = net.connect(server.port, '127.0.0.1')
      await once(socket, 'connect')
      socket.write('GET /never HTTP/1.1\r\nHost: x\r\n\r\n')
      // the request is in the core once its start is published
      while (!recorder.byUrl.has('/never')) await new Promise((resolve) => setImmediate(resolve))
      socket.destroy()
      const events = await recorder.settled('/never')
      assert.deepEqual(events.map((e) => e.event), ['start', 'end', 'error', 'asyncStart', 'asyncEnd'])
      assert.ok(events[2].error instanceof Error)
    })
  }
})

describe('hotpath.request without subscribers', () => {
  test('publishes nothing and the request is served as usual', async () => {
    assert.equal(requestChannel.hasSubscribers, false)
    const server = await setup('inject', routes)
    const res = await server.request('/users/1')
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().store, null)
    await server.close()
  })
})

eachMode('hotpath.request.rejected', (mode) => {
  /** @type {any[]} */
  const seen = []
  const onRejected = (/** @type {any} */ msg) => { seen.push(msg) }
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let server
  before(async () => {
    diagnostics.subscribe('hotpath.request.rejected', onRejected)
    server = await setup(mode, routes)
  })
  after(async () => {
    diagnostics.unsubscribe('hotpath.request.rejected', onRejected)
    await server.close()
  })

  test('a request-target too long: 414', async () => {
    seen.length = 0
    const url = '/' + 'a'.repeat(9000)
    const res = await server.request(url)
    assert.equal(res.statusCode, 414)
    assert.equal(seen.length, 1)
    assert.equal(seen[0].statusCode, 414)
    assert.equal(seen[0].code, 'HP_ERR_URL_TOO_LONG')
    if (mode !== 'wire') {
      // read whole by node:http and inject: the core refuses it, knowing its line
      assert.equal(seen[0].method, 'GET')
      assert.equal(seen[0].url, url)
    }
  })

  if (SOCKET_MODES.includes(mode)) {
    test('a malformed head: 400', async () => {
      seen.length = 0
      const answer = await rawRequest(server.port, 'GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n')
      assert.match(answer, /^HTTP\/1\.1 400 /)
      assert.equal(seen.length, 1)
      assert.equal(seen[0].statusCode, 400)
      assert.equal(seen[0].code, 'HP_ERR_BAD_REQUEST')
      assert.equal(seen[0].remoteAddress, '127.0.0.1')
    })

    test('a head too large: 431', async () => {
      seen.length = 0
      const answer = await rawRequest(server.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`)
      assert.match(answer, /^HTTP\/1\.1 431 /)
      assert.equal(seen.length, 1)
      assert.equal(seen[0].statusCode, 431)
      assert.equal(seen[0].code, 'HP_ERR_HEADERS_TOO_LARGE')
    })

    test('an invalid Host: 400', async () => {
      seen.length = 0
      const answer = await rawRequest(server.port, 'GET / HTTP/1.1\r\nHost: a b\r\n\r\n')
      assert.match(answer, /^HTTP\/1\.1 400 /)
      assert.equal(seen.length, 1)
      assert.equal(seen[0].statusCode, 400)
    })
  }

  if (mode !== 'wire') {
    test('a request the core refuses is traced too, with its status and no route', async () => {
      const recorder = new Recorder()
      recorder.subscribe()
      try {
        const url = '/' + 'c'.repeat(9000)
        const res = await server.request(url)
        assert.equal(res.statusCode, 414)
        const events = await recorder.settled(url)
        assert.deepEqual(events.map((e) => e.event), ['start', 'end', 'asyncStart', 'asyncEnd'])
        assert.equal(events[3].statusCode, 414)
        assert.equal(events[3].route, undefined)
        assert.equal(events[3].msg.reply, undefined)
      } finally {
        recorder.unsubscribe()
      }
    })
  }

  test('a routed request is not rejected', async () => {
    seen.length = 0
    const res = await server.request('/users/3')
    assert.equal(res.statusCode, 200)
    assert.equal(seen.length, 0)
  })
})
