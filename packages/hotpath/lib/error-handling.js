// The error path: onError hooks, then the route's error handler (the
// nearest one set in its context chain), then a fixed fallback if that
// fails too, so an error can never loop.
import { HttpError, createError } from './errors.js'
import { isThenable } from './hooks.js'
import { statusText } from './status.js'
import { runHooks, park, WAIT_ERROR_HANDLER } from './pipeline.js'
import { writeError } from './send.js'
import { NOOP_LOGGER } from './logger.js'

/**
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} error
 */
export function handleError (reply, error) {
  if (reply._done) {
    if (!reply._aborted) reply.request.log.error({ err: error }, 'error after the response was sent')
    return
  }
  if (reply._erroring) {
    writeError(reply.engine, reply.raw, createError('HP_ERR_INTERNAL'), false, reply, error)
    return
  }
  const err = toError(error)
  reply._erroring = true
  reply._error = err
  reply.sent = false
  reply._contentType = null
  reply.statusCode = statusOf(err)
  const route = reply.route
  if (route.onError !== null) runHooks(reply, route.onError, 0, callErrorHandler)
  else callErrorHandler(reply)
}

/** @param {import('./reply.js').Reply} reply */
function callErrorHandler (reply) {
  const route = reply.route
  let r
  try {
    r = route.errorHandler.call(route.instance, reply._error, reply.request, reply)
  } catch (err) {
    writeError(reply.engine, reply.raw, createError('HP_ERR_INTERNAL'), false, reply, err)
    return
  }
  if (reply.sent) return
  if (isThenable(r)) {
    reply._wait = WAIT_ERROR_HANDLER
    park(reply, r)
    return
  }
  afterErrorHandler(reply, r)
}

/**
 * What an error handler returned (or its promise resolved to) when it had
 * not sent: one rule for sync and async handlers alike.
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} value
 */
export function afterErrorHandler (reply, value) {
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
 * @param {import('./reply.js').Reply} reply
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
 * @param {import('./reply.js').Reply} reply
 * @param {Error} err
 */
export function errorPayload (reply, err) {
  const status = reply.statusCode >= 400 ? reply.statusCode : statusOf(err)
  reply.statusCode = status
  const log = reply.request.log
  // With logging off, req.log is the shared no-op: build no log object.
  if (log !== NOOP_LOGGER && status !== 404) logError(log, err, status)
  return errorBody(err, status)
}

/**
 * A 5xx is the server's fault: the whole error at error level, with its
 * stack and causes (pino's err serializer). A 4xx is the client's: one info
 * line with what was refused, under `error`, not `err`: pino's serializer
 * turns any object with a message into an Error shape, and a hand-made one
 * came out as `{ type: "Object", stack: "" }`; the stack of a refusal is noise.
 * @param {import('pino').Logger} log
 * @param {Error} err
 * @param {number} status
 */
function logError (log, err, status) {
  if (status >= 500) {
    log.error({ res: { statusCode: status }, err }, 'request failed')
    return
  }
  log.info({ res: { statusCode: status }, error: { type: err.name, code: /** @type {any} */ (err).code, message: err.message } }, 'request rejected')
}

/**
 * The JSON body for an error. Internal messages never leave the server:
 * only an HttpError's message, or a 4xx error marked `expose`, is sent.
 * @param {unknown} err
 * @param {number} status
 * @returns {Record<string, unknown>}
 */
export function errorBody (err, status) {
  /** @type {Record<string, unknown>} */
  let body
  if (err instanceof HttpError) {
    // hotpath's own 5xx codes describe internals: keep their text generic.
    const masked = status >= 500 && err.code !== undefined && err.code.startsWith('HP_ERR_')
    body = { statusCode: status, error: statusText(status), message: masked ? statusText(status) : err.message }
    if (err.code !== undefined) body.code = err.code
    if (err.details !== undefined) Object.assign(body, err.details)
    return body
  }
  const e = /** @type {any} */ (err)
  const message = status < 500 && e !== null && typeof e === 'object' && e.expose === true && typeof e.message === 'string' ? e.message : statusText(status)
  return { statusCode: status, error: statusText(status), message }
}

/**
 * @param {unknown} err
 * @returns {number}
 */
export function statusOf (err) {
  if (err instanceof HttpError) return err.statusCode
  const e = /** @type {any} */ (err)
  const status = e?.statusCode ?? e?.status
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500
}

/**
 * @param {unknown} value
 * @returns {Error}
 */
function toError (value) {
  if (value instanceof Error) return value
  return new Error('a non-Error value was thrown', { cause: value })
}
