// Metrics by route with fastify-metrics and prom-client, unmodified, under
// both entries and on every engine: each scrape is compared with the scrape
// real Fastify gives for the same requests (the same series, the same
// counts; durations are timings and are not compared), and with the counts
// the requests sent must add up to.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import fastifyMetrics from 'fastify-metrics'
import promClient from 'prom-client'
import { Readable } from 'node:stream'
import hotpath from '../lib/index.js'
import hotpathFastify from '../lib/fastify.js'
import { HTTP1_MODES, SOCKET_MODES, httpRequest, rawRequest } from './helpers/engines.js'

/** @typedef {'fastify' | 'hotpath/fastify' | 'hotpath'} Kind */
// HTTP/1.1 modes: the scrapes are compared with Fastify's, which is read
// over node:http (httpRequest)
/** @typedef {'inject' | 'node' | 'wire'} Mode */
/** @typedef {{ method?: string, url: string, headers?: Record<string, string>, payload?: any, cut?: boolean }} Req */

const FACTORIES = { fastify: Fastify, 'hotpath/fastify': hotpathFastify, hotpath }

/**
 * An app of `kind` with fastify-metrics registered first, as its README
 * shows, then the routes `build` adds; served in `mode` (Fastify itself has
 * only node:http, so it stands in for every socket engine). An onResponse
 * hook added after the plugin's counts the responses whose metrics have
 * been recorded, so a test waits for them rather than for time.
 * @param {Kind} kind
 * @param {Mode} mode
 * @param {Record<string, any>} metricsOptions
 * @param {(app: any) => void} build
 */
async function start (kind, mode, metricsOptions, build) {
  const engine = kind === 'fastify' || mode === 'inject' ? {} : { engine: mode }
  const app = /** @type {any} */ (FACTORIES[kind])({ bodyLimit: 64, ...engine })
  await app.register(fastifyMetrics, { endpoint: '/metrics', clearRegisterOnInit: true, ...metricsOptions })
  let finished = 0
  /** @type {{ n: number, resolve: () => void }[]} */
  let waiters = []
  app.addHook('onResponse', (/** @type {any} */ _req, /** @type {any} */ _reply, /** @type {() => void} */ done) => {
    finished++
    waiters = waiters.filter((w) => { if (finished < w.n) return true; w.resolve(); return false })
    done()
  })
  build(app)
  await app.ready()
  let port = 0
  if (mode !== 'inject') {
    await app.listen({ port: 0, host: '127.0.0.1' })
    port = app.server.address().port
  }
  /** @param {Req | string} o */
  const request = (o) => {
    const r = typeof o === 'string' ? { url: o } : o
    return mode === 'inject' ? app.inject(r) : httpRequest(port, r)
  }
  return {
    app,
    port,
    request,
    /** @returns {number} */
    get finished () { return finished },
    /**
     * Resolves once `n` responses have run the onResponse hooks.
     * @param {number} n
     * @returns {Promise<void>}
     */
    finishedCount (n) {
      if (finished >= n) return Promise.resolve()
      return new Promise((resolve) => { waiters.push({ n, resolve }) })
    },
    /**
     * Sends the requests one after another, waits until each has been
     * recorded, then scrapes /metrics.
     * @param {(Req | string)[]} requests
     */
    async send (requests) {
      /** @type {(number | string)[]} */
      const statuses = []
      const from = finished
      let recorded = 0
      for (const r of requests) {
        // a request whose response never completes (the connection is cut
        // mid-body) runs no onResponse hook, on Fastify as here
        if (typeof r === 'object' && r.cut) {
          statuses.push(await request(r).then((res) => res.statusCode, (err) => err.code))
          continue
        }
        statuses.push((await request(r)).statusCode)
        recorded++
      }
      await this.finishedCount(from + recorded)
      return statuses
    },
    async scrape () {
      const res = await request('/metrics')
      assert.equal(res.statusCode, 200)
      return res
    },
    close: () => app.close()
  }
}

/**
 * The text format's samples as a Map from `name{label="value",...}`
 * (labels sorted) to the value.
 * @param {string} text
 */
