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

/**
 * Fastify's `http` option, node:http's server options, where they have a
 * meaning on either engine: maxHeaderSize (the top-level option wins),
 * requireHostHeader, and connectionsCheckingInterval (node:http's; wire
 * checks its timeouts on its one shared timer). Any other is refused, named.
 * @param {unknown} http
 * @returns {{ maxHeaderSize?: number, requireHostHeader?: boolean, connectionsCheckingInterval?: number }}
 */
export function httpOptions (http) {
  if (http === undefined || http === null) return {}
  if (typeof http !== 'object') throw createError('HP_ERR_INVALID_OPTION', 'http', 'expected an object of node:http server options')
  const out = /** @type {Record<string, any>} */ ({})
  for (const [key, value] of Object.entries(http)) {
    if (value === undefined) continue
    if (key === 'maxHeaderSize' || key === 'connectionsCheckingInterval') {
      if (!(Number.isInteger(value) && value >= 0)) throw createError('HP_ERR_INVALID_OPTION', `http.${key}`, 'expected a non-negative integer')
    } else if (key === 'requireHostHeader') {
      if (typeof value !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', 'http.requireHostHeader', 'expected a boolean')
    } else {
      throw createError('HP_ERR_UNSUPPORTED_OPTION', `http.${key}: ${describe(value)}`, 'of node:http\'s server options, only maxHeaderSize, requireHostHeader and connectionsCheckingInterval apply; the limits are options of their own (headersTimeout, keepAliveTimeout, requestTimeout…)')
    }
    out[key] = value
  }
  return out
}
