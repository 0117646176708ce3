// hotpath with Fastify 5's defaults where hotpath's own differ, for an
// application that moves from Fastify by changing one import
// (docs/migrating-from-fastify.md lists what differs, and why).
import { hotpath, plugin, HttpError } from './index.js'
import { fastifyErrorCodes, createFastifyError } from './errors.js'

/**
 * Fastify's error constructors by code (require('fastify').errorCodes):
 * `errorCodes.FST_ERR_VALIDATION('message')` builds one, and an error
 * hotpath/fastify raises with a Fastify code is an instance of its
 * constructor here.
 */
const errorCodes = fastifyErrorCodes()
import { FASTIFY_VERSION } from './app/core.js'
import { LogController } from './log-controller.js'
import { buildInitialConfig, copyOptions } from './app/initial-config.js'
import { warnAsFastify, TOP_LEVEL_ROUTER_OPTIONS } from './fastify-warnings.js'

/** Fastify's values for the options whose hotpath defaults differ. */
const FASTIFY_DEFAULTS = {
  // Fastify closes idle keep-alive connections at once; hotpath keeps one
  // that has just answered open 500 ms, so a request already on its way is
  // answered 503 rather than reset (docs/safety.md, "Graceful shutdown").
  forceCloseConnections: 'idle',
  // Fastify answers every error with its own message and code, a 5xx's
  // too; hotpath shows only those made for the client (docs/safety.md,
  // "Errors never leak").
  exposeErrorMessages: true,
  // Fastify logs two lines a request ("incoming request", "request
  // completed") and an error under its own message; hotpath one line, and
  // errors under "request failed"/"request rejected" (docs/safety.md).
  logFormat: 'fastify',
  // Fastify's error answers: its 404 and validation bodies, and its codes
  // and messages for the errors it names (lib/errors.js FASTIFY_ERRORS).
  errorFormat: 'fastify',
  // Fastify's bodies: null sends "null", a JSON type the app set gets
  // charset=utf-8, a stream no default Content-Type; hotpath sends null as
  // an empty body, a type as set, a stream as application/octet-stream.
  replyFormat: 'fastify',
  // Fastify sets no limit on receiving a request (node:http's
  // requestTimeout, which it sets to 0); hotpath's 30 s also bounds the
  // answer (docs/safety.md, "Timeouts"). headersTimeout still bounds the
  // head.
  requestTimeout: 0,
  // Fastify keeps an idle keep-alive connection 72 s, past a cloud load
  // balancer's 60 s idle timeout (a shorter server timeout gives 502s
  // there); hotpath's own 5 s frees idle connections sooner.
  keepAliveTimeout: 72_000,
  // Fastify takes a request-target as long as node:http's head limit
  // allows (maxHeaderSize, 16 KiB); hotpath answers one past 8 KiB 414
  // (RFC 9112 §3 asks servers to take 8,000 octets at least)
  maxUrlLength: 0
}

/** Fastify's server options it reads with `||`: 0, null or false there is its default */
const OR_DEFAULTS = /** @type {const} */ ([['keepAliveTimeout', 72_000], ['requestTimeout', 0], ['connectionTimeout', 0], ['maxRequestsPerSocket', 0]])

/**
 * The options of OR_DEFAULTS given as 0, null or false, with Fastify's
 * default (keepAliveTimeout: 0 is 72 s there, maxRequestsPerSocket: null
 * no limit)
 * @param {Record<string, any>} options
 */
function fastifyFalsyDefaults (options) {
  /** @type {Record<string, number>} */
  const out = {}
  for (const [name, value] of OR_DEFAULTS) {
    if (options[name] !== undefined && !options[name]) out[name] = value
  }
  return out
}

/**
 * Fastify 5.12 trusts no X-Forwarded-* header under a hop count
 * (`trustProxy: 1`): a count cannot tell a proxy from a client that sent
 * enough hops itself, so it fails closed, and so does this entry (the
 * address, host and scheme are the connection's). hotpath's own entry
 * keeps the hop count (docs/migrating-from-fastify.md).
 * @param {Record<string, any>} options
 */
