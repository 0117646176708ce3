// Traces and metrics with the OpenTelemetry setup Fastify users run: the
// SDK with @opentelemetry/instrumentation-http and @fastify/otel, loaded by
// `node --import ./setup.mjs` before the app (test/otel/). Each entry and
// engine runs in a child process that prints its finished spans and the
// http.server.request.duration points; the assertions are made here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { HTTP1_MODES } from './helpers/engines.js'

const SETUP = fileURLToPath(new URL('./otel/setup.mjs', import.meta.url))
const APP = fileURLToPath(new URL('./otel/app.mjs', import.meta.url))
const SERVER = 1 // SpanKind.SERVER
const ERROR = 2 // SpanStatusCode.ERROR
const PARENT_TRACE = '0af7651916cd43dd8448eb211c80319c'

/**
 * @typedef {{ name: string, kind: number, traceId: string, spanId: string, parentSpanId?: string, attributes: Record<string, any>, status: { code: number } }} Span
 * @typedef {{ statuses: Record<string, number>, seen: Record<string, string | null>, spans: Span[], points: { attributes: Record<string, any>, count: number }[] }} Run
 */

/**
 * @param {string} entry
 * @param {string} engine
 * @returns {Promise<Run>}
 */
function run (entry, engine) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', SETUP, APP, entry, engine], { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) return reject(Object.assign(err, { stderr }))
      const lines = stdout.trim().split('\n')
      resolve(JSON.parse(lines[lines.length - 1]))
    })
  })
}

/**
 * The SERVER span of the request whose path is `path`.
 * @param {Run} result
 * @param {string} path
 */
function serverSpan (result, path) {
  const found = result.spans.filter((s) => s.kind === SERVER && s.attributes['url.path'] === path)
  assert.equal(found.length, 1, `one SERVER span for ${path}, got ${found.length}`)
  return found[0]
}

/**
 * Whether `span` descends from `ancestor` through the parents recorded.
 * @param {Run} result
 * @param {Span} span
 * @param {Span} ancestor
 */
function descends (result, span, ancestor) {
  const byId = new Map(result.spans.map((s) => [s.spanId, s]))
  for (let s = span; s.parentSpanId !== undefined;) {
    if (s.parentSpanId === ancestor.spanId) return true
    const parent = byId.get(s.parentSpanId)
    if (parent === undefined) return false
    s = parent
  }
  return false
}

for (const entry of ['fastify', 'hotpath']) {
  // HTTP/1.1 only: the app under test is read with fetch, and
  // instrumentation-http traces node:http's server
  for (const engine of HTTP1_MODES) {
    test(`OpenTelemetry with instrumentation-http and @fastify/otel: hotpath${entry === 'fastify' ? '/fastify' : '()'} on ${engine}`, async () => {
      const result = await run(entry, engine)
      assert.deepEqual(result.statuses, { ok: 200, sync: 200, throws: 500, '5xx': 502, 404: 404, parent: 200 })

      // exactly one SERVER span per request, all of them
      assert.equal(result.spans.filter((s) => s.kind === SERVER).length, 6)

      const ok = serverSpan(result, '/users/42')
      assert.equal(ok.name, 'GET /users/:id')
      assert.equal(ok.attributes['http.route'], '/users/:id')
      assert.equal(ok.attributes['http.response.status_code'], 200)
      assert.notEqual(ok.status.code, ERROR)
      // the handler ran in the SERVER span's trace
      assert.equal(result.seen.ok, ok.traceId)
      // @fastify/otel's spans (its request span, the hook, the handler) descend from it
      const own = result.spans.filter((s) => s.traceId === ok.traceId && s !== ok)
      assert.ok(own.some((s) => s.name === 'request'), 'the @fastify/otel request span')
      assert.ok(own.some((s) => s.name === 'onRequest - markRequest'), 'the onRequest hook span')
      assert.ok(own.some((s) => s.name === 'handler - getUser'), 'the handler span')
      if (entry === 'fastify') assert.ok(own.some((s) => s.name === 'preHandler - callbackHook'), 'the span of a hook written with done()')
      for (const s of own) {
        assert.notEqual(s.kind, SERVER)
        assert.ok(descends(result, s, ok), `${s.name} descends from the SERVER span`)
      }

      const sync = serverSpan(result, '/sync/7')
      assert.equal(sync.name, 'GET /sync/:id')
      assert.equal(sync.attributes['http.route'], '/sync/:id')

      const throws = serverSpan(result, '/boom')
      assert.equal(throws.name, 'GET /boom')
      assert.equal(throws.attributes['http.response.status_code'], 500)
      assert.equal(throws.status.code, ERROR)

      const bad = serverSpan(result, '/bad-gateway')
      assert.equal(bad.attributes['http.response.status_code'], 502)
      assert.equal(bad.status.code, ERROR)

      // a 404 is named by its method alone: no raw path as name or route
      const missing = serverSpan(result, '/nope/123')
      assert.equal(missing.name, 'GET')
      assert.equal(missing.attributes['http.route'], undefined)
      assert.equal(missing.attributes['http.response.status_code'], 404)
      for (const s of result.spans) {
        assert.ok(!s.name.includes('/nope/123'), `no raw path in ${s.name}`)
        assert.ok(!String(s.attributes['http.route'] ?? '').includes('/nope'), 'no raw path as http.route')
      }

      // an incoming traceparent is continued
      const child = serverSpan(result, '/users/9')
      assert.equal(child.traceId, PARENT_TRACE)
      assert.equal(child.parentSpanId, 'b7ad6b7169203331')
      assert.equal(result.seen.parent, PARENT_TRACE)

      // the request-duration histogram, by route
      const routes = result.points.map((p) => p.attributes['http.route'])
      assert.ok(routes.includes('/users/:id'))
      assert.ok(routes.includes('/boom'))
      const users = result.points.find((p) => p.attributes['http.route'] === '/users/:id')
      assert.equal(users?.count, 2)
      assert.equal(result.points.find((p) => p.attributes['http.route'] === '/boom')?.attributes['error.type'], '500')
      assert.ok(result.points.every((p) => !String(p.attributes['http.route'] ?? '').includes('/nope')))
    })
  }
}
