// The state one app shares across all its contexts: options, the route
// table, the engine, the logger, and the in-flight requests the request
// timeout sweeps.
import { buildInitialConfig } from './initial-config.js'
import { Context } from './context.js'
import { checkSchemaErrorFormatter } from '../routing/route.js'
import { createError, createFastifyError } from '../errors.js'
import { createLogger, FASTIFY_SERIALIZERS, LOGGER_METHODS, missingLoggerMethods } from '../logger.js'
import { compileTrust } from '../lifecycle/proxy.js'
import { InFlight } from '../lifecycle/in-flight.js'
import { buildSchemaController } from '../routing/schema-controller.js'
import { RouteTable } from '../routing/route-table.js'
import { DEFAULT_ENGINE, createEngine, isEngineName } from '../engines/index.js'
import { closingAnswer } from '../reply/error-body.js'
import { InjectEngine } from '../engines/inject/index.js'
import { createFactoryEngine } from '../engines/node/factory.js'
import { LoadMonitor } from './load-monitor.js'
import { BackgroundCompile } from '../routing/background-compile.js'
import { healthPath, drainDelay } from './health.js'
import { fastifyClientErrorHandler } from './client-error.js'
import { normalizeOptions, httpOptions } from './options.js'
import { loadNode } from './plugin-meta.js'
import { isLogController } from '../log-controller.js'
import { createRequire } from 'node:module'
import { jsonParser } from '../lifecycle/parsers/json.js'
import { requestClass } from '../lifecycle/request.js'

/** hotpath's own release (its package.json) */
const HOTPATH_VERSION = /** @type {string} */ (createRequire(import.meta.url)('../../package.json').version)

const DEFAULTS = {
  bodyLimit: 1024 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
  // RFC 9112 §3: servers should accept request-targets of at least 8000
  // octets; a longer one is answered 414 before any routing work
  maxUrlLength: 8192,
  maxParamLength: 100,
  // close() waits this long for in-flight responses, then ends the
  // connections still open (an SSE stream never ends by itself): long
  // enough for ordinary requests to finish, well inside the 30 s a
  // container orchestrator gives a process between SIGTERM and SIGKILL.
  closeGraceTimeout: 10_000,
  // Deeper than real documents (a GeoJSON FeatureCollection of
  // MultiPolygons nests 8), the default of .NET's System.Text.Json, and far
  // below where JSON.stringify or a validator runs out of stack (a few
  // thousand levels).
  jsonDepthLimit: 64,
  // A plugin that never calls done() nor settles its promise would hold
  // ready() forever: Fastify's 10 s, long enough for a slow connection to
  // a database, short enough to be seen at start-up.
  pluginTimeout: 10_000
}

/**
 * The Fastify release whose API (and own test suite) hotpath/fastify
 * follows: what its app.version says, so that code and plugins comparing
 * the version to a Fastify range see the API they get.
 */
export const FASTIFY_VERSION = '5.12.1'

