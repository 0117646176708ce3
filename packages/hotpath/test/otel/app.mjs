// The instrumented app of test/otel.test.js, run as `node --import
// ./setup.mjs app.mjs <entry> <engine>`: it serves a few routes, requests
// them (fetch over a socket, or inject()), and prints the finished spans and
// the request-duration points as JSON on its last line.
import { context as otelContext, trace } from '@opentelemetry/api'

const [entry, engine] = process.argv.slice(2)
const mod = entry === 'fastify' ? await import('hotpath/fastify') : await import('hotpath')
const create = mod.default
const options = engine === 'inject' ? {} : { engine }
const app = create(options)

/** the trace id each handler saw as active, by request id header */
const seen = {}

app.addHook('onRequest', async function markRequest () {})
// a hook written with done(), as Fastify apps and plugins write them: under
// @fastify/otel it is called through a wrapper that declares no parameter
if (entry === 'fastify') app.addHook('preHandler', function callbackHook (req, reply, done) { setImmediate(done) })
app.get('/users/:id', async function getUser (req) {
  await new Promise((resolve) => setImmediate(resolve))
  const span = trace.getSpan(otelContext.active())
  if (req.headers['x-case'] !== undefined) seen[req.headers['x-case']] = span?.spanContext().traceId ?? null
  return { id: req.params.id }
})
app.get('/sync/:id', function syncUser (req) { return { id: req.params.id } })
app.get('/boom', function boom () { throw new Error('kaboom') })
app.get('/bad-gateway', function badGateway (req, reply) { reply.code(502).send({ upstream: 'down' }) })

await app.ready()
let base = null
if (engine !== 'inject') base = await app.listen({ port: 0, host: '127.0.0.1' })

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
const requests = [
  { case: 'ok', url: '/users/42' },
  { case: 'sync', url: '/sync/7' },
  { case: 'throws', url: '/boom' },
  { case: '5xx', url: '/bad-gateway' },
  { case: '404', url: '/nope/123' },
  { case: 'parent', url: '/users/9', headers: { traceparent: TRACEPARENT } }
]
const statuses = {}
for (const r of requests) {
  const headers = { 'x-case': r.case, ...r.headers }
  if (base === null) {
    const res = await app.inject({ url: r.url, headers })
    statuses[r.case] = res.statusCode
  } else {
    const res = await fetch(base + r.url, { headers })
    await res.arrayBuffer()
    statuses[r.case] = res.status
  }
}

const { exporter, reader, sdk } = globalThis.otelTest
// spans end at the response's 'close': wait for one SERVER span per request
// (polled, up to 10 s: on a busy machine the last 'close' can come late)
for (let i = 0; i < 2000; i++) {
  if (exporter.getFinishedSpans().filter((s) => s.kind === 1).length >= requests.length) break
  await new Promise((resolve) => setTimeout(resolve, 5))
}
const spans = exporter.getFinishedSpans().map((s) => ({
  name: s.name,
  kind: s.kind,
  traceId: s.spanContext().traceId,
  spanId: s.spanContext().spanId,
  parentSpanId: s.parentSpanContext?.spanId ?? s.parentSpanId,
  attributes: s.attributes,
  status: s.status
}))
const { resourceMetrics } = await reader.collect()
const points = []
for (const scope of resourceMetrics.scopeMetrics) {
  for (const metric of scope.metrics) {
    if (metric.descriptor.name !== 'http.server.request.duration') continue
    for (const point of metric.dataPoints) points.push({ attributes: point.attributes, count: point.value.count })
  }
}
await app.close()
await sdk.shutdown()
process.stdout.write('\n' + JSON.stringify({ statuses, seen, spans, points }) + '\n')
