// The `hotpath.request` tracing channel (./tracing.js) around a whole
// request, on every engine:
//
//   start, end        around the core's synchronous work on the request,
//                     from the moment it takes it from the engine (before
//                     the route lookup); `start` enters the stores bound to
//                     it, so the hooks, the handler and what they await run
//                     in them
//   error             the request failed: answered 5xx for an error, or the
//                     connection closed before the response was written
//   asyncStart,       once the response has been handed to the socket (the
//   asyncEnd          engine's onEnd), around the onResponse hooks; after
//                     `end` even when the response was written at once
//
// The entry point reads `requestChannel.hasSubscribers` once per request
// (../app/boot.js); nothing here runs for an app nobody traces. The message
// is found from the reply through `reply._requestTrace`, set when the reply
// is made during a traced dispatch (`dispatching`).
import { requestChannel, rejectedChannel, publishRejected } from './tracing.js'
import { onFinished } from './finish.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */

/**
 * One traced request: the one message of all its events.
 */
export class RequestTrace {
  /**
   * @param {string} method
   * @param {string} url
   */
  constructor (method, url) {
    /** @type {import('./request.js').Request | undefined} hotpath's Request, once routed */
    this.request = undefined
    /** @type {Reply | undefined} */
    this.reply = undefined
    /** the method as received */
    this.method = method
    /** the request-target as received (before rewriteUrl, for an app that has it) */
    this.url = url
    /** @type {string | undefined} the route's template ('/users/:id', with its prefix); undefined when no route matched (404) */
    this.route = undefined
    /** @type {number | undefined} the status answered; set before `error` and `asyncStart` */
    this.statusCode = undefined
    /** @type {unknown} what failed the request: the error answered 5xx, or the connection's */
    this.error = undefined
    /** the synchronous dispatch is running: an end reported meanwhile waits for `end` */
    this.dispatching = true
    /** the engine reported the end of the response */
    this.ended = false
    /** @type {Error | null} the engine's error when the connection closed first */
    this.endError = null
  }
}

/**
 * @type {RequestTrace | null} the trace whose dispatch is running: the
 * reply made now belongs to it (../reply/reply.js reads it once per reply)
 */
export let dispatching = null

/**
 * The traced entry point: the core's dispatch inside the channel's start
 * and end.
 * @template C, R, S
 * @param {(core: C, raw: R, res: S) => void} dispatch
 * @param {C} core
 * @param {R & { method: string, url: string }} raw
 * @param {S} res
 */
export function traceRequest (dispatch, core, raw, res) {
  const trace = new RequestTrace(raw.method, raw.url)
  // an inject() made synchronously by a handler dispatches inside this one
  const outer = dispatching
  dispatching = trace
  try {
    requestChannel.start.runStores(trace, dispatch, undefined, core, raw, res)
  } finally {
    dispatching = outer
    trace.dispatching = false
    requestChannel.end.publish(trace)
  }
  // answered during the dispatch: the end reported meanwhile is published
  // now, after `end`; refused before routing (414, overload): answered
  // already, with no reply to wait for
  if (trace.ended) settle(trace)
  else if (trace.reply === undefined && trace.statusCode !== undefined) settle(trace)
}

/**
 * A reply made during a traced dispatch joins its trace; its end is
 * reported to `tracedEnd` (which runs the core's onFinished when the route
 * asked for it, see ./finish.js ensureFinishListener).
 * @param {RequestTrace} trace
 * @param {Reply} reply
 */
export function adoptReply (trace, reply) {
  // one reply per request; a later one (none today) stays untraced
  if (trace.reply !== undefined) return
  trace.reply = reply
  trace.request = reply.request
  trace.route = reply.route.notFound ? undefined : reply.route.url
  reply._requestTrace = trace
  reply._res.onEnd(tracedEnd, reply)
}

/**
 * A request the core refuses before routing (414, overload): on
 * `hotpath.request.rejected`, and the status of the trace being dispatched.
 * @param {number} statusCode
 * @param {string} code
 * @param {import('../engines/engine.js').RawRequest} raw
 */
export function refusedBeforeRouting (statusCode, code, raw) {
  if (dispatching !== null) dispatching.statusCode = statusCode
  if (rejectedChannel.hasSubscribers) publishRejected(statusCode, code, raw.method, raw.url, raw.socket?.remoteAddress)
}

/**
 * @param {Reply} reply
 * @param {Error | null} err
 */
function tracedEnd (reply, err) {
  const trace = /** @type {RequestTrace} */ (reply._requestTrace)
  trace.ended = true
  trace.endError = err
  if (!trace.dispatching) settle(trace)
}

/**
 * The response is out (or the connection is gone): error, then asyncStart
 * and asyncEnd around the onResponse hooks.
 * @param {RequestTrace} trace
 */
function settle (trace) {
  const reply = trace.reply
  if (reply !== undefined) {
    trace.statusCode = reply.statusCode
    const err = trace.endError
    if (err !== null) trace.error = err
    else if (reply.statusCode >= 500 && reply._error !== null && reply._error !== undefined) trace.error = reply._error
  }
  if (trace.error !== undefined) requestChannel.error.publish(trace)
  requestChannel.asyncStart.publish(trace)
  try {
    if (reply !== undefined && reply._listening) onFinished(reply, trace.endError)
  } finally {
    requestChannel.asyncEnd.publish(trace)
  }
}
