// One route's compiled pipeline, built once at ready(): hook arrays
// flattened from its context chain (null when empty, so an empty stage
// costs one check), its parser table, validators and serializers, and the
// Request/Reply classes of its context.
import { REQUEST_HOOKS } from '../lifecycle/hook-names.js'
import { adaptRequestHook } from '../lifecycle/callback-hooks.js'
import { checkLogSerializers, missingLoggerMethods, NOOP_LOGGER } from '../logger.js'
import { pickSerializer, serializerTable, normalizeRouteSchema, buildValidator, bodyContent, hasContent, SchemaCompiler } from './schema.js'
import { defaultErrorHandler } from '../lifecycle/handle-error.js'
import { handlerStage } from '../lifecycle/handler.js'
import { headRouteOnSendHandler } from './head-route.js'
import { warnAsFastify } from '../fastify-warnings.js'

// the parts Fastify names in its warning of a part given no schema, in its order
const SCHEMA_PARTS_WARNED = /** @type {const} */ (['headers', 'body', 'querystring', 'params'])

/** @type {import('./run-validator.js').ValidationErrors} */
const NO_FORMATTER = { formatter: null, fastify: false }

export class Route {
  /**
   * @param {import('../app/core.js').Core} app
   * @param {import('../app/context.js').Context} context
   * @param {any} instance   `this` for hooks and handlers
   * @param {Record<string, any>} options  as declared
   * @param {string} method
   * @param {string} url     with the prefix
   * @param {Function} handler
   */
  constructor (app, context, instance, options, method, url, handler) {
    this.app = app
    this.context = context
    this.instance = instance
    this.options = options
    this.method = method
    this.url = url
    this.handler = handler
    /** @type {string[]} the router paths this route answers */
    this.paths = [url]
    /** @type {Function[] | null} */ this.onRequest = null
    /** @type {Function[] | null} */ this.preParsing = null
    /** @type {Function[] | null} */ this.preValidation = null
    /** @type {Function[] | null} */ this.preHandler = null
    /** @type {Function[] | null} */ this.preSerialization = null
    /** @type {Function[] | null} */ this.onSend = null
    /** @type {Function[] | null} */ this.onResponse = null
    /** @type {Function[] | null} */ this.onError = null
    /** @type {Function[] | null} */ this.onTimeout = null
    /** @type {Function[] | null} */ this.onRequestAbort = null
    /** the HEAD route made from a GET route (exposeHeadRoute): its onSend hooks end with headRouteOnSendHandler */
    this.autoHead = false
    this.parseBody = false
    /** a request must have a body and a Content-Type (QUERY, RFC 10008 §2) */
    this.contentRequired = false
    /** @type {import('../lifecycle/parsers/table.js').ParserTable} */
    this.parsers = /** @type {any} */ (null)
    this.bodyLimit = 0
    /** the route sets its own bodyLimit, which wins over a parser's */
    this.ownBodyLimit = false
    this.hasValidation = false
    /** @type {import('./schema.js').Validator | null} */ this.validateParams = null
    /** @type {import('./schema.js').Validator | null} */ this.validateQuery = null
    /** @type {import('./schema.js').Validator | null} */ this.validateHeaders = null
    /** @type {import('./schema.js').Validator | null} */ this.validateBody = null
    /** a body schema by content type: lower-case media type → its validator @type {Map<string, import('./schema.js').Validator> | null} */
    this.validateBodyByType = null
    /** the validator compiler the route's schemas went through, for request.compileValidationSchema() @type {Function | undefined} */
    this.validatorCompiler = undefined
    /** request.compileValidationSchema()'s validators, by schema, made on first use @type {WeakMap<object, Function> | null} */
    this.validatorCache = null
    /** the serializer compiler the response schemas went through, for reply.compileSerializationSchema() @type {Function | undefined} */
    this.serializerCompiler = undefined
    /** reply.compileSerializationSchema()'s serializers, by schema, made on first use @type {WeakMap<object, Function> | null} */
    this.serializerCache = null
    /** how a failed validation becomes an error, set by compile() @type {import('./run-validator.js').ValidationErrors} */
    this.validationErrors = NO_FORMATTER
    /** Fastify's attachValidation: the handler gets request.validationError instead of the 400 */
    this.attachValidation = false
    /** @type {Map<string, import('./schema.js').SerializeFn> | null} */
    this.serializers = null
    /** @type {import('./schema.js').SerializeFn | null} */
    this.serialize200 = null
    /** status → serializer, for exact codes in the response schema @type {Map<number, import('./schema.js').SerializeFn>} */
    this.serializeExact = new Map()
    /** first digit of the status → its class's serializer, else 'default' @type {(import('./schema.js').SerializeFn | null)[]} */
    this.serializeByClass = []
    /** @type {((payload: any, statusCode: number) => string) | null} setReplySerializer()'s, the nearest up the plugin chain */
    this.replySerializer = null
    /** @type {WeakMap<object, import('./schema.js').SerializeFn> | null} reply.compileSerializationSchema()'s, by schema, once one is asked for */
    this.compiledSerializers = null
    /** @type {Function} the nearest error handler */
    this.errorHandler = defaultErrorHandler
    /**
     * The error handlers an error goes through, nearest first, each with the
     * instance it is called on: the route's own, its plugins' up to the
     * root's, then the default. One that fails hands its error to the next.
     * @type {{ fn: Function, instance: any }[]}
     */
    this.errorHandlers = [{ fn: defaultErrorHandler, instance }]
    /** @type {typeof import('../lifecycle/request.js').Request} */
    this.Request = /** @type {any} */ (null)
    /** @type {typeof import('../reply/reply.js').Reply} */
    this.Reply = /** @type {any} */ (null)
    this.trackFinish = false
    /** a reply notes when it started, for reply.elapsedTime: set by compile() */
    this.timesReply = app.logger !== null
    /** ms from the request's arrival to its answer before the error path answers 503 (0: no timer) */
    this.handlerTimeout = 0
    /** a not-found route (reply.callNotFound() in its handler answers a plain 404) */
    this.notFound = false
    /** log Fastify's "incoming request" line, set by compile() */
    this.logIncoming = false
    /** the logger this route's requests log through: the app's, or a child at the route's logLevel; null when logging is off */
    this.logger = app.logger
    /** request.routeOptions, built by compile() @type {Record<string, any>} */
    this.requestOptions = options
    /** @type {(raw: any) => string} the request id's source: the app's genReqId, or its plugin's (setGenReqId) */
    this.genReqId = app.genReqId
    /** genReqId is the application's own, given node:http's IncomingMessage (request.raw) */
    this.idFromRaw = false
    /** ids are Fastify's default, req-<n>: each request takes its number as it is made, read or not, as Fastify numbers every request */
    this.countsIds = false
    /** @type {Function | null} the route's childLoggerFactory option, else the one its plugin (or the app) set; null: a child of `logger` */
    this.childLoggerFactory = null
    /** @type {Record<string, any>} what childLoggerFactory is given as its third argument: the route's level and serializers */
    this.childLoggerOptions = {}
  }