function samples (text) {
  /** @type {Map<string, number>} */
  const out = new Map()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    assert.ok(m, `a sample line: ${line}`)
    const labels = [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => `${l[1]}="${l[2]}"`).sort()
    out.set(`${m[1]}{${labels.join(',')}}`, Number(m[3]))
  }
  return out
}

/**
 * The request metrics of a scrape: every series of the histogram and the
 * summary (timings dropped), and the count of each, which must be exact.
 * @param {string} text
 */
function requestMetrics (text) {
  const all = samples(text)
  const series = [...all.keys()].filter((k) => k.startsWith('http_request_')).sort()
  /** @type {Record<string, number>} */
  const counts = {}
  for (const [k, v] of all) if (k.startsWith('http_request_duration_seconds_count{')) counts[k.slice('http_request_duration_seconds_count'.length)] = v
  for (const [k, v] of all) {
    if (!k.startsWith('http_request_summary_seconds_count{')) continue
    assert.equal(v, counts[k.slice('http_request_summary_seconds_count'.length)], `the summary counts what the histogram does: ${k}`)
  }
  return { series, counts }
}

/**
 * The metric names a scrape declares, with their types.
 * @param {string} text
 */
function declared (text) {
  return text.split('\n').filter((l) => l.startsWith('# TYPE ')).sort()
}

/** The routes every app of this file has. @param {any} app */
function routes (app) {
  app.get('/users/:id', async (/** @type {any} */ req) => ({ id: req.params.id }))
  app.post('/items', {
    schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } }
  }, async (/** @type {any} */ req) => req.body)
  app.get('/boom', () => { throw new Error('boom') })
  app.get('/teapot', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.code(418).send('short and stout') })
  app.get('/silent', { config: { disableMetrics: true } }, () => 'not measured')
  app.register(async (/** @type {any} */ api) => {
    api.get('/orders/:orderId', async () => ({ ok: true }))
  }, { prefix: '/api' })
}

const JSON_TYPE = { 'content-type': 'application/json' }

/** @type {(Req | string)[]} */
const SEQUENCE = [
  '/users/1',
  '/users/2',
  '/users/3?expand=true',
  '/api/orders/7',
  '/teapot',
  '/silent',
  '/nowhere',
  '/users/1/friends',
  { method: 'DELETE', url: '/users/1' },
  { method: 'HEAD', url: '/users/1' },
  { method: 'POST', url: '/items', payload: { n: 1 } },
  // schema validation
  { method: 'POST', url: '/items', payload: { n: 'one' } },
  // bad JSON
  { method: 'POST', url: '/items', headers: JSON_TYPE, payload: '{"n":' },
  // over bodyLimit (64 bytes)
  { method: 'POST', url: '/items', headers: JSON_TYPE, payload: JSON.stringify({ n: 1, pad: 'x'.repeat(100) }) },
  '/boom'
]
const SEQUENCE_STATUSES = [200, 200, 200, 200, 418, 200, 404, 404, 404, 200, 200, 400, 400, 413, 500]

/**
 * What SEQUENCE must add up to, by method, route template and status, with
 * the 404s under `unknown`; /silent (disableMetrics) and HEAD (in the
 * default methodBlacklist) are not measured.
 * @param {string} unknown
 */
function expectedCounts (unknown) {
  return {
    [`{method="GET",route="/users/:id",status_code="200"}`]: 3,
    [`{method="GET",route="/api/orders/:orderId",status_code="200"}`]: 1,
    [`{method="GET",route="/teapot",status_code="418"}`]: 1,
    [`{method="GET",route="${unknown}",status_code="404"}`]: 2,
    [`{method="DELETE",route="${unknown}",status_code="404"}`]: 1,
    [`{method="POST",route="/items",status_code="200"}`]: 1,
    [`{method="POST",route="/items",status_code="400"}`]: 2,
    [`{method="POST",route="/items",status_code="413"}`]: 1,
    [`{method="GET",route="/boom",status_code="500"}`]: 1
  }
}

