// The error path: onError hooks, then the route's error handler (the
// nearest one set in its context chain), then the last-resort answer if
// that fails too, so an error can never loop. The answer's body is built by
// ../reply/error-body.js; the reply writer sends it.
import { HttpError, createError } from '../errors.js'
import { NOOP_LOGGER } from '../logger.js'
import { isThenable, park, runHooks } from './kernel.js'
import { errorBody } from '../reply/error-body.js'
import { writeError, writeClientError } from '../reply/last-resort.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */

/**
 * Takes any failure of a request (a throw, a rejection, an error sent) to
 * the error handler.
 * @param {Reply} reply
 * @param {unknown} error
 */
export function handleError (reply, error) {
  if (reply._done) {
    if (!reply._aborted) reply.request.log.error({ err: error }, 'error after the response was sent')
    return
  }
  if (reply._erroring) {
    // The error answer itself failed. A client error raised there is
    // answered as it is, without hooks; anything else is the fixed 500.
    const status = statusOf(error)
    if (status < 500 && error instanceof Error) writeClientError(reply, error, status)
    else writeError(reply, createError('HP_ERR_INTERNAL'), error)
    return
  }
  const err = toError(error)
  reply._erroring = true
  reply._error = err
  reply.sent = false
  reply._contentType = null
  // An error status set before the failure is kept (reply.code(401) then
  // done(err) answers 401), as in Fastify; otherwise the error's own.
  if (reply.statusCode < 400) reply.statusCode = statusOf(reply.route.app.exposeErrorMessages ? error : err)
  const route = reply.route
  if (route.onError !== null) runHooks(reply, route.onError, 0, callErrorHandler, handleError)
  else callErrorHandler(reply)
}

/**
 * A hook, parser or handler failed, synchronously or by rejecting. Once the
 * reply was sent, the failure can only be logged: answering it would be a
 * second answer.
 * @param {Reply} reply
 * @param {unknown} err
 */
export function stageFailed (reply, err) {
  if (reply.sent) {
    reply.request.log.error({ err }, 'promise rejected after the reply was sent')
    return
  }
  handleError(reply, err)
}

/** @param {Reply} reply */
function callErrorHandler (reply) {
  const route = reply.route
  let r
  try {
    r = route.errorHandler.call(route.instance, reply._error, reply.request, reply)
  } catch (err) {
    writeError(reply, createError('HP_ERR_INTERNAL'), err)
    return
  }
  if (reply.sent) return
  if (isThenable(r)) {
    park(reply, r, errorHandlerResolved, errorHandlerFailed)
    return
  }
  afterErrorHandler(reply, r)
}

/**
 * @param {Reply} reply
 * @param {unknown} value
 */
function errorHandlerResolved (reply, value) {
  if (!reply.sent) afterErrorHandler(reply, value)
}

/**
 * The error handler itself failed: the fixed 500, no hooks.
 * @param {Reply} reply
 * @param {unknown} err
 */
function errorHandlerFailed (reply, err) {
  writeError(reply, createError('HP_ERR_INTERNAL'), err)
}

/**
 * What an error handler returned (or its promise resolved to) when it had
 * not sent: one rule for sync and async handlers alike.
 * @param {Reply} reply
 * @param {unknown} value
 */
function afterErrorHandler (reply, value) {
  // undefined: the handler chose not to answer; the default answer does.
  if (value === undefined) defaultErrorHandler(/** @type {Error} */ (reply._error), reply.request, reply)
  // the reply itself: the handler sends later, bounded by the request timeout.
  else if (value !== reply) reply.send(value)
}

/**
 * Answers `{ statusCode, error, message }`: an HttpError's own status and
 * message; for any other error, 500 and a generic message, logged once.
 * @param {Error} err
 * @param {import('./request.js').Request} req
 * @param {Reply} reply
 */
export function defaultErrorHandler (err, req, reply) {
  // While erroring, send(err) answers the error: see errorPayload.
  reply.send(err)
}