  /** The route's config as requests see it (Fastify's context.config, read through request[kRouteContext]). */
  get config () {
    return this.requestOptions.config
  }

  /**
   * A request's logger made by the application's childLoggerFactory, as
   * Fastify calls it: (logger, bindings, options, raw) with the instance
   * of the route's plugin as `this`; what it returns must be a logger,
   * else the error to fail the request with is returned.
   * @param {import('../lifecycle/request.js').Request} request
   */
  childLogger (request) {
    const factory = /** @type {Function} */ (this.childLoggerFactory)
    const app = this.app
    const log = factory.call(this.instance, app.logger ?? NOOP_LOGGER, { [app.requestIdLogLabel]: request.id }, this.childLoggerOptions, request.raw)
    const missing = missingLoggerMethods(log)
    return missing.length > 0 ? app.error('HP_ERR_LOGGER_INVALID', missing.join(',')) : log
  }

  /**
   * Runs this route's preHandler hooks and handler on a reply that another
   * route started (reply.callNotFound()).
   * @param {import('../reply/reply.js').Reply} reply
   */
  enterHandler (reply) {
    handlerStage(reply)
  }

  /**
   * Puts a serializer compiled on its first call in the place of its lazy
   * stand-in, in every table of this route, so that the next answer calls
   * it with no detour.
   * @param {import('./schema.js').SerializeFn} lazy
   * @param {import('./schema.js').SerializeFn} built
   */
  swapSerializer (lazy, built) {
    const map = this.serializers
    if (map === null) return
    for (const [key, fn] of map) {
      if (fn === lazy) map.set(key, built)
      // a status with a schema per content type picks from its own map
      const byType = /** @type {any} */ (fn).byType
      if (byType instanceof Map) for (const [type, one] of byType) if (one === lazy) byType.set(type, built)
    }
    if (this.serialize200 === lazy) this.serialize200 = built
    for (const [status, fn] of this.serializeExact) if (fn === lazy) this.serializeExact.set(status, built)
    const byClass = this.serializeByClass
    for (let i = 0; i < byClass.length; i++) if (byClass[i] === lazy) byClass[i] = built
  }

