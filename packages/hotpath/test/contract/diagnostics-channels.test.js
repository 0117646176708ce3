import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import diagnostics from 'node:diagnostics_channel'
import { AsyncLocalStorage } from 'node:async_hooks'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

const EVENTS = /** @type {const} */ (['start', 'end', 'asyncStart', 'asyncEnd', 'error'])
const handlerChannel = diagnostics.tracingChannel('fastify.request.handler')

/** The routes every mode serves, traced or not. @param {any} app */
function routes (app) {
  app.get('/items/:id', (/** @type {any} */ req, /** @type {any} */ reply) => {
    seenBy.set(req.headers['x-trace'], { request: req, reply, store: storage.getStore() })
    return { id: req.params.id }
  })
  app.get('/async', async (/** @type {any} */ req) => {
    await null
    return { store: storage.getStore() ?? null }
  })
  app.get('/send-later', (/** @type {any} */ req, /** @type {any} */ reply) => {
    setImmediate(() => reply.send('later'))
  })
  app.get('/throws', () => { throw Object.assign(new Error('broken'), { statusCode: 503 }) })
  app.get('/throws-plain', () => { throw new Error('plain') })
  app.get('/rejects', () => Promise.reject(Object.assign(new Error('teapot'), { status: 418 })))
  app.get('/not-found', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.callNotFound() })
  app.get('/pre-handler', { preHandler: () => { throw Object.assign(new Error('refused'), { statusCode: 403 }) } }, () => 'unreached')
  app.register(async (/** @type {any} */ child) => {
    child.setErrorHandler(async (/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) => {
      await new Promise((resolve) => setImmediate(resolve))
      reply.code(502).send({ handled: err.message })
    })
    child.get('/fails', () => { throw new Error('to the handler') })
  }, { prefix: '/eh' })
}

/** what the handlers saw, by the x-trace header @type {Map<string, any>} */
const seenBy = new Map()
const storage = new AsyncLocalStorage()

/**
 * @typedef {{ event: string, msg: any, status: number, async: boolean, error: unknown }} Seen
 */

/** Events recorded by the x-trace header of the request they are about. */
class Recorder {
  constructor () {
    /** @type {Map<string, Seen[]>} */
    this.byId = new Map()
    /** @type {[string, (msg: any) => void][]} */
    this.subscribers = EVENTS.map((event) => [event, (/** @type {any} */ msg) => this.record(event, msg)])
  }

  subscribe () {
    for (const [event, fn] of this.subscribers) handlerChannel[event].subscribe(fn)
    handlerChannel.start.bindStore(storage, (/** @type {any} */ msg) => msg.route.url)
  }

  unsubscribe () {
    for (const [event, fn] of this.subscribers) handlerChannel[event].unsubscribe(fn)
    handlerChannel.start.unbindStore(storage)
  }

  /**
   * @param {string} event
   * @param {any} msg
   */
  record (event, msg) {
    const id = msg.request.headers['x-trace']
    if (id === undefined) return
    const list = this.byId.get(id) ?? []
    list.push({ event, msg, status: msg.reply.statusCode, async: msg.async, error: msg.error })
    this.byId.set(id, list)
  }

  /**
   * The events of one request, once `last` was published (an async
   * handler's asyncEnd may come after the response reached the client,
   * a few turns of the event loop later; after 100 turns, what there is).
   * @param {string} id
   * @param {string} last
   * @returns {Promise<Seen[]>}
   */
  async events (id, last) {
    for (let turn = 0; turn < 100 && !(this.byId.get(id) ?? []).some((e) => e.event === last); turn++) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    return this.byId.get(id) ?? []
  }
}

let n = 0
/** @param {string} mode */
function traceId (mode) { return `${mode}-${++n}` }

/** @param {Seen[]} seen */
const names = (seen) => seen.map((e) => e.event)