/**
 * The body for `reply.send(error)` on the error path, from the default
 * handler or a custom one alike: the status (the reply's if already an
 * error status, else the error's), logged as the default handler logs it
 * (5xx once at error level with the request id, 4xx but 404 at info), and
 * the message masked unless the error was made for the client.
 * @param {Reply} reply
 * @param {Error} err
 */
export function errorPayload (reply, err) {
  const status = reply.statusCode >= 400 ? reply.statusCode : statusOf(err)
  reply.statusCode = status
  const log = reply.request.log
  // With logging off, req.log is the shared no-op: build no log object.
  // Fastify's error line is a request line: disableRequestLogging leaves it
  // out (logFormat 'fastify'); hotpath's own always logs a failure
  const app = reply.route.app
  if (log === NOOP_LOGGER) {
    // logging off: nothing to write
  } else if (app.logController !== null) {
    app.logController.defaultErrorLog(err, reply.request, reply)
  } else if (status !== 404 && !(app.fastifyLogs && requestLogOff(app, reply.request))) {
    logError(log, err, status, app.fastifyLogs, reply.request)
  }
  const exposeAll = reply.route.app.exposeErrorMessages
  // A plain object thrown as the answer (a rate limiter's error response
  // builder makes one): with every message exposed, Fastify sends it as the
  // body, with its statusCode as the status.
  if (exposeAll && err instanceof NonErrorThrown && isPlainObject(err.cause)) return err.cause
  return errorBody(err, status, exposeAll)
}

/** @param {unknown} v */
function isPlainObject (v) {
  if (v === null || typeof v !== 'object') return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** What was thrown or rejected when it was not an Error: kept as the cause. */
class NonErrorThrown extends Error {
  /** @param {unknown} value */
  constructor (value) {
    super('a non-Error value was thrown', { cause: value })
  }
}

/**
 * disableRequestLogging says no request lines for this request.
 * @param {import('../app/core.js').Core} app
 * @param {import('./request.js').Request} req
 */
function requestLogOff (app, req) {
  return !app.logRequests || (app.skipRequestLog !== null && app.skipRequestLog(req))
}

/**
 * A 5xx is the server's fault: the whole error at error level, with its
 * stack and causes (pino's err serializer). A 4xx is the client's: one info
 * line with what was refused, under `error`, not `err`: pino's serializer
 * turns any object with a message into an Error shape, and a hand-made one
 * came out as `{ type: "Object", stack: "" }`; the stack of a refusal is noise.
 * With logFormat 'fastify', the lines Fastify's default handler writes:
 * the error under its own message, `err` at both levels.
 * @param {import('pino').Logger} log
 * @param {Error} err
 * @param {number} status
 * @param {boolean} fastify
 * @param {import('./request.js').Request} req  on Fastify's 5xx line, through the logger's `req` serializer
 */
function logError (log, err, status, fastify, req) {
  if (fastify) {
    if (status >= 500) log.error({ req, res: { statusCode: status }, err }, err.message)
    else log.info({ res: { statusCode: status }, err }, err.message)
    return
  }
  if (status >= 500) {
    log.error({ res: { statusCode: status }, err }, 'request failed')
    return
  }
  log.info({ res: { statusCode: status }, error: { type: err.name, code: /** @type {any} */ (err).code, message: err.message } }, 'request rejected')
}

/**
 * @param {unknown} err
 * @returns {number}
 */
function statusOf (err) {
  if (err instanceof HttpError) return err.statusCode
  const e = /** @type {any} */ (err)
  const status = e?.statusCode ?? e?.status
  // a 4xx or 5xx an error carries is its answer, as Express and Fastify
  // take it (connect-timeout's 503); a 5xx message stays masked (errorBody)
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600 ? status : 500
}

/**
 * @param {unknown} value
 * @returns {Error}
 */
function toError (value) {
  if (value instanceof Error) return value
  return new NonErrorThrown(value)
}