export class Core {
  /** @param {Record<string, any>} options */
  constructor (options) {
    const given = options
    options = normalizeOptions(options)
    for (const key of ['bodyLimit', 'headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'maxHeaderSize', 'maxUrlLength', 'maxParamLength', 'closeGraceTimeout', 'maxRequestsPerSocket', 'pluginTimeout', 'connectionTimeout', 'handlerTimeout']) {
      const v = options[key]
      if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw createError('HP_ERR_INVALID_OPTION', key, 'expected a non-negative integer')
    }
    const force = options.forceCloseConnections
    if (force !== undefined && force !== true && force !== false && force !== 'idle') throw createError('HP_ERR_INVALID_OPTION', 'forceCloseConnections', "expected true, false or 'idle'")
    const depth = options.jsonDepthLimit
    if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1)) throw createError('HP_ERR_INVALID_OPTION', 'jsonDepthLimit', 'expected a positive integer')
    const serverFactory = options.serverFactory
    if (serverFactory !== undefined && serverFactory !== null && typeof serverFactory !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'serverFactory', 'expected a function')
    // a server the application makes is a node:http server: the node engine runs on it
    if (typeof serverFactory === 'function' && options.engine !== undefined && options.engine !== 'node') throw createError('HP_ERR_INVALID_OPTION', 'serverFactory', "the server it makes is run by the node engine; leave out `engine` or set it to 'node'")
    const http2 = options.http2
    if (http2 !== undefined && typeof http2 !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', 'http2', 'expected a boolean')
    // http2: true runs the h2 engine (HTTP/2 on node:http2)
    if (http2 === true && (typeof serverFactory === 'function' || (options.engine !== undefined && options.engine !== 'h2'))) throw createError('HP_ERR_INVALID_OPTION', 'http2', "HTTP/2 is served by the h2 engine; leave out `engine` and `serverFactory`, or set `engine` to 'h2'")
    const engineName = typeof serverFactory === 'function' ? 'node' : http2 === true ? 'h2' : options.engine ?? DEFAULT_ENGINE
    if (!isEngineName(engineName)) throw createError('HP_ERR_UNKNOWN_ENGINE', String(engineName))
    if (options.genReqId !== undefined && typeof options.genReqId !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'genReqId', 'expected a function')
    this.bodyLimit = options.bodyLimit ?? DEFAULTS.bodyLimit
    /** ms a plugin may take to load before ready() fails (0: no limit) */
    this.pluginTimeout = options.pluginTimeout ?? DEFAULTS.pluginTimeout
    /** nesting of arrays and objects a JSON body may have */
    this.jsonDepthLimit = depth ?? DEFAULTS.jsonDepthLimit
    // Fastify's `http.requestTimeout` counts where the app sets none of hotpath's own (./options.js httpOptions checks it)
    this.requestTimeout = options.requestTimeout ?? options.http?.requestTimeout ?? DEFAULTS.requestTimeout
    /** ms a route's request may take from its arrival to its answer before the error path answers 503 (0: off; a route's handlerTimeout wins) */
    this.handlerTimeout = options.handlerTimeout ?? 0
    if (options.exposeErrorMessages !== undefined && typeof options.exposeErrorMessages !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', 'exposeErrorMessages', 'expected a boolean')
    /** every error answers with its own message and code, as in Fastify (docs/safety.md) */
    this.exposeErrorMessages = options.exposeErrorMessages === true
    const errorFormat = options.errorFormat
    if (errorFormat !== undefined && errorFormat !== 'hotpath' && errorFormat !== 'fastify') throw createError('HP_ERR_INVALID_OPTION', 'errorFormat', "expected 'hotpath' or 'fastify'")
    /**
     * errorFormat 'fastify': errors answer as Fastify's do (its 404 body, a
     * thrown non-Error handed to error handlers and sent as it is)
     */
    this.fastifyErrors = errorFormat === 'fastify'
    const override = options.allowErrorHandlerOverride
    if (override !== undefined && typeof override !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', 'allowErrorHandlerOverride', 'expected a boolean')
    /** setErrorHandler may be called again in one context (Fastify's allowErrorHandlerOverride) */
    this.allowErrorHandlerOverride = override ?? true
    const replyFormat = options.replyFormat
    if (replyFormat !== undefined && replyFormat !== 'hotpath' && replyFormat !== 'fastify') throw createError('HP_ERR_INVALID_OPTION', 'replyFormat', "expected 'hotpath' or 'fastify'")
    /**
     * replyFormat 'fastify': payloads become bodies as Fastify's do (null
     * sends JSON null, a JSON Content-Type the app set gets charset=utf-8,
     * a stream gets no default Content-Type)
     */
    this.fastifyReplies = replyFormat === 'fastify'
    if (options.exposeHeadRoutes !== undefined && typeof options.exposeHeadRoutes !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', 'exposeHeadRoutes', 'expected a boolean')
    /** a GET route answers HEAD too, through a HEAD route of its own (Fastify's exposeHeadRoutes) */
    this.exposeHeadRoutes = options.exposeHeadRoutes ?? true
    // The methods routes may use (Fastify 5's supportedMethods; more with
    // addHttpMethod): those whose request bodies are parsed, and those whose
    // bodies are not (RFC 9110 §9.3: a GET or HEAD body has no defined
    // semantics).
    /** @type {Set<string>} */
    this.bodyMethods = new Set(['DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'])
    /** @type {Set<string>} */
    this.bodylessMethods = new Set(['GET', 'HEAD', 'TRACE'])
    // on HTTP/2 the `http` option is node:http2's server options, as Fastify hands it to http2.createServer
    const http = engineName === 'h2' ? httpOptions(undefined, engineName) : httpOptions(options.http, engineName)
    const sessionTimeout = options.http2SessionTimeout
    if (sessionTimeout !== undefined && !(Number.isInteger(sessionTimeout) && sessionTimeout >= 0)) throw createError('HP_ERR_INVALID_OPTION', 'http2SessionTimeout', 'expected a non-negative integer')
    // errorFormat 'fastify': without a handler of the app's, Fastify's own
    // answers the requests the engine refuses (its fixed "Client Error" body)
    const clientErrorHandler = options.clientErrorHandler ?? (this.fastifyErrors ? fastifyClientErrorHandler : undefined)
    if (clientErrorHandler !== undefined && typeof clientErrorHandler !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'clientErrorHandler', 'expected a function')
    if (options.return503OnClosing !== undefined && typeof options.return503OnClosing !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', 'return503OnClosing', 'expected a boolean')
    /** the health route's path (`health`), answered before routing; null: none */
    this.healthPath = healthPath(options.health)
    /** ms close() keeps serving, the health route answering 503, before the listener closes (`drain`); null: no drain */
    this.drainDelay = drainDelay(options.drain)
    const maxUrlLength = options.maxUrlLength ?? DEFAULTS.maxUrlLength
    /** bytes a request-target may have before dispatch answers 414 (`maxUrlLength`; 0 there: no limit of its own) */
    this.urlLimit = maxUrlLength === 0 ? Infinity : maxUrlLength
    /** @type {import('../engines/engine.js').EngineOptions} */
    this.engineOptions = {
      drain: this.drainDelay !== null,
      https: options.https,
      headersTimeout: options.headersTimeout ?? http.headersTimeout ?? DEFAULTS.headersTimeout,
      requestTimeout: this.requestTimeout,
      keepAliveTimeout: options.keepAliveTimeout ?? http.keepAliveTimeout ?? DEFAULTS.keepAliveTimeout,
      maxHeaderSize: options.maxHeaderSize ?? http.maxHeaderSize ?? DEFAULTS.maxHeaderSize,
      // 0: no limit of its own, the head's maxHeaderSize bounds it (node:http's, Fastify's)
      maxUrlLength,
      closeGraceTimeout: options.closeGraceTimeout ?? DEFAULTS.closeGraceTimeout,
      forceCloseConnections: options.forceCloseConnections ?? false,
      maxRequestsPerSocket: options.maxRequestsPerSocket ?? 0,
      connectionTimeout: options.connectionTimeout ?? 0,
      requireHostHeader: http.requireHostHeader ?? true,
      connectionsCheckingInterval: http.connectionsCheckingInterval,
      noDelay: http.noDelay ?? true,
      keepAlive: http.keepAlive ?? false,
      keepAliveInitialDelay: http.keepAliveInitialDelay ?? 0,
      nodeServerOptions: http.nodeServer,
      return503OnClosing: options.return503OnClosing ?? true,
      closingAnswer: closingAnswer(this.fastifyErrors),
      clientErrorHandler: clientErrorHandler === undefined ? undefined : (err, socket) => clientErrorHandler.call(this.root.instance, err, socket),
      ...(engineName === 'h2' ? { http2ServerOptions: options.http ?? undefined, http2SessionTimeout: sessionTimeout } : {})
    }
    /**
     * what the app was created with, as Fastify's initialConfig (frozen):
     * Fastify's options as given or defaulted, the defaults this entry's
     * (hotpath's keepAliveTimeout and requestTimeout), and hotpath's own
     * settings resolved (./initial-config.js); hotpath/fastify builds it
     * again from the options as given, with Fastify's defaults
     */
    const { closingAnswer: _closingAnswer, requireHostHeader, connectionsCheckingInterval, noDelay: _noDelay, keepAlive: _keepAlive, keepAliveInitialDelay: _keepAliveInitialDelay, nodeServerOptions: _nodeServerOptions, return503OnClosing, clientErrorHandler: _clientErrorHandler, onClosingRefusal: _onClosingRefusal, drain: _drain, http2ServerOptions: _http2ServerOptions, ...limits } = this.engineOptions
    /** hotpath's settings in initialConfig beside Fastify's options */
    this.ownConfig = {
      jsonDepthLimit: this.jsonDepthLimit,
      headersTimeout: limits.headersTimeout,
      maxHeaderSize: limits.maxHeaderSize,
      maxUrlLength: limits.maxUrlLength,
      closeGraceTimeout: limits.closeGraceTimeout,
      forceCloseConnections: limits.forceCloseConnections,
      https: options.https === undefined ? false : options.https,
      engine: engineName,
      exposeErrorMessages: options.exposeErrorMessages === true,
      logFormat: options.logFormat ?? 'hotpath',
      trustProxy: options.trustProxy ?? false
    }
    this.initialConfig = buildInitialConfig(given, { keepAliveTimeout: limits.keepAliveTimeout, requestTimeout: this.requestTimeout, http2SessionTimeout: sessionTimeout ?? 72_000 }, this.ownConfig, true)
    const format = options.logFormat
    if (format !== undefined && format !== 'hotpath' && format !== 'fastify') throw createError('HP_ERR_INVALID_OPTION', 'logFormat', "expected 'hotpath' or 'fastify'")
    /** Fastify's request log lines: an "incoming request" line, errors under their own message (hotpath/fastify) */
    this.fastifyLogs = format === 'fastify'
    const controller = options.logController
    if (controller !== undefined && controller !== null && !isLogController(controller)) throw createError('HP_ERR_INVALID_OPTION', 'logController', 'expected a LogController (isLogDisabled, incomingRequest, requestCompleted, defaultErrorLog, routeNotFound)')
    /**
     * Fastify's logController: when set, a request's own lines (incoming,
     * completed, the default handler's error, the default 404) are its to write
     * @type {import('../log-controller.js').LogController | null}
     */
    this.logController = controller ?? null
    // loggerInstance: Fastify 5's name for a logger made elsewhere (a pino
    // instance); Fastify's serializers for its lines, which a logController
    // writes with the request and the reply themselves
    this.logger = createLogger(this.checkLoggerOptions(options.logger, options.loggerInstance), this.fastifyLogs || this.logController !== null ? FASTIFY_SERIALIZERS : null)
    // Fastify logs each request it refuses while closing
    const logger = this.logger
    if (this.fastifyLogs && logger !== null) this.engineOptions.onClosingRefusal = () => logger.info({ res: { statusCode: 503 } }, 'request aborted - refusing to accept new requests as server is closing')
    const disable = options.disableRequestLogging
    if (disable !== undefined && typeof disable !== 'boolean' && typeof disable !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'disableRequestLogging', 'expected a boolean or a function of the request')
    /** the completion line per request ("request completed"), unless disableRequestLogging */
    this.logRequests = disable !== true
    /** @type {((req: any) => boolean) | null} disableRequestLogging as a function: true leaves that request's lines out */
    this.skipRequestLog = typeof disable === 'function' ? disable : null
    const label = options.requestIdLogLabel
    if (label !== undefined && (typeof label !== 'string' || label === '')) throw createError('HP_ERR_INVALID_OPTION', 'requestIdLogLabel', 'expected a non-empty string')
    /** the key of the request id on a request's log lines */
    this.requestIdLogLabel = label ?? 'reqId'
    /**
     * Fastify's default request ids, req-1, req-2…: one number for every
     * request the app routes, read or not (a route whose requests take
     * theirs from this counter numbers each as it is made, ../lifecycle/request.js)
     */
    this.requestCount = 0
    /** @type {(raw?: any) => string} */
    this.sequentialId = () => 'req-' + (++this.requestCount).toString(36)
    const idHeader = requestIdHeader(options.requestIdHeader)
    /** the header a request id is taken from (Fastify's requestIdHeader), null for none */
    this.requestIdHeader = idHeader
    /** @type {(raw: any) => string} the request id: the requestIdHeader's value when it has one, else genReqId's */
    this.genReqId = this.requestIdFrom(options.genReqId ?? this.sequentialId)
    /** genReqId is the app's own: it is given node:http's IncomingMessage (request.raw) */
    this.ownGenReqId = options.genReqId !== undefined
    const factory = options.childLoggerFactory
    if (factory !== undefined && typeof factory !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'childLoggerFactory', 'expected a function')
    this.trustProxy = compileTrust(options.trustProxy)
    for (const key of ['frameworkErrors', 'rewriteUrl', 'defaultRoute', 'onBadUrl', 'onMaxParamLength', 'buildPrettyMeta']) {
      if (options[key] !== undefined && options[key] !== null && typeof options[key] !== 'function') throw createError('HP_ERR_INVALID_OPTION', key, 'expected a function')
    }
    /**
     * Fastify's frameworkErrors: given the errors found before a route is
     * (a malformed path, a parameter over maxParamLength, a failed
     * asynchronous constraint), with a Request and Reply, to answer them
     * @type {((err: Error, req: any, reply: any) => void) | null}
     */
    this.frameworkErrors = options.frameworkErrors ?? null
    /** @type {((this: any, raw: any) => string) | null} Fastify's rewriteUrl: the URL a request is routed by, from the raw request */
    this.rewriteUrl = options.rewriteUrl ?? null
    /**
     * find-my-way's defaultRoute, onBadUrl and onMaxParamLength: handlers of
     * node:http's request and response that replace the not-found route,
     * the bad-URL answer and the too-long-parameter answer
     */
    this.routerEvents = {
      /** @type {((req: any, res: any) => void) | null} */
      defaultRoute: options.defaultRoute ?? null,
      /** @type {((path: string, req: any, res: any) => void) | null} */
      onBadUrl: options.onBadUrl ?? null,
      /** @type {((path: string, req: any, res: any) => void) | null} */
      onMaxParamLength: options.onMaxParamLength ?? null
    }
    this.routes = new RouteTable({
      caseSensitive: options.caseSensitive,
      ignoreTrailingSlash: options.ignoreTrailingSlash,
      ignoreDuplicateSlashes: options.ignoreDuplicateSlashes,
      allowUnsafeRegex: options.allowUnsafeRegex,
      maxParamLength: options.maxParamLength ?? DEFAULTS.maxParamLength,
      useSemicolonDelimiter: options.useSemicolonDelimiter === true,
      constraints: options.constraints,
      buildPrettyMeta: options.buildPrettyMeta ?? undefined,
      // Fastify answers a parameter over maxParamLength 414; hotpath's own
      // entry does not match it (404), unless the app handles it itself
      maxParamEvent: this.fastifyErrors || this.frameworkErrors !== null || this.routerEvents.onMaxParamLength !== null
    })
    this.root = new Context(null, '')
    // Fastify's schemaController: where the root scope keeps its shared
    // schemas, and the builders of its validator and serializer compilers
    this.root.schemaController = buildSchemaController(null, options.schemaController, this.error.bind(this))
    // Fastify's childLoggerFactory: what makes a request's logger, for
    // every context that sets none of its own (setChildLoggerFactory)
    this.root.childLoggerFactory = factory ?? null
    // Fastify's schemaErrorFormatter: the error a failed validation answers
    // with, for every route that sets none of its own
    if (options.schemaErrorFormatter !== undefined) this.root.schemaErrorFormatter = checkSchemaErrorFormatter(this, options.schemaErrorFormatter)
    // Fastify's querystringParser and useSemicolonDelimiter: the app's
    // Request class reads the query with them, chosen here, so an app that
    // uses neither has hotpath's Request as it is.
    const qsParser = options.querystringParser
    if (qsParser !== undefined && typeof qsParser !== 'function') throw this.error('HP_ERR_QSP_NOT_FN', typeof qsParser)
    const semicolon = options.useSemicolonDelimiter
    if (semicolon !== undefined && typeof semicolon !== 'boolean') throw createError('HP_ERR_INVALID_OPTION', 'useSemicolonDelimiter', 'expected a boolean')
    this.root.baseRequest = requestClass(qsParser ?? null, semicolon === true)
    // Fastify's onProtoPoisoning and onConstructorPoisoning: what the
    // built-in JSON parser does with a __proto__ or constructor.prototype
    // key ('error', the default: 400; 'remove'; 'ignore')
    this.root.ownParsers().setDefaultJson(jsonParser(options.onProtoPoisoning ?? 'error', options.onConstructorPoisoning ?? 'error'))
    /** @type {import('./plugin-meta.js').LoadNode} the plugins as they loaded, for printPlugins() */
    this.loadTree = loadNode('root')
    /** @type {{ instance: any, fn: Function }[]} ready(cb) called by plugins as they loaded */
    this.readyCallbacks = []
    /** @type {import('./plugin-meta.js').LoadNode} the node of the plugin loading now */
    this.loadingNode = this.loadTree
    /** what `app.version` names: hotpath's own release, or under hotpath/fastify the Fastify release it follows */
    this.version = HOTPATH_VERSION
    /** @type {Context[]} every context, root first */
    this.allContexts = [this.root]
    // Created now, so app.server exists before listen(), as in Fastify.
    /** @type {import('../engines/engine.js').Engine} */
    this.engine = typeof serverFactory === 'function'
      ? createFactoryEngine(this.engineOptions, serverFactory, options)
      : createEngine(engineName, this.engineOptions)
    if (this.engineOptions.forceCloseConnections === 'idle' && typeof (/** @type {any} */ (this.engine.server)).closeIdleConnections !== 'function') {
      throw this.error('HP_ERR_FORCE_CLOSE_IDLE_UNAVAILABLE')
    }
    /** app.inject()'s engine: the same entry point, no socket */
    this.injectEngine = new InjectEngine()
    /** @type {Promise<void> | null} */
    this.readyPromise = null
    /** @type {unknown} the first plugin that failed to load: the app does not start without it */
    this.loadError = null
    /** @type {import('../engines/engine.js').RequestHandler | null} the core's entry point, once ready */
    this.handler = null
    /** routes, hooks and decorators can no longer be added */
    this.locked = false
    this.isReady = false
    /** `await app` is resolving with the instance: its `then` reads undefined once (Hotpath's then) */
    this.resolvingInstance = false
    /** @type {Record<string, Function[]>} */
    this.appHooks = { preClose: [], onClose: [] }
    /** @type {Promise<void> | null} */
    this.closePromise = null
    /** close() has begun and the drain delay runs: the app still serves, injected requests too */
    this.draining = false
    /** the engine is closing: a request routed by app.routing() (an 'upgrade' listener's) is refused 503, as the engines refuse one */
    this.closing = false
    /** @type {import('node:net').AddressInfo | string | null} the address listened at (a path for a Unix socket) */
    this.address = null
    /** true from listen() until it fails: a second listen() is refused at once */
    this.listening = false
    this.inFlight = new InFlight(this.requestTimeout)
    /** the compiles that wait for a route's first request, run ahead of it once the server listens */
    this.backgroundCompile = new BackgroundCompile()
    /** set by the load monitor; read once per request by dispatch */
    this.overloaded = false
    /** @type {LoadMonitor | null} */
    this.loadMonitor = null
    const monitor = new LoadMonitor(this, options.load)
    if (monitor.enabled) this.loadMonitor = monitor
    const ajv = options.ajv
    if (ajv !== undefined && (typeof ajv !== 'object' || ajv === null)) throw createError('HP_ERR_INVALID_OPTION', 'ajv', 'expected { customOptions, plugins, onCreate }')
    /** Fastify's `ajv` option: ajv's own options, its plugins, a function given each instance */
    this.ajvOptions = ajv ?? null
    const serializerOpts = options.serializerOpts
    if (serializerOpts !== undefined && (typeof serializerOpts !== 'object' || serializerOpts === null)) throw createError('HP_ERR_INVALID_OPTION', 'serializerOpts', 'expected an object of fast-json-stringify options')
    /** Fastify's `serializerOpts`: fast-json-stringify's options (rounding, largeArrayMechanism…), given to the serializer builder */
    this.serializerOptions = serializerOpts ?? undefined
  }

  /**
   * An error of the table (../errors.js), in Fastify's words with
   * errorFormat 'fastify'.
   * @param {string} code
   * @param {...(string | number)} args
   */
  error (code, ...args) {
    return this.fastifyErrors ? createFastifyError(code, ...args) : createError(code, ...args)
  }

  /**
   * The logger option to build from: `loggerInstance`, a logger made
   * elsewhere, else `logger`, pino's options (or, on hotpath's own entry, a
   * logger too). Refused: both at once, a loggerInstance that is no logger,
   * and a logger that lacks some of the methods a request's logger needs;
   * with errorFormat 'fastify', a logger given as `logger`, as Fastify 5.
   * @param {unknown} logger
   * @param {unknown} instance
   * @returns {unknown}
   */
  checkLoggerOptions (logger, instance) {
    if (logger && instance) throw this.error('HP_ERR_LOGGER_AND_INSTANCE')
    if (instance) {
      const missing = missingLoggerMethods(instance)
      if (missing.length === LOGGER_METHODS.length) throw this.error('HP_ERR_LOGGER_INSTANCE', typeof instance)
      if (missing.length > 0) throw this.error('HP_ERR_LOGGER_INVALID', missing.join(','))
      return instance
    }
    if (logger !== null && typeof logger === 'object') {
      const missing = missingLoggerMethods(logger)
      if (missing.length === 0 && this.fastifyErrors) throw this.error('HP_ERR_LOGGER_CONFIG')
      if (missing.length > 0 && missing.length < LOGGER_METHODS.length) throw this.error('HP_ERR_LOGGER_INVALID', missing.join(','))
    }
    return logger
  }

  /** a plugin is loading (its ready(cb) waits for the others) */
  get loading () {
    return this.loadingNode !== this.loadTree
  }

  /**
   * A genReqId with the requestIdHeader in front of it, as Fastify wraps
   * the option's and setGenReqId's: the header's value when the request
   * has one, else fn(raw).
   * @param {(raw: any) => string} fn
   * @returns {(raw: any) => string}
   */
  requestIdFrom (fn) {
    const header = this.requestIdHeader
    if (header === null) return fn
    return (raw) => {
      const id = raw.headers[header]
      return typeof id === 'string' && id !== '' ? id : fn(raw)
    }
  }
}

/**
 * The header a request id is taken from (Fastify's requestIdHeader): a
 * name, true for 'request-id', false (Fastify 5's default) for none.
 * @param {unknown} option
 * @returns {string | null}
 */
function requestIdHeader (option) {
  if (option === undefined || option === false || option === '') return null
  if (option === true) return 'request-id'
  if (typeof option === 'string' && option !== '') return option.toLowerCase()
  throw createError('HP_ERR_INVALID_OPTION', 'requestIdHeader', 'expected a header name or a boolean')
}
