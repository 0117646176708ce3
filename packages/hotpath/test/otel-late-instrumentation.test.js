// An instrumentation of node:http enabled after the framework loaded
// (@opentelemetry/instrumentation-http, which patches node:http when it is
// required): on Fastify it takes effect at the process's first inject(),
// which requires node:http again (light-my-request loads then), and the
// requests served over a socket after it get their SERVER span. The same
// on hotpath (wire, which calls node:http's emit only when it is wrapped).
// hotpath runs first: Fastify's first inject() patches the one node:http
// both share.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import Fastify from 'fastify'
import hotpathFastify from '../lib/fastify.js'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const instrumentation = new HttpInstrumentation()
instrumentation.setTracerProvider(provider)

/** @param {any} factory */
async function serverSpans (factory) {
  const app = factory()
  app.get('/', () => 'ok')
  const injected = await app.inject('/')
  // the spans of the requests over the socket (hotpath's inject() is seen
  // too once node:http's emit is wrapped, Fastify's is not)
  exporter.reset()
  await app.listen({ port: 0, host: '127.0.0.1' })
  const status = await new Promise((resolve, reject) => {
    http.get({ port: app.server.address().port, path: '/', agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    }).on('error', reject)
  })
  await app.close()
  const spans = exporter.getFinishedSpans()
    .filter((s) => s.instrumentationScope.name === '@opentelemetry/instrumentation-http' && s.kind === 1)
    .map((s) => `${s.name} ${s.attributes['http.status_code'] ?? s.attributes['http.response.status_code']}`)
  return { injected: injected.statusCode, status, spans }
}

test('an http instrumentation enabled after load sees the requests served after the first inject(), as on Fastify', async () => {
  const hotpath = await serverSpans(hotpathFastify)
  const fastify = await serverSpans(Fastify)
  assert.deepEqual(fastify, { injected: 200, status: 200, spans: ['GET 200'] })
  assert.deepEqual(hotpath, fastify)
  instrumentation.disable()
})
