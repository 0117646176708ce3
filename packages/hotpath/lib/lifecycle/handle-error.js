// The error path: onError hooks, then the route's chain of error handlers
// (its own, its plugins' from the nearest up, the default), each failure
// handed to the next, then the last-resort answer if the default's fails
// too, so an error can never loop. The answer's body is built by
// ../reply/error-body.js; the reply writer sends it.
import { HttpError, createError } from '../errors.js'
import { NOOP_LOGGER } from '../logger.js'
import { isThenable, park, runHooks, EmptyRejection } from './kernel.js'
import { errorBody } from '../reply/error-body.js'
import { writeError, writeClientError, writeRefusedHead, writeServerError } from '../reply/last-resort.js'
import { tracedThenable } from './tracing.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */

/**
 * Takes any failure of a request (a throw, a rejection, an error sent) to
 * the error handlers. The first failure runs the onError hooks, then the
 * route's nearest error handler; a failure raised while an error is being
 * answered (a handler that throws, rejects or sends an error, an onSend
 * hook of its answer that fails) goes to the next handler up the route's
 * chain (its plugin's parent's, and so on up to the default), as Fastify
 * hands it on. Each handler of the chain runs at most once per request;
 * past the default, the last-resort answer: an error can never loop.
 * @param {Reply} reply
 * @param {unknown} error
 */
export function handleError (reply, error) {
  if (reply._done) {
    if (reply._aborted) return
    const req = reply.request
    // Fastify answers it with send(), which warns of a second answer
    if (reply.route.app.fastifyLogs) req.log.warn({ err: reply.route.app.error('HP_ERR_REP_ALREADY_SENT', req.url, req.method) })
    else req.log.error({ err: error }, 'error after the response was sent')
    return
  }
  const route = reply.route
  const app = route.app
  // a hook's promise that rejected with nothing
  if (error instanceof EmptyRejection) error = app.error('HP_ERR_HOOK_REJECTED_EMPTY')
  // hotpath's own entry hands its handlers an Error, whatever was thrown;
  // Fastify hands them the value itself
  const err = app.fastifyErrors ? error : toError(error)
  if (reply._erroring) {
    if (reply._errorHandlerIndex >= route.errorHandlers.length) {
      lastResort(reply, error)
      return
    }
    reply._error = err
    reply._sent = false
    reply._contentType = null
    if (!app.fastifyErrors) reply.statusCode = errorStatus(reply, err)
    callErrorHandler(reply)
    return
  }
  reply._erroring = true
  reply._error = err
  reply._sent = false
  reply._contentType = null
  // hotpath's handlers see the status the answer will have (the error's,
  // else an error status set before the failure, else 500); Fastify's see
  // the reply's as it was, and its default handler sets it
  if (!app.fastifyErrors) reply.statusCode = errorStatus(reply, err)
  if (route.onError !== null) {
    // errorFormat 'fastify': send() there throws, as in Fastify (hotpath's
    // own hooks may answer: lifecycle-and-hooks.md)
    reply._inOnError = app.fastifyErrors
    runHooks(reply, route.onError, 0, callErrorHandler, onErrorHookFailed)
  } else {
    callErrorHandler(reply)
  }
}

/**
 * An onError hook failed: logged, and the error being answered goes on to
 * the error handler, as Fastify lets it (an observer's failure does not
 * replace the error).
 * @param {Reply} reply
 * @param {unknown} err
 */
function onErrorHookFailed (reply, err) {
  reply._inOnError = false
  if (reply._done) return
  reply.request.log.error({ err }, 'an onError hook failed')
  callErrorHandler(reply)
}

/**
 * The error path itself failed past the default handler. A client error
 * raised there is answered as it is, without hooks, and so is a server
 * error under errorFormat 'fastify' with every message exposed (Fastify's
 * fallback); anything else is the fixed 500.
 * @param {Reply} reply
 * @param {unknown} error
 */