/**
 * Runs `requests` on an app of `kind` and returns the statuses and the two
 * scrapes that follow (the second one counts the first).
 * @param {Kind} kind
 * @param {Mode} mode
 * @param {Record<string, any>} metricsOptions
 * @param {(Req | string)[]} requests
 * @param {(app: any) => void} [build]
 */
async function run (kind, mode, metricsOptions, requests, build = routes) {
  const s = await start(kind, mode, metricsOptions, build)
  try {
    const statuses = await s.send(requests)
    const before = s.finished
    const first = await s.scrape()
    await s.finishedCount(before + 1)
    const second = await s.scrape()
    return { statuses, first, second }
  } finally {
    await s.close()
  }
}

for (const kind of /** @type {const} */ (['hotpath/fastify', 'hotpath'])) {
  for (const mode of HTTP1_MODES) {
    test(`${kind} [${mode}]: requests are counted by method, route template and status, as on Fastify`, async () => {
      const fastify = await run('fastify', mode === 'inject' ? 'inject' : 'node', { routeMetrics: { registeredRoutesOnly: false } }, SEQUENCE)
      const ours = await run(kind, mode, { routeMetrics: { registeredRoutesOnly: false } }, SEQUENCE)
      assert.deepEqual(fastify.statuses, SEQUENCE_STATUSES)
      assert.deepEqual(ours.statuses, SEQUENCE_STATUSES)

      const { series, counts } = requestMetrics(ours.first.body)
      assert.deepEqual(counts, expectedCounts('__unknown__'))
      assert.deepEqual(requestMetrics(fastify.first.body), { series, counts })
      // never a raw path
      assert.ok(!series.some((k) => /\/users\/\d|\/nowhere|\/api\/orders\/7/.test(k)), 'no series names a raw path')
      // the histogram's buckets and the summary's quantiles carry the same labels
      assert.equal(samples(ours.first.body).get('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/users/:id",status_code="200"}'), 3)
      assert.ok(samples(ours.first.body).has('http_request_summary_seconds{method="POST",quantile="0.99",route="/items",status_code="413"}'))

      // the endpoint itself: prom-client's text format, and counted in the next scrape
      assert.equal(ours.first.headers['content-type'], fastify.first.headers['content-type'])
      assert.match(ours.first.headers['content-type'], /^text\/plain; version=0\.0\.4/)
      const next = requestMetrics(ours.second.body)
      assert.equal(next.counts['{method="GET",route="/metrics",status_code="200"}'], 1)
      assert.deepEqual(next, requestMetrics(fastify.second.body))

      // prom-client's default metrics, the same names as on Fastify
      assert.ok(declared(ours.first.body).includes('# TYPE process_cpu_user_seconds_total counter'))
      assert.ok(declared(ours.first.body).includes('# TYPE nodejs_eventloop_lag_seconds gauge'))
      assert.deepEqual(declared(ours.first.body), declared(fastify.first.body))
    })
  }
}

