// For an engine's respond() and respondStream(): the answer goes through
// the compat response when a middleware replaced its writeHead/write/end
// (compression, a logger that wraps end), else past it, showing on it what
// was answered.

/** @typedef {import('./response.js').CompatResponse} CompatResponse */
/** @typedef {import('node:stream').Readable} Readable */

/**
 * For an engine's respond(): when a middleware replaced the compat
 * response's writeHead/write/end, the reply goes through them (once: the
 * original end() comes back to respond()), and this returns true. A request
 * without such middleware pays one null check.
 * @param {{ compatRes: CompatResponse | null, throughCompat: boolean }} res
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 * @param {string | Buffer | null} body
 */
export function respondThroughMiddleware (res, statusCode, headers, body) {
  const cres = res.compatRes
  if (cres === null) return false
  if (res.throughCompat || !cres.wrapped) {
    answeredPast(res, cres, statusCode, headers)
    return false
  }
  res.throughCompat = true
  cres.respondThrough(statusCode, headers, body)
  return true
}

/**
 * The same for respondStream().
 * @param {{ compatRes: CompatResponse | null, throughCompat: boolean }} res
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 * @param {Readable} stream
 * @param {(err: Error | null) => void} done
 * @param {((send: (fields: Record<string, string>) => void) => void) | null} [trailers]
 */
export function streamThroughMiddleware (res, statusCode, headers, stream, done, trailers = null) {
  const cres = res.compatRes
  if (cres === null) return false
  if (res.throughCompat || !cres.wrapped) {
    answeredPast(res, cres, statusCode, headers)
    return false
  }
  res.throughCompat = true
  cres.streamThrough(statusCode, headers, stream, done, trailers)
  return true
}

/**
 * The core answers through the engine, not through the compat response:
 * what it answers shows on the compat response (its statusCode and
 * getHeader()), as on node:http's ServerResponse, for code that reads them
 * at its 'finish' or 'close' (an instrumentation's span, a logger).
 * @param {{ throughCompat: boolean }} res
 * @param {CompatResponse} cres
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 */
function answeredPast (res, cres, statusCode, headers) {
  if (res.throughCompat) return
  cres.statusCode = statusCode
  cres.coreHeaders = headers
}
