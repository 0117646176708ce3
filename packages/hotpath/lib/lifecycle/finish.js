// What happens after the response (or instead of it): onResponse hooks and
// the completion log line when it was handed to the socket; req.signal,
// onRequestAbort and later sends ignored when the client went away first;
// onTimeout and a 503 when the request timeout passes unanswered.
import { createError } from '../errors.js'
import { runDetached, markDone, isThenable, EmptyRejection } from './kernel.js'
import { handleError } from './handle-error.js'

/**
 * Asks the engine to report the end of this response, once per request.
 * Registered only when something needs it (onResponse/onRequestAbort hooks,
 * logging, or req.signal was read), so the plain path pays nothing.
 * @param {import('../reply/reply.js').Reply} reply
 */
export function ensureFinishListener (reply) {
  if (reply._listening) return
  reply._listening = true
  const trace = reply._requestTrace
  if (trace === null) {
    reply._res.onEnd(onFinished, reply)
    return
  }
  // a traced request listens already (./request-trace.js), and runs this
  // one when it settles; asked after that, it runs now
  if (trace.ended && !trace.dispatching) onFinished(reply, trace.endError)
}

/**
 * @param {import('../reply/reply.js').Reply} reply
 * @param {Error | null} error
 */
export function onFinished (reply, error) {
  if (reply._timer !== null) {
    clearTimeout(reply._timer)
    reply._timer = null
  }
  const req = reply.request
  const route = reply.route
  const app = route.app
  if (error !== null) {
    reply._aborted = true
    if (!reply._done) markDone(reply)
    abortSignal(req, error)
    // the connection's idle timeout (connectionTimeout) ended it: Fastify
    // runs onTimeout on the socket's 'timeout', before the abort
    if (route.onTimeout !== null && /** @type {any} */ (error).code === 'ETIMEDOUT') runDetached(route.onTimeout, route.instance, req, reply)
    if (route.onRequestAbort !== null) runDetached(route.onRequestAbort, route.instance, req, reply)
    if (app.logger !== null && app.logRequests && (app.skipRequestLog === null || !app.skipRequestLog(req))) req.log.info({ req: requestFields(req), responseTime: elapsed(reply) }, 'request aborted by the client')
    return
  }
  // A response user code wrote through reply.raw (a hijacked reply; a
  // middleware's own answer, which wire hands to the socket before the
  // middleware returns, so before the reply is marked sent) went out with
  // reply.raw's status: the reply's is that one, as Fastify's
  // reply.statusCode reads reply.raw's. hotpath's own writes mark the reply
  // sent first.
  if (reply._raw !== null && (reply._hijacked || !reply._sent)) reply.statusCode = reply._raw.statusCode
  if (route.onResponse !== null) {
    // logFormat 'fastify': the completion line comes after the onResponse
    // hooks, and the first of them to fail ends them and makes it a
    // 'request errored' line, as Fastify's onResponse runner does
    if (app.fastifyLogs) {
      runResponseHooks(reply, 0)
      return
    }
    runDetached(route.onResponse, route.instance, req, reply)
  }
  logCompleted(reply, null)
}

/**
 * The onResponse hooks as Fastify runs them, one after another until one
 * fails, then the completion line.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {number} i
 */
function runResponseHooks (reply, i) {
  const route = reply.route
  const hooks = /** @type {Function[]} */ (route.onResponse)
  for (; i < hooks.length; i++) {
    let r
    try {
      r = hooks[i].call(route.instance, reply.request, reply)
    } catch (err) {
      logCompleted(reply, err)
      return
    }
    if (isThenable(r)) {
      const next = i + 1
      r.then(() => runResponseHooks(reply, next), (err) => logCompleted(reply, err || new EmptyRejection()))
      return
    }
  }
  logCompleted(reply, null)
}

/**
 * The request's completion line; `err`, an onResponse hook's failure,
 * makes it Fastify's 'request errored' line at error level.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {unknown} err
 */