/** fastify-metrics' options that change which requests count and how they are labelled. */
const OPTION_CASES = [
  { title: 'registeredRoutesOnly (the default): requests no route matched are not counted', options: {} },
  { title: 'invalidRouteGroup and groupStatusCodes', options: { routeMetrics: { registeredRoutesOnly: false, invalidRouteGroup: 'unmatched', groupStatusCodes: true } } },
  {
    title: 'routeBlacklist, methodBlacklist, customLabels and a route\'s statsId',
    options: {
      routeMetrics: {
        registeredRoutesOnly: true,
        routeBlacklist: ['/teapot', /^\/api\//],
        methodBlacklist: ['OPTIONS'],
        customLabels: { service: 'shop', tenant: (/** @type {any} */ req) => req.headers['x-tenant'] ?? 'none' }
      }
    }
  },
  { title: 'a custom route label and label names', options: { routeMetrics: { registeredRoutesOnly: false, overrides: { labels: { route: 'path', status: 'code', getRouteLabel: (/** @type {any} */ req) => `${req.routeOptions.method} ${req.routeOptions.url ?? 'none'}` } } } } }
]

/** The routes, one of them with a statsId, and a not-found handler of a prefix. @param {any} app */
function routesWithStatsId (app) {
  routes(app)
  app.get('/reports/:year', { config: { statsId: 'yearly-report' } }, () => 'report')
  app.register(async (/** @type {any} */ api) => {
    api.setNotFoundHandler((/** @type {any} */ _req, /** @type {any} */ reply) => { reply.code(404).send('no such v2 thing') })
    api.get('/things', () => [])
  }, { prefix: '/v2' })
}

/** @type {(Req | string)[]} */
const OPTION_SEQUENCE = [
  ...SEQUENCE,
  { url: '/users/9', headers: { 'x-tenant': 'acme' } },
  '/reports/2024',
  '/v2/things',
  '/v2/nothing',
  { method: 'OPTIONS', url: '/users/1' }
]

for (const mode of HTTP1_MODES) {
  for (const { title, options } of OPTION_CASES) {
    test(`hotpath/fastify [${mode}]: ${title}, as on Fastify`, async () => {
      const fastify = await run('fastify', mode === 'inject' ? 'inject' : 'node', options, OPTION_SEQUENCE, routesWithStatsId)
      const ours = await run('hotpath/fastify', mode, options, OPTION_SEQUENCE, routesWithStatsId)
      assert.deepEqual(ours.statuses, fastify.statuses)
      const metrics = requestMetrics(ours.first.body)
      assert.ok(metrics.series.length > 0)
      assert.deepEqual(metrics, requestMetrics(fastify.first.body))
    })
  }
}

test('the option cases label as fastify-metrics documents them', async () => {
  const byOption = []
  for (const { options } of OPTION_CASES) byOption.push(requestMetrics((await run('hotpath/fastify', 'inject', options, OPTION_SEQUENCE, routesWithStatsId)).first.body).counts)
  const [registeredOnly, grouped, filtered, overridden] = byOption
  assert.ok(!Object.keys(registeredOnly).some((k) => k.includes('404')), 'no 404 counted with registeredRoutesOnly')
  assert.equal(registeredOnly['{method="GET",route="yearly-report",status_code="200"}'], 1)
  // /nowhere, /users/1/friends and /v2/nothing: a prefix's own not-found
  // handler is a request no route matched, as the default one
  assert.equal(grouped['{method="GET",route="unmatched",status_code="4xx"}'], 3)
  assert.equal(grouped['{method="GET",route="/v2/things",status_code="2xx"}'], 1)
  assert.equal(grouped['{method="DELETE",route="unmatched",status_code="4xx"}'], 1)
  assert.equal(filtered['{method="GET",route="/users/:id",service="shop",status_code="200",tenant="acme"}'], 1)
  assert.equal(filtered['{method="HEAD",route="/users/:id",service="shop",status_code="200",tenant="none"}'], 1)
  assert.ok(!Object.keys(filtered).some((k) => k.includes('/teapot') || k.includes('/api/')), 'blacklisted routes are not counted')
  assert.equal(overridden['{code="200",method="GET",path="GET /users/:id"}'], 4)
})

/**
 * Routes that answer other than by returning a value: each is labelled by
 * its template and the status that went out.
 * @param {any} app
 */
function otherAnswers (app) {
  app.get('/hijacked', (/** @type {any} */ _req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.writeHead(202, { 'content-type': 'text/plain' })
    reply.raw.end('taken over')
  })
  app.get('/gone', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.callNotFound() })
  app.get('/guarded', { preHandler: async () => { throw Object.assign(new Error('who are you'), { statusCode: 401 }) } }, () => 'never')
  app.get('/conflict', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.send(Object.assign(new Error('taken'), { statusCode: 409 })) })
  app.get('/unprocessable', async () => { await null; throw Object.assign(new Error('no'), { statusCode: 422 }) })
  app.get('/moved', (/** @type {any} */ _req, /** @type {any} */ reply) => reply.redirect('/files/a'))
  app.get('/nothing', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.code(204).send() })
  // answers 503 when its handlerTimeout passes: this handler never answers
  app.get('/stuck', { handlerTimeout: 20 }, () => new Promise(() => {}))
  app.get('/files/*', () => 'file')
  app.get('/range/:from-:to', () => 'range')
  app.route({ method: ['GET', 'PUT'], url: '/either', handler: () => 'either' })
  app.get('/stream-fails-first', (/** @type {any} */ _req, /** @type {any} */ reply) => {
    reply.type('text/plain').send(new Readable({ read () { this.destroy(new Error('no first byte')) } }))
  })
  app.get('/stream-fails-later', (/** @type {any} */ _req, /** @type {any} */ reply) => {
    let sent = false
    reply.type('text/plain').send(new Readable({
      read () {
        if (sent) return
        sent = true
        this.push('the first chunk')
        setImmediate(() => this.destroy(new Error('cut off')))
      }
    }))
  })
}

