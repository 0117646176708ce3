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
  http2: [(v) => v === false, 'HTTP/2 is not implemented yet; hotpath serves HTTP/1.1 (with TLS through `https`)'],
  http: [(v) => v === null, "node:http's server options do not apply; the limits are options of their own (headersTimeout, maxHeaderSize, keepAliveTimeout…)"],
  serverFactory: [() => false, 'the server is made by the engine (`engine`: wire or node)'],
  connectionTimeout: [(v) => v === 0, 'a connection is bounded by headersTimeout, requestTimeout and keepAliveTimeout'],
  handlerTimeout: [(v) => v === 0, 'requestTimeout bounds a request, its handler included'],
  return503OnClosing: [(v) => v === true, 'a request that arrives during close() is always answered 503'],
  serializerOpts: [() => false, 'response serializers are compiled by fast-json-stringify with its defaults'],
  frameworkErrors: [() => false, "the engine's and the router's errors are answered by the error table (docs/errors.md)"],
  clientErrorHandler: [() => false, 'malformed requests are answered by the engine (docs/safety.md, "Bad input")'],
  rewriteUrl: [() => false, 'use an onRequest hook or app.use() middleware that sets req.raw.url'],
  allowErrorHandlerOverride: [(v) => v === true, 'a context may set its error handler again'],
  schemaController: [() => false, 'use setValidatorCompiler() and setSerializerCompiler()'],
  constraints: [() => false, 'routes match on host and version (a route\'s `constraints`); strategies of their own are not supported'],
  compile: [(v) => v === false, 'routes are looked up in an exact-path Map, then find-my-way'],
  defaultRoute: [() => false, 'use setNotFoundHandler()'],
  onBadUrl: [() => false, 'a malformed path is answered 400 by the error table'],
  onMaxParamLength: [() => false, 'a parameter over maxParamLength is not found (404)'],
  buildPrettyMeta: [() => false, 'printRoutes() shows the routes as they are']
}

/** Router options Fastify 5 takes in `routerOptions` as well as at the top level. */
const ROUTER_OPTIONS = ['caseSensitive', 'ignoreTrailingSlash', 'ignoreDuplicateSlashes', 'maxParamLength', 'allowUnsafeRegex',
  'useSemicolonDelimiter', 'querystringParser', 'constraints', 'compile', 'defaultRoute', 'onBadUrl', 'onMaxParamLength', 'buildPrettyMeta']

/**
 * The options with Fastify's `routerOptions` moved to the top level (a key
 * given at both places keeps its top-level value, as Fastify's deprecated
 * top-level router options did), then checked against NOT_IMPLEMENTED.
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
      if (out[key] === undefined) out[key] = router[key]
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
