// The options of hotpath() that come from Fastify 5 (docs/Reference/Server.md
// lists them): those hotpath implements are read by core.js; each of the
// others is accepted only with the value that describes what hotpath does
// anyway, and refused otherwise, at construction, with an error that names
// it. An application that asks for behaviour hotpath lacks learns so when
// it starts, not from a request that behaves differently.
import { createError } from '../errors.js'

/**
 * name → [accepts(value), what hotpath does instead]
 * @type {Record<string, [(v: any) => boolean, string]>}
 */
const NOT_IMPLEMENTED = {
  compile: [(v) => v === false, 'routes are looked up in an exact-path Map, then find-my-way']
}

/** Router options Fastify 5 takes in `routerOptions` as well as at the top level. */
const ROUTER_OPTIONS = ['caseSensitive', 'ignoreTrailingSlash', 'ignoreDuplicateSlashes', 'maxParamLength', 'allowUnsafeRegex',
  'useSemicolonDelimiter', 'querystringParser', 'constraints', 'compile', 'defaultRoute', 'onBadUrl', 'onMaxParamLength', 'buildPrettyMeta']

/**
 * The options with Fastify's `routerOptions` moved to the top level (a key
 * given at both places takes its `routerOptions` value, as in Fastify 5,
 * where the top-level router options are deprecated), then checked against
 * NOT_IMPLEMENTED.
 * @param {Record<string, any>} options
 * @returns {Record<string, any>}
 */
export function normalizeOptions (options) {
  let out = options
  const router = options.routerOptions
  if (router !== undefined && router !== null) {
    if (typeof router !== 'object') throw createError('HP_ERR_INVALID_OPTION', 'routerOptions', 'expected an object')
    out = { ...options }
    delete out.routerOptions
    for (const key of Object.keys(router)) {
      if (!ROUTER_OPTIONS.includes(key)) throw createError('HP_ERR_UNSUPPORTED_OPTION', `routerOptions.${key}`, 'find-my-way is configured by hotpath')
      if (router[key] !== undefined) out[key] = router[key]
    }
  }
  for (const key of Object.keys(out)) {
    const entry = NOT_IMPLEMENTED[key]
    const value = out[key]
    if (entry === undefined || value === undefined || entry[0](value)) continue
    throw createError('HP_ERR_UNSUPPORTED_OPTION', `${key}: ${describe(value)}`, entry[1])
  }
  return out
}

/** @param {unknown} v */
function describe (v) {
  if (typeof v === 'function') return 'a function'
  if (typeof v === 'object' && v !== null) return 'an object'
  return JSON.stringify(v) ?? String(v)
}

/** node:http's server options that are limits hotpath has options for: a top-level option wins. */
const HTTP_LIMITS = ['headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'maxHeaderSize', 'connectionsCheckingInterval', 'keepAliveInitialDelay']
/** node:http's options for the accepted sockets, applied by every HTTP/1.1 engine. */
const HTTP_SOCKET = ['noDelay', 'keepAlive']
/** The classes node:http makes its objects from: hotpath's node engine brings its own. */
const HTTP_CLASSES = ['IncomingMessage', 'ServerResponse']

/**
 * @typedef {object} HttpOptions
 * @property {number} [headersTimeout]
 * @property {number} [requestTimeout]
 * @property {number} [keepAliveTimeout]
 * @property {number} [maxHeaderSize]
 * @property {number} [connectionsCheckingInterval]
 * @property {number} [keepAliveInitialDelay]
 * @property {boolean} [requireHostHeader]
 * @property {boolean} [noDelay]
 * @property {boolean} [keepAlive]
 * @property {Record<string, unknown>} nodeServer  the other options, handed to http.createServer (engine 'node')
 */

/**
 * Fastify's `http` option: node:http's server options, which Fastify hands
 * to http.createServer. Those that are limits (the timeouts, maxHeaderSize)
 * become hotpath's own where the app sets no top-level option of the name;
 * requireHostHeader, noDelay and keepAlive (TCP keep-alive probes, with
 * keepAliveInitialDelay) apply on every HTTP/1.1 engine; the others shape
 * node:http's own parser and objects (joinDuplicateHeaders,
 * insecureHTTPParser, uniqueHeaders, highWaterMark…): the node engine hands
 * them to node:http as Fastify does, and wire, which has its own parser,
 * refuses them by name.
 * @param {unknown} http
 * @param {string} engineName
 * @returns {HttpOptions}
 */
export function httpOptions (http, engineName) {
  /** @type {HttpOptions} */
  const out = { nodeServer: {} }
  if (http === undefined || http === null) return out
  if (typeof http !== 'object') throw createError('HP_ERR_INVALID_OPTION', 'http', 'expected an object of node:http server options')
  const set = /** @type {Record<string, any>} */ (out)
  for (const [key, value] of Object.entries(http)) {
    if (value === undefined) continue
    if (HTTP_LIMITS.includes(key)) {
      if (!(Number.isInteger(value) && value >= 0)) throw createError('HP_ERR_INVALID_OPTION', `http.${key}`, 'expected a non-negative integer')
      set[key] = value
    } else if (key === 'requireHostHeader' || HTTP_SOCKET.includes(key)) {
      if (typeof value !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', `http.${key}`, 'expected a boolean')
      set[key] = value
    } else if (HTTP_CLASSES.includes(key)) {
      throw createError('HP_ERR_UNSUPPORTED_OPTION', `http.${key}: ${describe(value)}`, 'hotpath makes its own request and response objects (req.raw and reply.raw are node:http\'s on every engine)')
    } else if (engineName === 'node') {
      out.nodeServer[key] = value
    } else {
      throw createError('HP_ERR_UNSUPPORTED_OPTION', `http.${key}: ${describe(value)}`, `it shapes node:http's own parser or objects: it applies with engine: 'node'; on wire, of node:http's server options, ${[...HTTP_LIMITS, 'requireHostHeader', ...HTTP_SOCKET].join(', ')} apply`)
    }
  }
  return out
}