eachMode('tracing:fastify.request.handler', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const rec = new Recorder()
  before(async () => {
    rec.subscribe()
    s = await setup(mode, routes)
  })
  after(async () => {
    rec.unsubscribe()
    await s.close()
  })

  /**
   * @param {string} url
   * @returns {Promise<[import('../helpers/engines.js').Response, string]>}
   */
  async function get (url) {
    const id = traceId(mode)
    return [await s.request({ url, headers: { 'x-trace': id } }), id]
  }

  test('a sync route: start then end, one message carrying the request, the reply and the route', async () => {
    const [res, id] = await get('/items/7')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { id: '7' })
    const seen = await rec.events(id, 'end')
    assert.deepEqual(names(seen), ['start', 'end'])
    const msg = seen[0].msg
    assert.equal(seen[1].msg, msg)
    assert.equal(msg.request, seenBy.get(id).request)
    assert.equal(msg.reply, seenBy.get(id).reply)
    assert.deepEqual(msg.route, { url: '/items/:id', method: 'GET' })
    assert.equal(msg.async, false)
    assert.equal('error' in msg, false)
  })

  test('stores bound to the start channel are the handler\'s context', async () => {
    const [, id] = await get('/items/8')
    await rec.events(id, 'end')
    assert.equal(seenBy.get(id).store, '/items/:id')
    const [res, id2] = await get('/async')
    await rec.events(id2, 'asyncEnd')
    assert.deepEqual(res.json(), { store: '/async' })
  })

  test('an async route: start, end, then asyncStart and asyncEnd around its outcome', async () => {
    const [res, id] = await get('/async')
    assert.equal(res.statusCode, 200)
    const seen = await rec.events(id, 'asyncEnd')
    assert.deepEqual(names(seen), ['start', 'end', 'asyncStart', 'asyncEnd'])
    assert.ok(seen.every((e) => e.msg === seen[0].msg))
    assert.equal(seen[1].async, true)
  })

  test('a handler that sends later: start and end only', async () => {
    const [res, id] = await get('/send-later')
    assert.equal(res.body, 'later')
    const seen = await rec.events(id, 'end')
    assert.deepEqual(names(seen), ['start', 'end'])
  })

  test('a throwing route: the error between start and end, with the status it will be answered with', async () => {
    const [res, id] = await get('/throws')
    assert.equal(res.statusCode, 503)
    const seen = await rec.events(id, 'end')
    assert.deepEqual(names(seen), ['start', 'error', 'end'])
    assert.equal(/** @type {Error} */ (seen[1].error).message, 'broken')
    assert.equal(seen[1].status, 503)

    const [res2, id2] = await get('/throws-plain')
    assert.equal(res2.statusCode, 500)
    const seen2 = await rec.events(id2, 'end')
    assert.equal(seen2[1].status, 500)
  })

  test('a rejecting route: the error before asyncStart, its status from error.status', async () => {
    const [res, id] = await get('/rejects')
    assert.equal(res.statusCode, 418)
    const seen = await rec.events(id, 'asyncEnd')
    assert.deepEqual(names(seen), ['start', 'end', 'error', 'asyncStart', 'asyncEnd'])
    assert.equal(/** @type {Error} */ (seen[2].error).message, 'teapot')
    assert.equal(seen[2].status, 418)
  })

  test('an async error handler runs within the handler\'s trace', async () => {
    const [res, id] = await get('/eh/fails')
    assert.equal(res.statusCode, 502)
    assert.deepEqual(res.json(), { handled: 'to the handler' })
    const seen = await rec.events(id, 'asyncEnd')
    assert.deepEqual(names(seen), ['start', 'error', 'end', 'asyncStart', 'asyncEnd'])
    // reported before the error handler chose its own status
    assert.equal(seen[1].status, 500)
    assert.equal(seen[2].async, true)
  })

  test('a preHandler hook that fails is traced as a handler that failed at once', async () => {
    const [res, id] = await get('/pre-handler')
    assert.equal(res.statusCode, 403)
    const seen = await rec.events(id, 'end')
    assert.deepEqual(names(seen), ['start', 'error', 'end'])
    assert.equal(/** @type {Error} */ (seen[1].error).message, 'refused')
  })

  test('a 404: the route that called callNotFound() is traced once, the not-found handler not at all', async () => {
    const [res, id] = await get('/not-found')
    assert.equal(res.statusCode, 404)
    const seen = await rec.events(id, 'end')
    assert.deepEqual(names(seen), ['start', 'end'])
    assert.equal(seen[0].msg.route.url, '/not-found')

    const [res2, id2] = await get('/nowhere')
    assert.equal(res2.statusCode, 404)
    assert.equal(rec.byId.get(id2), undefined)
  })
})

eachMode('fastify.initialization', (mode) => {
  test('each app is published as { fastify: app } when it is created, for both entries', () => {
    /** @type {any[]} */
    const seen = []
    const onInit = (/** @type {any} */ msg) => seen.push(msg)
    diagnostics.subscribe('fastify.initialization', onInit)
    try {
      const a = hotpath()
      const b = fastify()
      assert.equal(seen.length, 2)
      assert.equal(seen[0].fastify, a)
      assert.equal(seen[1].fastify, b)
    } finally {
      diagnostics.unsubscribe('fastify.initialization', onInit)
    }
  })

  test('a subscriber can add hooks to the app it is handed', async () => {
    const onInit = (/** @type {any} */ msg) => {
      msg.fastify.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply) => { reply.header('x-instrumented', '1') })
    }
    diagnostics.subscribe('fastify.initialization', onInit)
    /** @type {Awaited<ReturnType<typeof setup>>} */
    let s
    try {
      s = await setup(mode, (app) => { app.get('/', () => 'ok') })
    } finally {
      diagnostics.unsubscribe('fastify.initialization', onInit)
    }
    try {
      const res = await s.request('/')
      assert.equal(res.body, 'ok')
      assert.equal(res.headers['x-instrumented'], '1')
    } finally {
      await s.close()
    }
  })
})

eachMode('unsubscribed apps', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode, routes) })
  after(() => s.close())

  test('answer as traced ones do, and publish nothing', async () => {
    assert.equal(handlerChannel.hasSubscribers, false)
    const expected = [
      ['/items/3', 200, { id: '3' }],
      ['/async', 200, { store: null }],
      ['/send-later', 200, 'later'],
      ['/throws', 503, null],
      ['/throws-plain', 500, null],
      ['/rejects', 418, null],
      ['/eh/fails', 502, { handled: 'to the handler' }],
      ['/pre-handler', 403, null],
      ['/not-found', 404, null]
    ]
    for (const [url, status, body] of expected) {
      const res = await s.request(/** @type {string} */ (url))
      assert.equal(res.statusCode, status, String(url))
      if (typeof body === 'string') assert.equal(res.body, body)
      else if (body !== null) assert.deepEqual(res.json(), body)
    }
  })
})

describe('tracing channel names', () => {
  test('are Fastify\'s', () => {
    for (const event of EVENTS) assert.equal(diagnostics.channel(`tracing:fastify.request.handler:${event}`), handlerChannel[event])
  })
})
