// The node:diagnostics_channel channels an app publishes on, under Fastify's
// names so that tools written for Fastify (OpenTelemetry's instrumentation,
// APMs) see hotpath's requests too (docs/observability.md):
//
// - `fastify.initialization`: `{ fastify: app }`, once per app, when it is
//   created;
// - the tracing channel `fastify.request.handler` (`tracing:…:start`,
//   `:end`, `:asyncStart`, `:asyncEnd`, `:error`) around a route's handler.
//
// Nothing here runs for an app nobody listens to: the handler stage reads
// `handlerChannel.hasSubscribers` once per request and takes the traced
// path only when it is true. This module imports nothing of hotpath's, so
// every stage may use it.
import diagnostics from 'node:diagnostics_channel'

/** @typedef {import('../reply/reply.js').Reply} Reply */

/**
 * What the handler channel publishes, one object per traced request: the
 * same object goes through start, end, error, asyncStart and asyncEnd.
 * @typedef {object} HandlerTrace
 * @property {import('./request.js').Request} request
 * @property {Reply} reply
 * @property {boolean} async  the handler returned a thenable (or an error handler did)
 * @property {{ url: string, method: string | string[] }} route  the route as declared
 * @property {unknown} [error]  what the handler threw or rejected with
 */

export const handlerChannel = diagnostics.tracingChannel('fastify.request.handler')
export const initChannel = diagnostics.channel('fastify.initialization')

/**
 * The message for the reply's handler, kept on the reply so that an error
 * handler that runs later for it reports under the same message.
 * @param {Reply} reply
 * @returns {HandlerTrace}
 */
export function startTrace (reply) {
  const config = reply.route.requestOptions.config
  /** @type {HandlerTrace} */
  const trace = { request: reply.request, reply, async: false, route: { url: config.url, method: config.method } }
  reply._trace = trace
  return trace
}

/**
 * Publishes a failure of the traced handler (or of an error handler that
 * runs under its trace) on the error channel. The status the error will be
 * answered with is set first, so that a subscriber reading
 * `reply.statusCode` sees it; an error handler may still change it.
 * @param {Reply} reply
 * @param {unknown} err
 * @param {(reply: Reply, err: unknown) => number} statusFor  the error path's rule
 */
export function publishError (reply, err, statusFor) {
  const trace = /** @type {HandlerTrace} */ (reply._trace)
  trace.error = err
  if (!reply.sent && reply.statusCode < 400) reply.statusCode = statusFor(reply, err)
  handlerChannel.error.publish(trace)
}

/**
 * A thenable that settles as `thenable` does, for the kernel to park on,
 * with the trace's asyncStart and asyncEnd around whatever the kernel does
 * when it settles (the error first when it rejects). They are published
 * even when the request was settled meanwhile and the kernel does nothing,
 * so that a subscriber always sees the pair. Only traced requests get here:
 * the closures are theirs alone.
 * @param {Reply} reply
 * @param {PromiseLike<unknown>} thenable
 * @param {(reply: Reply, err: unknown) => number} statusFor
 * @returns {PromiseLike<unknown>}
 */
export function tracedThenable (reply, thenable, statusFor) {
  const trace = /** @type {HandlerTrace} */ (reply._trace)
  trace.async = true
  return /** @type {PromiseLike<unknown>} */ (/** @type {unknown} */ ({
    then (/** @type {(value: unknown) => void} */ onValue, /** @type {(err: unknown) => void} */ onError) {
      thenable.then((value) => {
        handlerChannel.asyncStart.publish(trace)
        try {
          onValue(value)
        } finally {
          handlerChannel.asyncEnd.publish(trace)
        }
      }, (err) => {
        publishError(reply, err, statusFor)
        handlerChannel.asyncStart.publish(trace)
        try {
          onError(err)
        } finally {
          handlerChannel.asyncEnd.publish(trace)
        }
      })
    }
  }))
}

// hotpath's own channels, the same on every engine (docs/observability.md):
//
// - the tracing channel `hotpath.request` around a whole request, from the
//   moment the core takes it from the engine to the moment its response has
//   been handed to the socket (./request-trace.js publishes on it);
// - `hotpath.request.rejected`: each answer an engine or the core gives
//   before any route sees the request (a malformed head, a timeout, a head
//   or request-target too large, overload, closing).
export const requestChannel = diagnostics.tracingChannel('hotpath.request')
export const rejectedChannel = diagnostics.channel('hotpath.request.rejected')

/**
 * What `hotpath.request.rejected` publishes.
 * @typedef {object} Rejection
 * @property {number} statusCode  the status of the answer (400, 408, 413, 414, 431, 503…)
 * @property {string} code  the HP_ERR_* code of the answer (docs/errors.md), or node:http's for its own refusals
 * @property {string} [method]  when the request line was read
 * @property {string} [url]  when the request line was read
 * @property {string} [remoteAddress]
 */

/**
 * Publishes one rejection; callers are on the refusal paths, never the
 * request path, and check nothing before calling.
 * @param {number} statusCode
 * @param {string} code
 * @param {string | undefined} method
 * @param {string | undefined} url
 * @param {string | undefined} remoteAddress
 */
export function publishRejected (statusCode, code, method, url, remoteAddress) {
  if (!rejectedChannel.hasSubscribers) return
  /** @type {Rejection} */
  const msg = { statusCode, code }
  if (method !== undefined) msg.method = method
  if (url !== undefined) msg.url = url
  if (remoteAddress !== undefined) msg.remoteAddress = remoteAddress
  rejectedChannel.publish(msg)
}
