// The last-resort answer: no hooks, no handler, the fixed JSON body of the
// error (./error-body.js). For a request the core refuses before routing
// (a request-target too long), and when the error path itself fails.
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
  // the answer it replaces ended the connection (a 413 whose body was
  // never read): so does this one, or the unread body would be taken for
  // the next request
  const h = reply._headers
  const close = h !== null && typeof h.connection === 'string' && h.connection.toLowerCase() === 'close'
  reply.statusCode = err.statusCode
  reply.request.log.error({ err: cause ?? err }, 'request failed')
  writeFixedError(reply._res, err, close)
}

/**
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {import('../errors.js').HttpError} err
 * @param {boolean} close  add Connection: close
 */
export function writeFixedError (res, err, close) {
  if (res.headersSent) return
  const body = JSON.stringify(errorBody(err, err.statusCode))
  /** @type {import('../engines/engine.js').OutgoingHeaders} */
  const headers = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) }
  if (close) headers.connection = 'close'
  try {
    res.respond(err.statusCode, headers, body)
  } catch {
    // nothing sensible is left to send
  }
}
