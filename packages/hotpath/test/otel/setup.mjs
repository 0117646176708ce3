// What a user runs an instrumented app with: `node --import ./setup.mjs app.js`.
// The OpenTelemetry SDK with node:http's instrumentation and @fastify/otel,
// spans kept in memory and metrics collected on demand, for the test to read.
import { register } from 'node:module'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { SimpleSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base'
import { MetricReader } from '@opentelemetry/sdk-metrics'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { FastifyOtelInstrumentation } from '@fastify/otel'

/** A reader that exports nothing: collect() is called by the app at the end. */
class CollectingReader extends MetricReader {
  async onForceFlush () {}
  async onShutdown () {}
}

// OpenTelemetry's loader hook, so that ES modules (node:http imported by
// the app) are instrumented too, as its documentation sets up ESM apps
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)

const exporter = new InMemorySpanExporter()
const reader = new CollectingReader()
const sdk = new NodeSDK({
  serviceName: 'hotpath-otel-test',
  spanProcessors: [new SimpleSpanProcessor(exporter)],
  metricReader: reader,
  instrumentations: [new HttpInstrumentation(), new FastifyOtelInstrumentation({ registerOnInitialization: true })]
})
sdk.start()

globalThis.otelTest = { exporter, reader, sdk }
