// app.initialConfig, as Fastify 5 builds it (its initial-config-validation.js
// and the JSON Schema of lib/config-validator.js): the options it lists,
// as given (a copy, frozen to the bottom), those it gives a default with
// that default, the others (https, http2, forceCloseConnections,
// routerOptions, constraints) only when given, and nothing else. hotpath's
// own settings (engine, headersTimeout, maxUrlLength…) are there too:
// enumerable on hotpath's entry, and under hotpath/fastify as properties
// that are not enumerable, so that the object compares equal to Fastify's
// (assert.deepStrictEqual, Object.keys, JSON.stringify) and still reads
// hotpath's values by name.

/** Fastify's options in initialConfig, in its schema's order, with their defaults (undefined: none) */
const FASTIFY_KEYS = /** @type {const} */ ([
  ['connectionTimeout', 0],
  ['keepAliveTimeout', 72_000],
  ['forceCloseConnections', undefined],
  ['maxRequestsPerSocket', 0],
  ['requestTimeout', 0],
  ['handlerTimeout', 0],
  ['bodyLimit', 1_048_576],
  ['caseSensitive', true],
  ['allowUnsafeRegex', false],
  ['http2', undefined],
  ['https', undefined],
  ['ignoreTrailingSlash', false],
  ['ignoreDuplicateSlashes', false],
  ['disableRequestLogging', false],
  ['maxParamLength', 100],
  ['onProtoPoisoning', 'error'],
  ['onConstructorPoisoning', 'error'],
  ['pluginTimeout', 10_000],
  ['requestIdHeader', false],
  ['requestIdLogLabel', 'reqId'],
  ['http2SessionTimeout', 72_000],
  ['exposeHeadRoutes', true],
  ['useSemicolonDelimiter', false],
  ['routerOptions', undefined],
  ['constraints', undefined]
])

/** @type {Set<string>} */
const FASTIFY_NAMES = new Set(FASTIFY_KEYS.map(([name]) => name))

/** the defaults Fastify gives inside routerOptions, when it is given */
const ROUTER_DEFAULTS = /** @type {const} */ ([
  ['compile', false],
  ['ignoreTrailingSlash', false],
  ['ignoreDuplicateSlashes', false],
  ['maxParamLength', 100],
  ['allowUnsafeRegex', false],
  ['useSemicolonDelimiter', false]
])

/**
 * @param {Record<string, any>} given  the options as the application gave them
 * @param {Record<string, any>} defaults  the entry's own defaults for Fastify's options where they differ from Fastify's
 * @param {Record<string, any>} own  hotpath's settings, resolved
 * @param {boolean} ownEnumerable  false under hotpath/fastify
 * @returns {Readonly<Record<string, any>>}
 */
export function buildInitialConfig (given, defaults, own, ownEnumerable) {
  // the options as Fastify's processOptions leaves them: the keys it sets
  // come after the application's, in its order
  /** @type {Record<string, any>} */
  const options = { ...given }
  options.bodyLimit = options.bodyLimit || (defaults.bodyLimit ?? 1_048_576)
  options.connectionTimeout = options.connectionTimeout || (defaults.connectionTimeout ?? 0)
  options.keepAliveTimeout = options.keepAliveTimeout || (defaults.keepAliveTimeout ?? 72_000)
  options.maxRequestsPerSocket = options.maxRequestsPerSocket || (defaults.maxRequestsPerSocket ?? 0)
  options.requestTimeout = options.requestTimeout || (defaults.requestTimeout ?? 0)
  const idHeader = options.requestIdHeader
  options.requestIdHeader = typeof idHeader === 'string' && idHeader.length !== 0 ? idHeader.toLowerCase() : (idHeader === true && 'request-id')
  /** @type {Record<string, any>} */
  const config = {}
  for (const name of Object.keys(options)) {
    if (FASTIFY_NAMES.has(name) && options[name] !== undefined) config[name] = copy(options[name])
  }
  for (const [name, fastifyDefault] of FASTIFY_KEYS) {
    const value = name in defaults ? defaults[name] : fastifyDefault
    if (config[name] === undefined && value !== undefined) config[name] = value
  }
  // https: an object of TLS options is `true`; true, false, null and
  // `{ allowHTTP1 }` alone stay as they are
  if ('https' in config && !isPlainHttps(config.https)) config.https = true
  if (config.routerOptions !== null && typeof config.routerOptions === 'object') {
    for (const [name, value] of ROUTER_DEFAULTS) {
      if (config.routerOptions[name] === undefined) config.routerOptions[name] = value
    }
  }
  for (const name of Object.keys(own)) {
    // one of Fastify's options it leaves out reads as Fastify's does, undefined
    if (name in config || (!ownEnumerable && FASTIFY_NAMES.has(name))) continue
    Object.defineProperty(config, name, { value: own[name], enumerable: ownEnumerable, writable: false, configurable: false })
  }
  return freeze(config)
}

/** @param {unknown} https */
function isPlainHttps (https) {
  if (https === null || typeof https === 'boolean') return true
  if (typeof https !== 'object') return false
  const keys = Object.keys(https)
  return keys.length === 1 && keys[0] === 'allowHTTP1' && typeof (/** @type {any} */ (https)).allowHTTP1 === 'boolean'
}

/**
 * The options as given, copied before anything reads them (find-my-way
 * marks the constraint strategies it is handed).
 * @param {Record<string, any>} options
 * @returns {Record<string, any>}
 */
export function copyOptions (options) {
  return copy(options)
}

/**
 * A copy of plain objects and arrays, to the bottom (functions, class
 * instances and typed arrays as they are), as rfdc copies them for Fastify.
 * @param {any} value
 * @returns {any}
 */
function copy (value) {
  if (Array.isArray(value)) return value.map(copy)
  if (value === null || typeof value !== 'object') return value
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  /** @type {Record<string, any>} */
  const out = {}
  for (const name of Object.keys(value)) out[name] = copy(value[name])
  return out
}

/**
 * Freezes an object and the plain objects and arrays in it (typed arrays
 * aside), as Fastify's deepFreezeObject.
 * @template {object} T
 * @param {T} object
 * @returns {Readonly<T>}
 */
function freeze (object) {
  for (const name of Object.getOwnPropertyNames(object)) {
    const value = /** @type {any} */ (object)[name]
    if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !ArrayBuffer.isView(value)) {
      const proto = Object.getPrototypeOf(value)
      if (Array.isArray(value) || proto === Object.prototype || proto === null) freeze(value)
    }
  }
  return Object.freeze(object)
}