/** @type {(Req | string)[]} */
const OTHER_ANSWERS = ['/hijacked', '/gone', '/guarded', '/conflict', '/unprocessable', '/moved', '/nothing', '/stuck', '/files/a/b.txt', '/files/', '/range/1-5', '/either', { method: 'PUT', url: '/either' }, '/stream-fails-first']

/** what onResponse hooks read, as labels: reply.elapsedTime, request.is404 */
const WITH_HOOK_VIEW = {
  routeMetrics: {
    registeredRoutesOnly: false,
    customLabels: {
      timed: (/** @type {any} */ _req, /** @type {any} */ reply) => String(reply.elapsedTime > 0),
      not_found: (/** @type {any} */ req) => String(req.is404)
    }
  }
}

for (const mode of HTTP1_MODES) {
  test(`hotpath/fastify [${mode}]: hijacked replies, callNotFound(), hook errors, redirects, timeouts and failed streams are labelled as on Fastify`, async () => {
    // a stream cut off after its first bytes leaves the response unfinished
    // on a socket: no onResponse, nothing counted (inject collects what came)
    const requests = mode === 'inject' ? OTHER_ANSWERS : [...OTHER_ANSWERS, { url: '/stream-fails-later', cut: true }]
    const fastify = await run('fastify', mode === 'inject' ? 'inject' : 'node', WITH_HOOK_VIEW, requests, otherAnswers)
    const ours = await run('hotpath/fastify', mode, WITH_HOOK_VIEW, requests, otherAnswers)
    assert.deepEqual(ours.statuses.slice(0, OTHER_ANSWERS.length), [202, 404, 401, 409, 422, 302, 204, 503, 200, 200, 200, 200, 200, 500])
    const metrics = requestMetrics(ours.first.body)
    assert.deepEqual(metrics, requestMetrics(fastify.first.body))
    const { counts } = metrics
    assert.equal(counts['{method="GET",not_found="false",route="/hijacked",status_code="202",timed="true"}'], 1)
    assert.equal(counts['{method="GET",not_found="true",route="__unknown__",status_code="404",timed="true"}'], 1)
    assert.equal(counts['{method="GET",not_found="false",route="/stuck",status_code="503",timed="true"}'], 1)
    assert.equal(counts['{method="GET",not_found="false",route="/files/*",status_code="200",timed="true"}'], 2)
    assert.ok(!Object.keys(counts).some((k) => k.includes('stream-fails-later')), 'a response cut off is not counted')
  })
}