function lastResort (reply, error) {
  const app = reply.route.app
  // Fastify's fallback answers with the reply's status as the failed
  // answer left it (an onSend hook may have set it); hotpath's, the error's
  const status = app.fastifyErrors && reply.statusCode >= 400 ? reply.statusCode : statusOf(error)
  if (status < 500 && error instanceof Error) writeClientError(reply, error, status)
  else if (app.fastifyErrors && app.exposeErrorMessages && error instanceof Error) writeServerError(reply, error, status)
  else writeError(reply, createError('HP_ERR_INTERNAL'), error)
}

/**
 * The engine refused the reply's head (a header value with a CR/LF, a
 * character above 0xFF). hotpath's own entry answers at once, the fixed
 * 500 without the reply's headers. Under errorFormat 'fastify' the refusal
 * is an error like any other, as Fastify's: the error path answers it (the
 * onError hooks, the route's error handlers), and when the default
 * handler's answer is refused too (the header is still set), the onError
 * hooks see that refusal before the 500 goes out without the reply's
 * headers.
 * @param {Reply} reply
 * @param {unknown} err
 */
export function headRefused (reply, err) {
  const route = reply.route
  if (!route.app.fastifyErrors) {
    writeRefusedHead(reply, err)
    return
  }
  if (!answersErrors(reply)) {
    handleError(reply, err)
    return
  }
  // once only: past the default handler's place, an answer an onError hook
  // sends that is refused too is the last one
  if (reply._errorHandlerIndex > route.errorHandlers.length || route.onError === null) {
    writeRefusedHead(reply, err)
    return
  }
  reply._errorHandlerIndex = route.errorHandlers.length + 1
  reply._error = err
  reply._sent = false
  reply._inOnError = true
  runHooks(reply, route.onError, 0, writeRefused, writeRefused)
}

/**
 * After the onError hooks (or one that failed): the refused head's 500.
 * @param {Reply} reply
 */
function writeRefused (reply) {
  reply._inOnError = false
  writeRefusedHead(reply, reply._error)
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
    reply.request.log.error({ err }, reply.route.app.fastifyLogs ? 'Promise errored, but reply.sent = true was set' : 'promise rejected after the reply was sent')
    return
  }
  handleError(reply, err)
}

/**
 * Calls the next error handler of the route's chain.
 * @param {Reply} reply
 */