  /** Called once at ready(). */
  compile () {
    const ctx = this.context
    const opts = this.options
    const self = /** @type {Record<string, any>} */ (this)
    for (const name of REQUEST_HOOKS) {
      const list = ctx.routeHooks(name)
      const own = opts[name]
      if (own !== undefined && own !== null) {
        for (const fn of Array.isArray(own) ? own : [own]) {
          if (typeof fn !== 'function') throw this.app.error('HP_ERR_INVALID_HOOK', name, Object.prototype.toString.call(fn))
          list.push(adaptRequestHook(name, fn, this.app.fastifyErrors))
        }
      }
      if (name === 'onSend' && this.autoHead) list.push(headRouteOnSendHandler)
      self[name] = list.length === 0 ? null : list
    }
    this.errorHandlers = ctx.errorHandlerChain()
    if (typeof opts.errorHandler === 'function') this.errorHandlers.unshift({ fn: opts.errorHandler, instance: this.instance })
    this.errorHandlers.push({ fn: defaultErrorHandler, instance: this.instance })
    this.errorHandler = this.errorHandlers[0].fn
    this.parsers = ctx.findParsers()
    this.parseBody = this.app.bodyMethods.has(this.method)
    this.contentRequired = this.method === 'QUERY'
    this.bodyLimit = opts.bodyLimit ?? this.app.bodyLimit
    this.ownBodyLimit = opts.bodyLimit !== undefined && opts.bodyLimit !== null
    // Fastify's `logLevel`, on the route or on the register() of a plugin
    // above it: the route's requests (and hotpath's lines about them) log at
    // that level, 'silent' for none (a health check polled every second).
    const logLevel = opts.logLevel || ctx.findLogLevel()
    // and its `logSerializers`, merged over its plugins' (Fastify's)
    const own = opts.logSerializers === undefined ? null : checkLogSerializers(opts.logSerializers)
    const inherited = ctx.findLogSerializers()
    const serializers = own === null ? inherited : { ...inherited, ...own }
    this.logger = this.app.logger === null || (logLevel === null && serializers === null)
      ? this.app.logger
      : this.app.logger.child({}, { ...(logLevel === null ? {} : { level: logLevel }), ...(serializers === null ? {} : { serializers }) })
    const ownId = ctx.findUp('genReqId')
    this.genReqId = /** @type {(raw: any) => string} */ (ownId ?? this.app.genReqId)
    this.idFromRaw = ownId !== null || this.app.ownGenReqId
    this.countsIds = this.genReqId === this.app.sequentialId
    // the route's own childLoggerFactory option, else its plugin's (Fastify's)
    this.childLoggerFactory = typeof opts.childLoggerFactory === 'function' ? opts.childLoggerFactory : ctx.findUp('childLoggerFactory')
    if (this.childLoggerFactory !== null) {
      this.childLoggerOptions = { ...(logLevel === null ? {} : { level: logLevel }), ...(serializers === null ? {} : { serializers }) }
    }
    // As Fastify shapes it: the limit that applies, and a config that is
    // always an object and names the route's url and method; the url the
    // route was declared at, not the last path its options object took
    this.handlerTimeout = opts.handlerTimeout ?? this.app.handlerTimeout
    // (Fastify's keys, in its order; `version` is the request's
    // Accept-Version once a route is constrained by version, see
    // Request#routeOptions)
    this.requestOptions = {
      method: opts.method,
      url: this.url,
      bodyLimit: this.bodyLimit,
      handlerTimeout: this.handlerTimeout,
      attachValidation: opts.attachValidation,
      logLevel: opts.logLevel,
      exposeHeadRoute: opts.exposeHeadRoute ?? this.app.exposeHeadRoutes,
      prefixTrailingSlash: opts.prefixTrailingSlash || 'both',
      // bound to the route's instance, as Fastify keeps it
      handler: typeof opts.handler === 'function' ? opts.handler.bind(this.instance) : opts.handler,
      config: { ...opts.config, url: this.url, method: opts.method },
      schema: opts.schema,
      version: undefined
    }
    ctx.buildClasses()
    this.replySerializer = /** @type {any} */ (ctx.findUp('replySerializer'))
    this.Request = /** @type {any} */ (ctx.Request)
    this.Reply = /** @type {any} */ (ctx.Reply)

    // request.compileValidationSchema() uses the route's own compiler
    if (typeof opts.validatorCompiler === 'function') this.validatorCompiler = opts.validatorCompiler
    if (typeof opts.serializerCompiler === 'function') this.serializerCompiler = opts.serializerCompiler
    const schema = opts.schema
    if (schema !== undefined && schema !== null) {
      const app = this.app
      const error = app.error.bind(app)
      /** @param {() => unknown} compile */
      const later = (compile) => app.backgroundCompile.add(compile)
      normalizeRouteSchema(schema, error)
      // Fastify warns once a route, a route of several methods naming them all
      const named = opts.method
      if (!Array.isArray(named) || named[0] === this.method) {
        for (const part of SCHEMA_PARTS_WARNED) if (schema[part] === undefined && Object.hasOwn(schema, part)) warnAsFastify(app, 'FSTWRN001', part, named, this.url)
      }
      const controller = ctx.schemaController
      const parts = /** @type {const} */ (['params', 'querystring', 'headers', 'body'])
      const validates = parts.some((p) => schema[p] && (p !== 'body' || this.parseBody))
      // the route's validatorCompiler, else its plugin scope's (set, or
      // built now for the scope's shared schemas)
      const ownValidator = typeof opts.validatorCompiler === 'function' ? opts.validatorCompiler : null
      /** @type {Function | undefined} */
      const validatorCompiler = ownValidator ?? (validates ? controller.setupValidator(app.ajvOptions) : undefined)
      if (validatorCompiler !== undefined) {
        this.validatorCompiler = validatorCompiler
        const how = { compile: validatorCompiler, method: this.method, url: this.url, custom: ownValidator !== null || controller.isCustomValidatorCompiler, error, later }
        if (schema.params) this.validateParams = buildValidator('params', schema.params, how)
        if (schema.querystring) this.validateQuery = buildValidator('querystring', schema.querystring, how)
        if (schema.headers) this.validateHeaders = buildValidator('headers', schema.headers, how)
        if (schema.body && this.parseBody) {
          const content = bodyContent(schema.body)
          if (content === null) this.validateBody = buildValidator('body', schema.body, how)
          else {
            // a schema per content type: the request's media type picks one
            this.validateBodyByType = new Map()
            for (const type of Object.keys(content)) {
              const v = buildValidator('body', content[type].schema, { ...how, contentType: type })
              if (v !== null) this.validateBodyByType.set(type.toLowerCase(), v)
            }
          }
        }
      }
      this.hasValidation = this.validateParams !== null || this.validateQuery !== null || this.validateHeaders !== null || this.validateBody !== null || this.validateBodyByType !== null
      if (this.hasValidation) {
        // the route's schemaErrorFormatter, else its plugin's (setSchemaErrorFormatter), else the app's option
        const formatter = opts.schemaErrorFormatter === undefined ? contextFormatter(ctx) : checkSchemaErrorFormatter(this.app, opts.schemaErrorFormatter)
        this.validationErrors = formatter === null && !this.app.fastifyErrors ? NO_FORMATTER : { formatter, fastify: this.app.fastifyErrors }
        this.attachValidation = opts.attachValidation === true
      }
      if (schema.response) {
        // each content type of a response given per content type has its schema
        for (const code of Object.keys(schema.response)) {
          const one = schema.response[code]
          if (!hasContent(one)) continue
          for (const type of Object.keys(one.content)) {
            const entry = one.content[type]
            if (entry === null || typeof entry !== 'object' || entry.schema === undefined || entry.schema === null) throw this.app.error('HP_ERR_SCHEMA_CONTENT_MISSING', type)
          }
        }
        const ownSerializer = typeof opts.serializerCompiler === 'function' ? opts.serializerCompiler : null
        const compile = ownSerializer ?? controller.setupSerializer(app.serializerOptions)
        this.serializerCompiler = compile
        this.serializers = SchemaCompiler.serializers(schema.response, { compile: /** @type {Function} */ (compile), method: this.method, url: this.url, error, swap: (lazy, built) => this.swapSerializer(lazy, built), later })
        this.serialize200 = pickSerializer(this.serializers, 200)
        const table = serializerTable(this.serializers)
        this.serializeExact = table.exact
        this.serializeByClass = table.byClass
      }
    }
    /** Fastify's "incoming request" line (logFormat 'fastify') */
    // (a logController decides on its own which requests it logs)
    const controlled = this.app.logController !== null
    this.logIncoming = this.logger !== null && (controlled || (this.app.logRequests && this.app.fastifyLogs))
    this.trackFinish = this.onResponse !== null || this.onRequestAbort !== null || this.onTimeout !== null || (this.app.logger !== null && (controlled || this.app.logRequests)) || this.handlerTimeout > 0
    // what runs at the end (onResponse hooks: metrics) reads reply.elapsedTime,
    // as the log line does; a route with neither skips the clock read
    this.timesReply = this.app.logger !== null || this.trackFinish
  }
}

/**
 * The schemaErrorFormatter a context's routes use: the nearest set up the
 * plugin chain, called with the instance it was set on as `this`, as
 * Fastify binds it.
 * @param {import('../app/context.js').Context} ctx
 * @returns {((errors: any[], part: string) => any) | null}
 */
function contextFormatter (ctx) {
  for (let c = /** @type {import('../app/context.js').Context | null} */ (ctx); c !== null; c = c.parent) {
    const fn = c.schemaErrorFormatter
    if (fn !== null) {
      const self = c.instance
      return (errors, part) => fn.call(self, errors, part)
    }
  }
  return null
}

/**
 * A schemaErrorFormatter must be a function that answers at once: it
 * builds the error a failed validation answers with.
 * @param {import('../app/core.js').Core} app
 * @param {unknown} fn
 * @returns {(errors: any[], part: string) => any}
 */
export function checkSchemaErrorFormatter (app, fn) {
  if (typeof fn !== 'function') throw app.error('HP_ERR_SCHEMA_ERROR_FORMATTER', typeof fn)
  if (fn.constructor.name === 'AsyncFunction') throw app.error('HP_ERR_SCHEMA_ERROR_FORMATTER', 'AsyncFunction')
  return /** @type {any} */ (fn)
}
