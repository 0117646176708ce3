// Defaults of the wire engine. The time limits match node:http's defaults so
// that switching engines changes speed, not behaviour; the size limits are
// the ones a careful server applies when the application says nothing.

/**
 * @typedef {object} WireLimits
 * @property {number} headersTimeout    ms from the first byte of a request to the end of its head (408)
 * @property {number} requestTimeout    ms from the first byte of a request to the end of its body (408)
 * @property {number} keepAliveTimeout  ms an idle keep-alive socket is kept open
 * @property {number} maxHeaderSize     bytes of request line + headers (431)
 * @property {number} maxHeaderCount    header lines per request (431)
 * @property {number} maxUrlLength      bytes of the request-target (414)
 * @property {number} maxChunkLineLength bytes of one chunk-size line with its extensions (400)
 * @property {number} maxRequestsPerSocket 0 = unlimited
 * @property {number} maxPipelined      requests parsed ahead of their responses before the socket is paused
 * @property {number} bodyHighWater     body bytes buffered for a request nobody reads yet before the socket is paused
 */

/** @type {WireLimits} */
export const DEFAULTS = Object.freeze({
  headersTimeout: 60_000,
  requestTimeout: 300_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
  maxHeaderCount: 100,
  maxUrlLength: 8 * 1024,
  maxChunkLineLength: 4 * 1024,
  maxRequestsPerSocket: 0,
  maxPipelined: 32,
  bodyHighWater: 64 * 1024
})

/** Period of the one shared timer: timeouts fire at most this late. */
export const TICK_MS = 250

/**
 * How long a socket is drained after we half-closed it before it is
 * destroyed: a client still sending a body we refused gets to read our
 * answer instead of a reset that can discard it.
 */
export const LINGER_MS = 1_000

/**
 * The linger after a timeout (408): that client is slow or hostile and was
 * answered already; its socket goes within a tick or two, so the close
 * follows the timeout by well under a second.
 */
export const TIMEOUT_LINGER_MS = TICK_MS

/**
 * On close(), a keep-alive connection that answered within this long may
 * be carrying the client's next request already: it stays open that long,
 * and what arrives meanwhile is answered 503 + Connection: close rather
 * than reset. Connections idle for longer close at once.
 */
export const CLOSE_IDLE_MS = 500

/**
 * @param {Partial<WireLimits> & Record<string, any>} [options]
 * @returns {WireLimits}
 */
export function resolveLimits (options = {}) {
  /** @type {Record<string, number>} */
  const out = { ...DEFAULTS }
  for (const key of Object.keys(DEFAULTS)) {
    const v = options[key]
    if (v === undefined || v === null) continue
    if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) {
      throw new TypeError(`wire engine: option ${key} must be a non-negative finite number, got ${String(v)}`)
    }
    out[key] = v
  }
  // no limit of its own: the head's bounds the request-target (431, as node:http)
  if (out.maxUrlLength === 0) out.maxUrlLength = Infinity
  return /** @type {WireLimits} */ (/** @type {unknown} */ (out))
}
