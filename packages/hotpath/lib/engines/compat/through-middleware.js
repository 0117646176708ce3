// For an engine's respond() and respondStream(): the answer goes through
// the compat response when a middleware replaced its writeHead/write/end
// (compression, a logger that wraps end), else past it, showing on it what
// was answered.

import { isWrapped, respondThrough, streamThrough, kOutHeaders } from './response.js'
import { reasonPhrase } from '../../status.js'

/** @typedef {import('./response.js').CompatResponse} CompatResponse */
/** @typedef {import('node:stream').Readable} Readable */

/**
 * For an engine's respond(): when a middleware replaced the compat
 * response's writeHead/write/end, the reply goes through them (once: the
 * original end() comes back to respond()), and this returns true. A request
 * without such middleware pays one null check.
 * @param {{ compatRes: CompatResponse | null, throughCompat: boolean, extraHeaders: any }} res
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 * @param {string | Buffer | null} body
 */
export function respondThroughMiddleware (res, statusCode, headers, body) {
  const cres = res.compatRes
  if (cres === null) return false
  if (res.throughCompat || !isWrapped(cres)) {
    answeredPast(res, cres, statusCode, headers)
    return false
  }
  res.throughCompat = true
  respondThrough(cres, statusCode, headers, body)
  return true
}

/**
 * The same for respondStream().
 * @param {{ compatRes: CompatResponse | null, throughCompat: boolean, extraHeaders: any }} res
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 * @param {Readable} stream
 * @param {(err: Error | null) => void} done
 * @param {((send: (fields: Record<string, string>) => void) => void) | null} [trailers]
 */
export function streamThroughMiddleware (res, statusCode, headers, stream, done, trailers = null) {
  const cres = res.compatRes
  if (cres === null) return false
  if (res.throughCompat || !isWrapped(cres)) {
    answeredPast(res, cres, statusCode, headers)
    return false
  }
  res.throughCompat = true
  streamThrough(cres, statusCode, headers, stream, done, trailers)
  return true
}

/**
 * The core answers through the engine, not through the compat response:
 * what it answers shows on the compat response (its statusCode and
 * getHeader()), as on node:http's ServerResponse, for code that reads them
 * at its 'finish' or 'close' (an instrumentation's span, a logger).
 * @param {{ throughCompat: boolean, extraHeaders: any }} res
 * @param {CompatResponse} cres
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 */
function answeredPast (res, cres, statusCode, headers) {
  if (res.throughCompat) return
  cres.statusCode = statusCode
  // node's writeHead sets the phrase it writes, when the app set none (or
  // this set it for an answer that failed: the 500 after it has its own)
  if (cres.statusMessage === undefined || cres.statusMessage === cres.corePhrase) {
    cres.statusMessage = cres.corePhrase = reasonPhrase(statusCode)
  }
  cres.coreHeaders = headers
  // the headers set on it go out with the core's (its own win), from
  // node's table, as writeHead merges them on node:http
  if (cres.engineHead === null) {
    res.extraHeaders = /** @type {any} */ (cres)[kOutHeaders]
  } else {
    // the app wrote the head itself (reply.raw.writeHead): it stands, as
    // node:http sends it and Fastify pipes a stream into it; of the core's
    // fields only the body's length goes with it
    for (const name of Object.keys(headers)) if (name !== 'content-length') delete headers[name]
    res.extraHeaders = tableOf(cres.engineHead)
  }
  // node's sign that the head is made: headersSent, and a later
  // setHeader or writeHead refused, whatever the object's prototype now
  const outgoing = /** @type {import('./response.js').Outgoing} */ (cres)
  if (!outgoing._header) outgoing._header = ANSWERED_PAST
}

/**
 * A head's fields as node's header table (lower-case name → [name, value]).
 * @param {Record<string, any>} fields
 */
function tableOf (fields) {
  /** @type {Record<string, [string, any]>} */
  const table = {}
  for (const name of Object.keys(fields)) table[name] = [name, fields[name]]
  return table
}

/** node:http's `_header` is the head as written; only its truth is read */
const ANSWERED_PAST = 'HTTP/1.1\r\n\r\n'
