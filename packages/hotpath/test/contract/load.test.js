import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

const CALM = { eventLoopDelay: 1, eventLoopUtilization: 0.1, heapUsed: 1e6, rss: 1e7 }

// The sampler is driven with fabricated readings through apply(), the same
// function the interval timer calls after reading its sources: no timing.
eachMode('overload protection', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  let onRequestRuns = 0
  /** @type {any[]} */
  const logs = []
  before(async () => {
    const stream = new Writable({ write (chunk, _enc, cb) { logs.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.addHook('onRequest', () => { onRequestRuns++ })
      app.get('/hello', () => ({ hello: 'world' }))
      app.post('/echo', (req) => req.body)
    }, { logger: { level: 'info', stream }, load: { maxEventLoopDelay: 100, maxEventLoopUtilization: 0.9, maxHeapUsedBytes: 2e9, maxRssBytes: 4e9, sampleInterval: 60_000, retryAfter: 7 } })
  })
  after(() => s.close())

  /** @returns {import('../../lib/app/load-monitor.js').LoadMonitor} */
  const monitor = () => s.app._core.loadMonitor

  test('under the limits, requests run as usual', async () => {
    monitor().apply(CALM)
    const res = await s.request('/hello')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { hello: 'world' })
    assert.equal(s.app.load.overloaded, false)
  })

  for (const [field, value] of /** @type {const} */ ([['eventLoopDelay', 150], ['eventLoopUtilization', 0.95], ['heapUsed', 3e9], ['rss', 5e9]])) {
    test(`over the ${field} limit: 503 with Retry-After before any hook runs, then back to normal`, async () => {
      monitor().apply({ ...CALM, [field]: value })
      assert.equal(s.app.load.overloaded, true)
      assert.equal(s.app.load[field], value)
      const runsBefore = onRequestRuns
      const res = await s.request('/hello')
      assert.equal(res.statusCode, 503)
      assert.equal(res.headers['retry-after'], '7')
      assert.match(res.headers['content-type'], /^application\/json/)
      assert.deepEqual(res.json(), { statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable', code: 'HP_ERR_SERVER_OVERLOADED' })
      // unknown paths are shed too: no routing work while overloaded
      assert.equal((await s.request('/nowhere')).statusCode, 503)
      assert.equal(onRequestRuns, runsBefore, 'no onRequest hook ran')
      monitor().apply(CALM)
      assert.equal((await s.request('/hello')).statusCode, 200)
      assert.equal(onRequestRuns, runsBefore + 1)
    })
  }

  test('a request with a body is shed with Connection: close, its body unread', async () => {
    monitor().apply({ ...CALM, eventLoopDelay: 500 })
    const res = await s.request({ method: 'POST', url: '/echo', payload: { big: 'x'.repeat(10_000) } })
    assert.equal(res.statusCode, 503)
    // HTTP/2 has no Connection field (RFC 9113 §8.2.2): the stream is reset
    // after the answer instead, and the session goes on
    assert.equal(res.headers.connection, mode === 'h2' ? undefined : 'close')
    assert.equal(res.json().code, 'HP_ERR_SERVER_OVERLOADED')
    monitor().apply(CALM)
    const ok = await s.request({ method: 'POST', url: '/echo', payload: { a: 1 } })
    assert.deepEqual(ok.json(), { a: 1 })
  })

  test('entering and leaving overload is logged once each, shed requests not at all', async () => {
    monitor().apply(CALM)
    logs.length = 0
    monitor().apply({ ...CALM, rss: 5e9 })
    monitor().apply({ ...CALM, rss: 6e9 })
    await s.request('/hello')
    await s.request('/hello')
    monitor().apply(CALM)
    monitor().apply(CALM)
    const warn = logs.filter((l) => l.level === 40)
    assert.equal(warn.length, 1)
    assert.match(warn[0].msg, /overloaded: rss 5000000000 > maxRssBytes/)
    assert.equal(logs.filter((l) => /back under the limits/.test(l.msg)).length, 1)
    assert.equal(logs.filter((l) => l.res?.statusCode === 503).length, 0)
  })
})

test('the real sources: heap and RSS over a 1-byte limit shed requests', async () => {
  for (const load of [{ maxHeapUsedBytes: 1 }, { maxRssBytes: 1 }]) {
    const app = hotpath({ load })
    app.get('/', () => 'ok')
    await app.ready()
    assert.equal((await app.inject('/')).statusCode, 200)
    const r = app._core.loadMonitor.sample()
    assert.ok(r.rss > 0)
    if (load.maxHeapUsedBytes) assert.ok(r.heapUsed > 0)
    assert.equal(app.load.overloaded, true)
    assert.equal((await app.inject('/')).statusCode, 503)
    await app.close()
    // close() stops the sampler and lets requests through again
    assert.equal(app._core.loadMonitor.timer, null)
    assert.equal(app.load.overloaded, false)
  }
})

test('the real sources: a busy event loop reads as fully utilized', async () => {
  const app = hotpath({ load: { maxEventLoopUtilization: 0.5, maxEventLoopDelay: 1e6 } })
  app.get('/', () => 'ok')
  await app.ready()
  // From ready() to here only microtasks ran: the loop never went idle, so
  // after a busy loop of known length the utilization is close to 1.
  const end = performance.now() + 50
  while (performance.now() < end) { /* busy */ }
  const r = app._core.loadMonitor.sample()
  assert.ok(r.eventLoopUtilization > 0.5, `utilization ${r.eventLoopUtilization}`)
  assert.ok(Number.isFinite(r.eventLoopDelay) && r.eventLoopDelay >= 0)
  assert.equal((await app.inject('/')).statusCode, 503)
  await app.close()
})

test('the sampler runs on one unref\'d timer from ready() to close(), and only with a limit set', async () => {
  const off = hotpath()
  await off.ready()
  assert.equal(off._core.loadMonitor, null)
  assert.deepEqual(off.load, { eventLoopDelay: 0, eventLoopUtilization: 0, heapUsed: 0, rss: 0, overloaded: false })
  await off.close()

  const app = hotpath({ load: { maxRssBytes: 1e12 } })
  const monitor = app._core.loadMonitor
  assert.equal(monitor.timer, null, 'not before ready()')
  await app.ready()
  assert.notEqual(monitor.timer, null)
  assert.equal(monitor.timer.hasRef(), false)
  assert.equal(monitor.sampleInterval, 1000)
  assert.equal(monitor.retryAfter, '10')
  await app.close()
  assert.equal(monitor.timer, null)
})

test('bad load options are refused at once', () => {
  for (const load of ['fast', { maxEventLoopUtilization: 1.5 }, { maxEventLoopDelay: -1 }, { maxRssBytes: '1gb' }, { sampleInterval: 0.5 }, { maxCpu: 1 }]) {
    assert.throws(() => hotpath({ load: /** @type {any} */ (load) }), { code: 'HP_ERR_INVALID_OPTION' }, JSON.stringify(load))
  }
})