function fastifyTrust (options) {
  return typeof options.trustProxy === 'number' ? { trustProxy: trustNoPeer } : {}
}

function trustNoPeer () { return false }

/**
 * Creates an app, as fastify(options) does.
 * @param {Record<string, any>} [options]
 */
export function fastify (options = {}) {
  if (typeof options !== 'object') throw createFastifyError('HP_ERR_OPTIONS_NOT_OBJ', typeof options)
  // null is no options, as Fastify takes it
  if (options === null) options = {}
  // Fastify closes idle connections only on a server that can: one that
  // serverFactory makes may not, nor node:http2's (its close() sends every
  // session a GOAWAY instead), and then it just closes.
  const defaults = typeof options?.serverFactory === 'function' || options?.http2 === true ? { ...FASTIFY_DEFAULTS, forceCloseConnections: undefined } : FASTIFY_DEFAULTS
  // the options as given, before the router marks the constraint
  // strategies it is handed, as Fastify copies them
  const given = copyOptions(options)
  const app = hotpath({ ...defaults, ...options, ...fastifyFalsyDefaults(options), ...fastifyTrust(options), ajv: fastifyAjv(options?.ajv) })
  // Fastify's initialConfig: its options as given, its defaults, and
  // hotpath's own settings readable by name but not listed
  // (app/initial-config.js)
  app._core.initialConfig = buildInitialConfig(given, {}, app._core.ownConfig, false)
  // the options Fastify 5 warns of as deprecated
  const topLevelRouter = TOP_LEVEL_ROUTER_OPTIONS.filter((key) => Object.hasOwn(options, key))
  if (topLevelRouter.length > 0) warnAsFastify(app._core, 'FSTDEP022', topLevelRouter.join(', '))
  if (options.requestIdLogLabel !== undefined) warnAsFastify(app._core, 'FSTDEP024')
  if (options.disableRequestLogging !== undefined) warnAsFastify(app._core, 'FSTDEP023')
  // Fastify parses JSON and text/plain bodies only: an urlencoded body is
  // 415 until a parser is added (@fastify/formbody)
  app.removeContentTypeParser('application/x-www-form-urlencoded')
  // Fastify's names for the app: its version is the Fastify release this
  // entry follows (plugins compare it to the range they support), and its
  // root plugin is 'fastify' (pluginName, hasPlugin)
  app._core.version = FASTIFY_VERSION
  app._ctx.pluginNames[0] = 'fastify'
  return app
}

/**
 * Fastify's validator coerces a body to its schema's types as it does the
 * params, query and headers (hotpath's leaves JSON's types alone): its
 * coerceTypes; and it keeps ajv's strict mode (hotpath's turns it off), so
 * a schema with a keyword or format ajv does not know fails ready(), as on
 * Fastify, and every schema compiles then; unless the app's ajv options
 * set their own.
 * @param {any} ajv  the app's `ajv` option
 */
function fastifyAjv (ajv) {
  if (ajv === undefined || ajv === null) return { customOptions: FASTIFY_AJV }
  if (typeof ajv !== 'object') return ajv
  return { ...ajv, customOptions: { ...FASTIFY_AJV, ...ajv.customOptions } }
}

/** `strict` unset: ajv's own defaults (strictSchema and strictNumbers on, strictTypes logged), as Fastify's compiler leaves them */
const FASTIFY_AJV = Object.freeze({ coerceTypes: 'array', strict: undefined })

// CommonJS: require('hotpath/fastify') returns the factory itself, with
// .fastify and .default on it, as require('fastify') does; most Fastify
// applications and plugins are CommonJS (Node's 'module.exports' export
// name, which require(esm) returns as is since Node 20.19 and 22.12).
fastify.fastify = fastify
fastify.default = fastify
fastify.hotpath = hotpath
fastify.plugin = plugin
fastify.HttpError = HttpError
fastify.errorCodes = errorCodes
fastify.LogController = LogController

export default fastify
export { hotpath, plugin, HttpError, errorCodes, LogController, fastify as 'module.exports' }