test('two apps in one process: the second needs clearRegisterOnInit, as on Fastify, and the registry then holds its metrics', async () => {
  /** @param {Kind} kind */
  async function twoApps (kind) {
    const first = await start(kind, 'inject', { routeMetrics: { registeredRoutesOnly: false } }, routes)
    await first.send(['/users/1', '/users/2'])
    // a second registration that does not clear the registry fails the
    // second app's start with prom-client's error
    const refused = await start(kind, 'inject', { clearRegisterOnInit: false }, routes).then(() => null, (err) => err.message)
    const second = await start(kind, 'inject', { routeMetrics: { registeredRoutesOnly: false } }, routes)
    await second.send(['/users/3'])
    // the first app still answers and records into its own (now detached) metrics
    const stillAnswers = (await first.request('/users/4')).statusCode
    await first.finishedCount(3)
    const scrapes = [(await first.scrape()).body, (await second.scrape()).body]
    await first.close()
    await second.close()
    return { refused, stillAnswers, counts: scrapes.map((s) => requestMetrics(s).counts) }
  }
  const fastify = await twoApps('fastify')
  const ours = await twoApps('hotpath/fastify')
  assert.match(String(ours.refused), /already been registered/)
  assert.equal(ours.stillAnswers, 200)
  assert.deepEqual(ours.counts[1], { '{method="GET",route="/users/:id",status_code="200"}': 1 })
  assert.deepEqual(ours, fastify)
  // prom-client's registry is global: both endpoints show the last app's
  // metrics (the first app's scrape went to its own, detached, histogram),
  // and the registry holds them, the second app's scrape included
  assert.deepEqual(ours.counts[0], ours.counts[1])
  const histogram = /** @type {any} */ (promClient.register.getSingleMetric('http_request_duration_seconds'))
  const countOf = (await histogram.get()).values.filter((/** @type {any} */ v) => v.metricName === 'http_request_duration_seconds_count')
  assert.deepEqual(countOf.map((/** @type {any} */ v) => [v.labels.route, v.labels.status_code, v.value]), [['/users/:id', 200, 1], ['/metrics', 200, 1]])
})

for (const mode of SOCKET_MODES) {
  test(`hotpath/fastify [${mode}]: a request whose client went away before the answer is not counted, as on Fastify`, async () => {
    /** @param {Kind} kind */
    async function abandoned (kind) {
      /** @type {() => void} */
      let aborted = () => {}
      const gone = new Promise((resolve) => { aborted = () => resolve(undefined) })
      /** @type {() => void} */
      let reached = () => {}
      const inHandler = new Promise((resolve) => { reached = () => resolve(undefined) })
      const s = await start(kind, kind === 'fastify' ? 'node' : mode, { routeMetrics: { registeredRoutesOnly: false } }, (app) => {
        routes(app)
        app.addHook('onRequestAbort', (/** @type {any} */ _req, /** @type {() => void} */ done) => { aborted(); done() })
        // answers only once the client has gone
        app.get('/slow', async () => { reached(); await gone; return 'too late' })
      })
      try {
        const socket = await rawClient(s.port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
        await inHandler
        socket.destroy()
        await gone
        await s.send(['/users/1'])
        return requestMetrics((await s.scrape()).body).counts
      } finally {
        await s.close()
      }
    }
    const ours = await abandoned('hotpath/fastify')
    assert.deepEqual(ours, { '{method="GET",route="/users/:id",status_code="200"}': 1 })
    assert.deepEqual(ours, await abandoned('fastify'))
  })

  test(`hotpath/fastify [${mode}]: what the engine refuses before routing (a malformed request, a head too large) reaches no hook and no metric`, async () => {
    const s = await start('hotpath/fastify', mode, { routeMetrics: { registeredRoutesOnly: false } }, routes)
    try {
      const malformed = await rawRequest(s.port, 'GET /users/1 HTTP/1.1\r\nHost: x\r\nNo Colon Here\r\n\r\n')
      assert.match(malformed, /^HTTP\/1\.1 400 /)
      const huge = await rawRequest(s.port, `GET /users/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
      assert.match(huge, /^HTTP\/1\.1 431 /)
      assert.equal(s.finished, 0)
      await s.send(['/users/1'])
      assert.deepEqual(requestMetrics((await s.scrape()).body).counts, { '{method="GET",route="/users/:id",status_code="200"}': 1 })
    } finally {
      await s.close()
    }
  })
}

/**
 * Opens a connection, writes `bytes` and resolves with the socket once the
 * request was written.
 * @param {number} port
 * @param {string} bytes
 * @returns {Promise<import('node:net').Socket>}
 */
async function rawClient (port, bytes) {
  const net = await import('node:net')
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes, () => resolve(socket)))
    socket.on('error', reject)
  })
}