function callErrorHandler (reply) {
  reply._inOnError = false
  const handler = reply.route.errorHandlers[reply._errorHandlerIndex++]
  let r
  try {
    r = handler.fn.call(handler.instance, reply._error, reply.request, reply)
  } catch (err) {
    // thrown after it sent: its answer is on its way
    stageFailed(reply, err)
    return
  }
  if (reply.sent) return
  if (r !== reply && isThenable(r)) {
    // under a handler's trace, asyncStart/asyncEnd surround its outcome too
    park(reply, reply._trace === null ? r : tracedThenable(reply, r, tracedErrorStatus), errorHandlerResolved, stageFailed)
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
 * What an error handler returned (or its promise resolved to) when it had
 * not sent: one rule for sync and async handlers alike.
 * @param {Reply} reply
 * @param {unknown} value
 */
function afterErrorHandler (reply, value) {
  // undefined: the handler chose not to answer; the default answer does.
  if (value === undefined) {
    const handlers = reply.route.errorHandlers
    if (reply._errorHandlerIndex < handlers.length) {
      reply._errorHandlerIndex = handlers.length - 1
      callErrorHandler(reply)
    } else {
      // the default itself did not answer (it always does): the fixed 500
      lastResort(reply, reply._error)
    }
  } else if (value !== reply) {
    // the reply itself: the handler sends later, bounded by the request timeout.
    try {
      reply.send(value)
    } catch (err) {
      // a value send() refuses: the next handler's to answer
      handleError(reply, err)
    }
  }
}

/**
 * The root of every route's chain. Answers `{ statusCode, error, message }`:
 * an HttpError's own status and message; for any other error, its 4xx/5xx
 * status or 500 and a generic message, logged once. With errorFormat
 * 'fastify', as Fastify's default handler: the error's `headers` set on the
 * reply, and (with exposeErrorMessages) a thrown value that is not an Error
 * sent as it is (a string as text, an object as JSON) with the error status.
 * @param {unknown} err
 * @param {import('./request.js').Request} req
 * @param {Reply} reply
 */
export function defaultErrorHandler (err, req, reply) {
  if (reply.route.app.fastifyErrors) {
    const e = /** @type {any} */ (err)
    if (e !== null && typeof e === 'object' && e.headers !== null && typeof e.headers === 'object') reply.headers(e.headers)
    if (!(err instanceof Error)) {
      // with messages masked, a thrown value is masked as an Error would be
      if (!reply.route.app.exposeErrorMessages) {
        reply.send(new NonErrorThrown(err))
        return
      }
      const status = errorStatus(reply, err)
      reply.statusCode = status
      const log = reply.request.log
      if (log !== NOOP_LOGGER && status !== 404) logError(log, err, status, true, reply.request)
      reply.send(err)
      return
    }
  }
  // The chain has reached its end: send(err) answers the error (errorPayload).
  reply.send(err)
}

/**
 * Whether `reply.send(error)` answers the error (errorPayload) rather than
 * handing it to an error handler: once the default handler, the last of
 * the route's chain, has been called.
 * @param {Reply} reply
 */
export function answersErrors (reply) {
  return reply._erroring && reply._errorHandlerIndex >= reply.route.errorHandlers.length
}

/**
 * The body for `reply.send(error)` at the end of the chain: the status (the
 * error's own, else the reply's if already an error status, else 500),
 * logged as the default handler logs it (5xx once at error level with the
 * request id, 4xx but 404 at info), and the message masked unless the
 * error was made for the client.
 * @param {Reply} reply
 * @param {Error} err
 */
export function errorPayload (reply, err) {
  const status = errorStatus(reply, err)
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

/**
 * The status an error answers with, as Fastify's default handler sets it:
 * the error's own 4xx/5xx `statusCode` (or `status`), else the reply's if
 * an error status was set before the failure (`reply.code(401)` then a
 * throw answers 401), else 500.
 * @param {Reply} reply
 * @param {unknown} err
 * @returns {number}
 */
function errorStatus (reply, err) {
  // a non-Error thrown under hotpath's own entry carries no status unless
  // every message is exposed (a rate limiter's plain object)
  const own = ownStatus(err instanceof NonErrorThrown && reply.route.app.exposeErrorMessages ? err.cause : err)
  if (own !== 0) return own
  return reply.statusCode >= 400 ? reply.statusCode : 500
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
 * @param {unknown} err  an Error, or under errorFormat 'fastify' whatever was thrown
 * @param {number} status
 * @param {boolean} fastify
 * @param {import('./request.js').Request} req  on Fastify's 5xx line, through the logger's `req` serializer
 */
function logError (log, err, status, fastify, req) {
  const e = /** @type {any} */ (err)
  if (fastify) {
    if (status >= 500) log.error({ req, res: { statusCode: status }, err }, e?.message)
    else log.info({ res: { statusCode: status }, err }, e?.message)
    return
  }
  if (status >= 500) {
    log.error({ res: { statusCode: status }, err }, 'request failed')
    return
  }
  log.info({ res: { statusCode: status }, error: { type: e?.name, code: e?.code, message: e?.message } }, 'request rejected')
}

/**
 * The 4xx/5xx status an error carries, 0 for none.
 * @param {unknown} err
 * @returns {number}
 */
function ownStatus (err) {
  if (err instanceof HttpError) return err.statusCode
  const e = /** @type {any} */ (err)
  const status = e?.statusCode ?? e?.status
  // a 4xx or 5xx an error carries is its answer, as Express and Fastify
  // take it (connect-timeout's 503); a 5xx message stays masked (errorBody)
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600 ? status : 0
}

/**
 * The status handleError() will answer an error with, by the same rule
 * (what the tracing channel reports before it runs).
 * @param {Reply} reply
 * @param {unknown} error  what was thrown or rejected
 */
export function tracedErrorStatus (reply, error) {
  return errorStatus(reply, reply.route.app.fastifyErrors ? error : toError(error))
}

/**
 * @param {unknown} err
 * @returns {number}
 */
function statusOf (err) {
  return ownStatus(err) || 500
}

/**
 * @param {unknown} value
 * @returns {Error}
 */
function toError (value) {
  if (value instanceof Error) return value
  return new NonErrorThrown(value)
}
