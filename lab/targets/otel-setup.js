// Tracing as users turn it on: `node --import ./otel-setup.js app.js` starts
// OpenTelemetry's Node SDK before the application loads, with the HTTP
// instrumentation (a span per request and the http.server.request.duration
// histogram) and @fastify/otel (a span per request, hook and handler, attached
// through the 'fastify.initialization' channel, so the app is unchanged).
// Spans go through the usual BatchSpanProcessor to an exporter that counts
// and drops them: the lab measures the instrumentation, not a network
// exporter. Metrics are recorded by a reader whose export interval is longer
// than any run. The count of exported spans is published for the lab's probe
// (runner/probe.js), so a report can show that tracing was on.

import { register } from 'node:module'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { FastifyOtelInstrumentation } from '@fastify/otel'
import { labCounters } from '../runner/counters.js'

// The application is ES modules: without OpenTelemetry's loader hook, only
// modules loaded with require() are patched (fastify's node:http is, an ESM
// app's own import of node:http is not), as its ESM support guide says.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)

const counters = labCounters()
counters.spansExported = 0
counters.metricExports = 0

/** @type {import('@opentelemetry/sdk-trace-base').SpanExporter} */
const countingSpanExporter = {
  export (spans, resultCallback) {
    counters.spansExported += spans.length
    resultCallback({ code: 0 })
  },
  async shutdown () {},
  async forceFlush () {}
}

/** @type {import('@opentelemetry/sdk-metrics').PushMetricExporter} */
const droppingMetricExporter = {
  export (metrics, resultCallback) {
    counters.metricExports++
    resultCallback({ code: 0 })
  },
  async shutdown () {},
  async forceFlush () {}
}

const sdk = new NodeSDK({
  serviceName: 'hotpath-lab',
  spanProcessors: [new BatchSpanProcessor(countingSpanExporter)],
  // an hour: the histogram is recorded per request, and exported never during a run
  metricReaders: [new PeriodicExportingMetricReader({ exporter: droppingMetricExporter, exportIntervalMillis: 3_600_000 })],
  // no log records are emitted: no OTLP log exporter to set up
  logRecordProcessors: [],
  instrumentations: [new HttpInstrumentation(), new FastifyOtelInstrumentation({ registerOnInitialization: true })]
})
sdk.start()
