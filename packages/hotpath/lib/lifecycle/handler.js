// The handler stage: preHandler hooks, then the route's handler. What it
// returns (or resolves to) is the payload: the reply writer takes it from
// there (../reply/send.js).
import { createError } from '../errors.js'
import { isThenable, park, runHooks, takeLateOutcome } from './kernel.js'
import { tracedErrorStatus, handleError, stageFailed } from './handle-error.js'
import { sendPayload } from '../reply/send.js'
import { handlerChannel, publishError, startTrace, tracedThenable } from './tracing.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */

/** @param {Reply} reply */
export function handlerStage (reply) {
  const route = reply.route
  if (route.preHandler === null) callHandler(reply)
  else runHooks(reply, route.preHandler, 0, callHandler, preHandlerFailed)
}

/**
 * A preHandler hook failed. Traced, as in Fastify, as a handler that
 * failed at once: start, error, end around the error path.
 * @param {Reply} reply
 * @param {unknown} err
 */
function preHandlerFailed (reply, err) {
  if (handlerChannel.hasSubscribers && !reply.route.notFound && !reply.sent) {
    const trace = startTrace(reply)
    handlerChannel.start.runStores(trace, tracedFailure, undefined, reply, err)
  } else {
    stageFailed(reply, err)
  }
}

/**
 * @param {Reply} reply
 * @param {unknown} err
 */
function tracedFailure (reply, err) {
  try {
    publishError(reply, err, tracedErrorStatus)
    handleError(reply, err)
  } finally {
    handlerChannel.end.publish(reply._trace)
  }
}

/**
 * The one check tracing costs a request: with a subscriber to the handler
 * channel (./tracing.js), the handler runs traced. A not-found route's
 * handler is not traced, as in Fastify: the 404 of a route that called
 * reply.callNotFound() is within that route's trace.
 * @param {Reply} reply
 */
function callHandler (reply) {
  if (handlerChannel.hasSubscribers && !reply.route.notFound) {
    const trace = startTrace(reply)
    handlerChannel.start.runStores(trace, tracedHandler, undefined, reply)
  } else {
    runHandler(reply)
  }
}

/** @param {Reply} reply */
function runHandler (reply) {
  const route = reply.route
  let r
  try {
    r = route.handler.call(route.instance, reply.request, reply)
  } catch (err) {
    handleError(reply, err)
    return
  }
  if (r !== reply && isThenable(r)) {
    parkHandler(reply, r)
    return
  }
  afterHandler(reply, r, false)
}

/**
 * Waits for the handler's promise. A handler that sent before it returned
 * (`async (req, reply) => reply.send(x)`) may have left the send parked on
 * an async onSend hook, in the reply's one parking place: its promise is
 * then only watched, for a value or an error to report, as Fastify does.
 * @param {Reply} reply
 * @param {PromiseLike<unknown>} r
 */
function parkHandler (reply, r) {
  if (!reply.sent) park(reply, r, handlerResolved, handlerRejected)
  else r.then((value) => handlerResolved(reply, value), (err) => handlerRejected(reply, err))
}

/**
 * runHandler's traced twin, within the trace's start (its stores entered)
 * and end: a throw is published on the error channel before the error path
 * runs; a thenable is parked with asyncStart/asyncEnd around its outcome.
 * @param {Reply} reply
 */
function tracedHandler (reply) {
  const route = reply.route
  try {
    let r
    try {
      r = route.handler.call(route.instance, reply.request, reply)
    } catch (err) {
      publishError(reply, err, tracedErrorStatus)
      handleError(reply, err)
      return
    }
    if (isThenable(r)) {
      parkHandler(reply, tracedThenable(reply, r, tracedErrorStatus))
      return
    }
    afterHandler(reply, r, false)
  } finally {
    handlerChannel.end.publish(reply._trace)
  }
}

/**
 * @param {Reply} reply
 * @param {unknown} value
 */
function handlerResolved (reply, value) {
  afterHandler(reply, value, true)
}

/**
 * The handler's promise rejected: the error path, or, when the reply was
 * already sent or hijacked, a log line (a client that left gets none).
 * @param {Reply} reply
 * @param {unknown} err
 */
function handlerRejected (reply, err) {
  if (!reply._aborted) stageFailed(reply, err)
}

// what a handler's promise settles to after its reply was sent is reported
takeLateOutcome(handlerResolved, handlerRejected)

/**
 * @param {Reply} reply
 * @param {unknown} value
 * @param {boolean} async
 */
function afterHandler (reply, value, async) {
  if (reply.sent) {
    // (after hijack() the response is the handler's own: its value is not an answer)
    if (value !== undefined && value !== reply && !reply._aborted && !reply._hijacked) {
      const req = reply.request
      if (reply.route.app.fastifyLogs) req.log.warn(`Reply was already sent, did you forget to "return reply" in "${req.url}" (${req.method})?`)
      else req.log.warn('the handler returned a value after sending a reply; the value was ignored')
    }
    return
  }
  if (value === reply) return // the handler will send later
  if (value === undefined) {
    // A sync handler may send later (callback style): the request timeout
    // bounds it. An async one that resolved without sending never will:
    // hotpath answers that 500; Fastify sends the empty answer.
    if (async) {
      if (reply.statusCode === 204 || reply.route.app.fastifyErrors) sendPayload(reply, reply.statusCode === 204 ? null : undefined)
      else handleError(reply, createError('HP_ERR_PROMISE_NOT_FULFILLED'))
    }
    return
  }
  try {
    sendPayload(reply, value)
  } catch (err) {
    // send() refused the value (replyFormat 'fastify': an object with a
    // type that is not JSON): thrown to a handler that calls it, and here,
    // where the handler returned it, the error path's
    handleError(reply, err)
  }
}