function logCompleted (reply, err) {
  const req = reply.request
  const app = reply.route.app
  if (app.logController !== null) {
    if (app.logger !== null) app.logController.requestCompleted(/** @type {Error | null} */ (err), req, reply)
  } else if (app.logger !== null && app.logRequests && (app.skipRequestLog === null || !app.skipRequestLog(req))) {
    // Fastify's line has no request (its "incoming request" line had it,
    // through the app's `req` serializer); hotpath's one line names it
    if (err !== null && err !== undefined) req.log.error({ res: { statusCode: reply.statusCode }, err, responseTime: elapsed(reply) }, 'request errored')
    else if (app.fastifyLogs) req.log.info({ res: { statusCode: reply.statusCode }, responseTime: elapsed(reply) }, 'request completed')
    else req.log.info({ req: requestFields(req), res: { statusCode: reply.statusCode }, responseTime: elapsed(reply) }, 'request completed')
  } else if (err !== null && err !== undefined && app.logger !== null) {
    // request lines off: the failure is still an error of the app's
    req.log.error({ err }, 'hook failed')
  }
}

/**
 * Aborts req.signal. One not read yet is created now, already aborted, so
 * a handler that reads it later sees what one that read it first saw; this
 * costs an AbortController only on these rare paths (client gone, timeout).
 * @param {import('./request.js').Request} req
 * @param {unknown} reason
 */
function abortSignal (req, reason) {
  let controller = req._controller
  if (controller === undefined) controller = req._controller = new AbortController()
  if (!controller.signal.aborted) controller.abort(reason)
}

/**
 * Fastify's "incoming request" line (logFormat 'fastify'). Only for routes
 * with logging on.
 * @param {import('./request.js').Request} req
 */
export function logIncoming (req) {
  const controller = req.route.app.logController
  if (controller !== null) {
    controller.incomingRequest(req, req.reply)
    return
  }
  const skip = req.route.app.skipRequestLog
  if (skip !== null && skip(req)) return
  // the request itself, as Fastify logs it: the logger's `req` serializer
  // (lib/logger.js FASTIFY_SERIALIZERS, or the app's own) picks the fields
  req.log.info({ req }, 'incoming request')
}

/**
 * The request on its one log line, as Fastify's "incoming request" shows
 * it (method, url as received), plus the route's template, which groups
 * requests where the url does not ('/users/:id'); absent when no route
 * matched. Built only when logging is on.
 * @param {import('./request.js').Request} req
 */
function requestFields (req) {
  const route = req.route
  return { method: req.method, url: req.url, route: route.method === '*' ? undefined : route.url }
}

/** @param {import('../reply/reply.js').Reply} reply */
function elapsed (reply) {
  return Math.round((performance.now() - reply._startTime) * 1000) / 1000
}

/**
 * The request timeout passed before the request was answered.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {number} ms
 */
export function timeoutReply (reply, ms) {
  const req = reply.request
  const route = reply.route
  abortSignal(req, new DOMException('The request timed out', 'TimeoutError'))
  if (route.onTimeout !== null) runDetached(route.onTimeout, route.instance, req, reply)
  if (reply._readingBody && req._incoming.complete === false) {
    // The body is being read and the client has not finished sending it:
    // the client is late, not the handler (408, RFC 9110 §15.5.9). A body
    // nobody reads (a preParsing hook replaced it) is not the client's
    // delay. The rest of the body is never read, so the connection ends
    // after the answer.
    reply.header('connection', 'close')
    handleError(reply, createError('HP_ERR_REQUEST_TIMEOUT'))
    return
  }
  handleError(reply, route.app.error('HP_ERR_HANDLER_TIMEOUT', ms, route.url))
}

/**
 * A route's handlerTimeout (Fastify's): one timer from the request's
 * arrival, cleared when the response has gone (the route tracks its end)
 * or the reply is hijacked. Only routes with a handlerTimeout pay for it.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {number} ms
 */
export function startHandlerTimer (reply, ms) {
  reply._timer = setTimeout(handlerTimedOut, ms, reply, ms)
}

/**
 * The handlerTimeout passed before the reply was sent: req.signal aborts
 * with the error as its reason, and the error path answers it (503, or what
 * the route's error handler sends).
 * @param {import('../reply/reply.js').Reply} reply
 * @param {number} ms
 */
function handlerTimedOut (reply, ms) {
  reply._timer = null
  if (reply._done || reply.sent) return
  const route = reply.route
  const err = route.app.error('HP_ERR_HANDLER_TIMEOUT', ms, route.url)
  abortSignal(reply.request, err)
  handleError(reply, err)
}
