// The last-resort answer: no hooks, no handler, the fixed JSON body of the
// error (./error-body.js). For a request the core refuses before routing
// (a request-target too long), and when the error path itself fails.
import { createError } from '../errors.js'
import { markDone } from '../lifecycle/kernel.js'
import { errorBody } from './error-body.js'
import { JSON_TYPE } from './payload-kind.js'

/**
 * Settles the reply with `err`'s answer and logs `cause`.
 * @param {import('./reply.js').Reply} reply
 * @param {import('../errors.js').HttpError} err
 * @param {unknown} cause
 */
export function writeError (reply, err, cause) {
  if (reply._done) return
  markDone(reply)
  reply.statusCode = err.statusCode
  reply.request.log.error({ err: cause ?? err }, 'request failed')
  writeFixedError(reply._res, err, closes(reply))
}

/**
 * Settles the reply when the engine refused its head (a header value with
 * a CR/LF or a character above 0xFF): a 500 without the reply's headers.
 * With exposeErrorMessages it carries the refusal's own code and message
 * (ERR_INVALID_CHAR), as Fastify answers it, logged as a warning under
 * logFormat 'fastify'; otherwise hotpath's masked HP_ERR_INTERNAL.
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} cause
 */
export function writeRefusedHead (reply, cause) {
  const app = reply.route.app
  if (!app.exposeErrorMessages || !(cause instanceof Error)) {
    writeError(reply, createError('HP_ERR_INTERNAL'), cause)
    return
  }
  if (reply._done) return
  markDone(reply)
  reply.statusCode = 500
  if (app.fastifyLogs) reply.request.log.warn({ err: cause }, cause.message)
  else reply.request.log.error({ err: cause }, 'request failed')
  writeFixedBody(reply._res, 500, JSON.stringify(errorBody(cause, 500, true)), closes(reply))
}

/**
 * Settles the reply with a client error raised while its error answer was
 * on its way (an onSend hook that refuses the answer's encoding with 406):
 * that error's status and body, without hooks, as Fastify's fallback
 * answers it; the message shown as the error handler would show it.
 * @param {import('./reply.js').Reply} reply
 * @param {Error} err
 * @param {number} status  4xx
 */
export function writeClientError (reply, err, status) {
  if (reply._done) return
  markDone(reply)
  reply.statusCode = status
  reply.request.log.info({ res: { statusCode: status }, error: { type: err.name, code: /** @type {any} */ (err).code, message: err.message } }, 'request rejected')
  writeFixedBody(reply._res, status, JSON.stringify(errorBody(err, status, reply.route.app.exposeErrorMessages)), closes(reply))
}

/**
 * Settles the reply with a server error raised while its error answer was
 * on its way (an onSend hook that fails on every answer), under errorFormat
 * 'fastify' with every message exposed: that error's own code and message,
 * without hooks, as Fastify's fallback answers it; logged at error level.
 * @param {import('./reply.js').Reply} reply
 * @param {Error} err
 * @param {number} status  5xx
 */
export function writeServerError (reply, err, status) {
  if (reply._done) return
  markDone(reply)
  reply.statusCode = status
  reply.request.log.error({ err }, reply.route.app.fastifyLogs ? err.message : 'request failed')
  writeFixedBody(reply._res, status, JSON.stringify(errorBody(err, status, true)), closes(reply))
}

/**
 * The answer being replaced ended the connection (a 413 whose body was
 * never read): so does this one, or the unread body would be taken for the
 * next request.
 * @param {import('./reply.js').Reply} reply
 */
function closes (reply) {
  const h = reply._headers
  return h !== null && typeof h.connection === 'string' && h.connection.toLowerCase() === 'close'
}

/**
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {import('../errors.js').HttpError} err
 * @param {boolean} close  add Connection: close
 */
export function writeFixedError (res, err, close) {
  writeFixedBody(res, err.statusCode, JSON.stringify(errorBody(err, err.statusCode)), close)
}

/**
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {number} status
 * @param {string} body  JSON
 * @param {boolean} close  add Connection: close
 * @param {string} [type]  the Content-Type: JSON in UTF-8, unless given
 */
export function writeFixedBody (res, status, body, close, type = JSON_TYPE) {
  if (res.headersSent) return
  /** @type {import('../engines/engine.js').OutgoingHeaders} */
  const headers = { 'content-type': type, 'content-length': Buffer.byteLength(body) }
  if (close) headers.connection = 'close'
  try {
    res.respond(status, headers, body)
  } catch {
    // nothing sensible is left to send
  }
}
