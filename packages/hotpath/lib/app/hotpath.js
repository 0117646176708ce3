// The app object users hold: registration of routes, hooks, decorators,
// parsers and plugins, and ready/listen/close. Everything here runs at
// start-up; per-request work starts in ../routing/dispatch.js.
//
// The class has every member of the app; a member that does more than a few
// lines calls, with the instance, its function in the file named after what
// it does: routes.js, hooks.js, handlers.js, schemas.js,
// content-type-parsers.js, decorators.js, register.js, listen-close.js,
// inject.js. routing() and inject(), which run per request, are here whole.
import { Core } from './core.js'
/** @typedef {import('./context.js').Context} Context */
/** @typedef {import('./listen-close.js').ListenOptions} ListenOptions */
import { createError } from '../errors.js'
import { closingAnswer } from '../reply/error-body.js'
import { NOOP_LOGGER } from '../logger.js'
import { defaultErrorHandler } from '../lifecycle/handle-error.js'
import { doReady } from './boot.js'
import { foreignRequest, foreignResponse } from '../engines/foreign.js'
import { InjectChain } from '../engines/inject/chain.js'
import { route, shorthand, addHttpMethod, findRoute, hasRoute, addConstraintStrategy, printRoutes } from './routes.js'
import { addHook, use } from './hooks.js'
import { addContentTypeParser, hasContentTypeParser, removeContentTypeParser, removeAllContentTypeParsers, getDefaultJsonParser, defaultTextParser } from './content-type-parsers.js'
import { setErrorHandler, setNotFoundHandler, setGenReqId, setChildLoggerFactory, defaultChildLoggerFactory } from './handlers.js'
import { setValidatorCompiler, setSerializerCompiler, setSchemaController, setSchemaErrorFormatter, setReplySerializer, addSchema } from './schemas.js'
import { decorate, decorateRequest, decorateReply, RESERVED_REQUEST, RESERVED_REPLY } from './decorators.js'
import { register, hasPlugin, pluginName, printPlugins, after, thenOf } from './register.js'
import { listen, listenNow, addresses, close } from './listen-close.js'
import { checkInjectOptions, injectNow } from './inject.js'
import { settleInOrder } from './callbacks.js'

/** Fastify's key for the names of the plugins an instance has seen */
const kRegisteredPlugins = Symbol.for('registered-plugin')

export { Core }

/**
 * The object users hold: the root app, or a plugin's child instance (made
 * with Object.create, so the parent's decorators are visible and its own
 * are not visible to the parent).
 */
export class Hotpath {
  /**
   * @param {Core} core
   * @param {Context} ctx
   */
  constructor (core, ctx) {
    /** @type {Core} */
    this._core = core
    /** @type {Context} */
    this._ctx = ctx
  }

  get server () {
    return /** @type {import('node:net').Server} */ (this._core.engine?.server)
  }

  get log () {
    return this._core.logger ?? NOOP_LOGGER
  }

  /**
   * Fastify's `log` is a plain property a program may replace (a wrapper
   * with its own fields): the value replaces `app.log` (and the log of the
   * instances made from this one after), not the logger of requests.
   * @param {any} value
   */
  set log (value) {
    Object.defineProperty(this, 'log', { value, writable: true, configurable: true, enumerable: true })
  }

  /** The prefix routes are joined to, as Fastify's (a trailing slash kept). */
  get prefix () {
    return this._ctx.routePrefix
  }

  /**
   * The last load sample and whether new requests are being shed (the
   * `load` option); all zero when no load limit is set.
   */
  get load () {
    const core = this._core
    const m = core.loadMonitor
    const r = m === null ? { eventLoopDelay: 0, eventLoopUtilization: 0, heapUsed: 0, rss: 0 } : m.reading
    return { ...r, overloaded: core.overloaded }
  }

  addresses () {
    return addresses(this)
  }

  /**
   * The release this app's API follows: hotpath's; under hotpath/fastify,
   * the Fastify release it implements (Fastify's `version`).
   */
  get version () {
    return this._core.version
  }

  /** The options the app was created with, limits resolved (Fastify's initialConfig). */
  get initialConfig () {
    return this._core.initialConfig
  }

  // --- routes -------------------------------------------------------------

  /** @param {Record<string, any>} options */
  route (options) {
    return route(this, options)
  }

  /** @param {string[]} methods @param {string} path @param {any} a @param {any} [b] */
  _shorthand (methods, path, a, b) {
    return shorthand(this, methods, path, a, b)
  }

  /** @param {string} path @param {any} a @param {any} [b] */
  get (path, a, b) { return this._shorthand(['GET'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  head (path, a, b) { return this._shorthand(['HEAD'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  post (path, a, b) { return this._shorthand(['POST'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  put (path, a, b) { return this._shorthand(['PUT'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  patch (path, a, b) { return this._shorthand(['PATCH'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  delete (path, a, b) { return this._shorthand(['DELETE'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  options (path, a, b) { return this._shorthand(['OPTIONS'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  trace (path, a, b) { return this._shorthand(['TRACE'], path, a, b) }
  /** @param {string} path @param {any} a @param {any} [b] */
  query (path, a, b) { return this._shorthand(['QUERY'], path, a, b) }
  /** Every method in supportedMethods. @param {string} path @param {any} a @param {any} [b] */
  all (path, a, b) { return this._shorthand(this.supportedMethods, path, a, b) }

  /** The methods routes may use, as Fastify 5's supportedMethods: those without a parsed body first. */
  get supportedMethods () {
    const core = this._core
    return [...core.bodylessMethods, ...core.bodyMethods]
  }

  /** @param {string} method @param {{ hasBody?: boolean, overrideExisting?: boolean }} [options] */
  addHttpMethod (method, { hasBody = false, overrideExisting = false } = {}) {
    return addHttpMethod(this, method, hasBody, overrideExisting)
  }

  /** @param {{ method?: string, url?: string, constraints?: Record<string, unknown> }} options */
  findRoute (options) {
    return findRoute(this, options)
  }

  /** @param {{ method?: string, url?: string, constraints?: Record<string, unknown> }} options */
  hasRoute (options) {
    return hasRoute(this, options)
  }

  /**
   * @param {{ name: string, storage: Function, deriveConstraint: Function, validate?: Function, mustMatchWhenDerived?: boolean }} strategy
   */
  addConstraintStrategy (strategy) {
    return addConstraintStrategy(this, strategy)
  }

  /**
   * Whether routes may use a constraint of this name: one the app added,
   * or host or version once a route uses it, as Fastify's
   * hasConstraintStrategy.
   * @param {string} name
   */
  hasConstraintStrategy (name) {
    return this._core.routes.hasConstraintStrategy(name)
  }

  /**
   * @param {{ method?: string, commonPrefix?: boolean, includeMeta?: boolean | (string | symbol)[], includeHooks?: boolean }} [options]
   */
  printRoutes (options = {}) {
    return printRoutes(this, options)
  }

  // --- hooks, handlers, parsers --------------------------------------------

  /** @param {string} name @param {Function} fn */
  addHook (name, fn) {
    return addHook(this, name, fn)
  }

  /**
   * The error handler in force in this context: the nearest setErrorHandler()
   * up the plugin chain, else the default (Fastify's fastify.errorHandler).
   * A route's own `errorHandler` calls it to hand an error on, as
   * @fastify/static's does; what it sends goes down the chain as usual.
   * @returns {Function}
   */
  get errorHandler () {
    const chain = this._ctx.errorHandlerChain()
    return chain.length > 0 ? chain[0].fn : defaultErrorHandler
  }

  /** @param {Function} fn */
  setErrorHandler (fn) {
    return setErrorHandler(this, fn)
  }

  /** @param {(raw: import('node:http').IncomingMessage) => string} fn */
  setGenReqId (fn) {
    return setGenReqId(this, fn)
  }

  /** The function this context's request ids come from (the requestIdHeader in front of it). */
  get genReqId () {
    return this._ctx.findUp('genReqId') ?? this._core.genReqId
  }

  /**
   * @param {(this: any, logger: any, bindings: Record<string, unknown>, options: Record<string, unknown>, raw: import('node:http').IncomingMessage) => any} factory
   */
  setChildLoggerFactory (factory) {
    return setChildLoggerFactory(this, factory)
  }

  /** The factory this context's request loggers are made by: the one set, else a child with the request id. */
  get childLoggerFactory () {
    return this._ctx.findUp('childLoggerFactory') ?? defaultChildLoggerFactory
  }

  /** @param {Function} compile */
  setValidatorCompiler (compile) {
    return setValidatorCompiler(this, compile)
  }

  /**
   * The validator compiler this scope's routes use: setValidatorCompiler's,
   * or hotpath's, built at ready() for the routes that need it (undefined
   * until then).
   */
  get validatorCompiler () {
    return this._ctx.schemaController.getValidatorCompiler()
  }

  /** The serializer compiler this scope's routes use (see validatorCompiler). */
  get serializerCompiler () {
    return this._ctx.schemaController.getSerializerCompiler()
  }

  /**
   * @param {{ bucket?: Function, compilersFactory?: { buildValidator?: Function, buildSerializer?: Function } }} options
   */
  setSchemaController (options) {
    return setSchemaController(this, options)
  }

  /** @param {(errors: any[], part: string) => Error} formatter */
  setSchemaErrorFormatter (formatter) {
    return setSchemaErrorFormatter(this, formatter)
  }

  /** @param {Function} compile */
  setSerializerCompiler (compile) {
    return setSerializerCompiler(this, compile)
  }

  /** @param {(payload: any, statusCode: number) => string} fn */
  setReplySerializer (fn) {
    return setReplySerializer(this, fn)
  }

  /** @param {any} opts @param {Function} [fn] */
  setNotFoundHandler (opts, fn) {
    return setNotFoundHandler(this, opts, fn)
  }

  /** @param {string | RegExp | readonly (string | RegExp)[]} type @param {any} opts @param {Function} [fn] */
  addContentTypeParser (type, opts, fn) {
    return addContentTypeParser(this, type, opts, fn)
  }

  /** @param {string | RegExp} type */
  hasContentTypeParser (type) {
    return hasContentTypeParser(this, type)
  }

  /** @param {string | RegExp | readonly (string | RegExp)[]} type */
  removeContentTypeParser (type) {
    return removeContentTypeParser(this, type)
  }

  removeAllContentTypeParsers () {
    return removeAllContentTypeParsers(this)
  }

  /**
   * @param {'error' | 'remove' | 'ignore'} [onProtoPoisoning]
   * @param {'error' | 'remove' | 'ignore'} [onConstructorPoisoning]
   */
  getDefaultJsonParser (onProtoPoisoning = 'error', onConstructorPoisoning = 'error') {
    return getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning)
  }

  /** The built-in text/plain parser (the body as it is), to register for another content type. */
  get defaultTextParser () {
    return defaultTextParser
  }

  /** @param {...any} args */
  use (...args) {
    return use(this, args)
  }

  // --- shared schemas ------------------------------------------------------

  /** @param {any} schema */
  addSchema (schema) {
    return addSchema(this, schema)
  }

  /** The shared schemas this context sees, by $id (the bucket's answer). */
  getSchemas () {
    return this._ctx.schemaController.getSchemas()
  }

  /** @param {string} id */
  getSchema (id) {
    return this._ctx.schemaController.getSchema(id)
  }

  // --- decorators ------------------------------------------------------------

  /** @param {string | symbol} name @param {unknown} value @param {(string | symbol)[]} [dependencies] */
  decorate (name, value, dependencies) {
    return decorate(this, Hotpath.prototype, name, value, dependencies)
  }

  /** @param {string | symbol} name @param {unknown} value @param {(string | symbol)[]} [dependencies] */
  decorateRequest (name, value, dependencies) {
    return decorateRequest(this, name, value, dependencies)
  }

  /** @param {string | symbol} name @param {unknown} value @param {(string | symbol)[]} [dependencies] */
  decorateReply (name, value, dependencies) {
    return decorateReply(this, name, value, dependencies)
  }

  /** @param {string | symbol} name */
  hasDecorator (name) {
    return name in this
  }

  /**
   * The value of a decorator this instance sees (a function comes bound to
   * the instance); an undeclared one throws, where reading it would give
   * undefined.
   * @param {string | symbol} name
   */
  getDecorator (name) {
    if (!(name in this)) throw this._core.error('HP_ERR_DEC_UNDECLARED', String(name), 'instance')
    const value = /** @type {any} */ (this)[name]
    return typeof value === 'function' ? value.bind(this) : value
  }

  /**
   * A decorator of this context or its parents, or a member every request
   * has (raw, params, body…), which Fastify counts as decorated too: it
   * cannot be decorated again and may be a decorator's dependency.
   * @param {string | symbol} name
   */
  hasRequestDecorator (name) {
    return (typeof name === 'string' && RESERVED_REQUEST.has(name)) || this._ctx.hasDecorator('requestDecorators', name)
  }

  /**
   * A decorator of this context or its parents, or a member every reply has.
   * @param {string | symbol} name
   */
  hasReplyDecorator (name) {
    return (typeof name === 'string' && RESERVED_REPLY.has(name)) || this._ctx.hasDecorator('replyDecorators', name)
  }

  // --- plugins ---------------------------------------------------------------

  /**
   * @param {Function | { default: Function } | PromiseLike<unknown>} fn
   * @param {Record<string, any> | ((instance: any) => Record<string, any>)} [opts]
   */
  register (fn, opts = {}) {
    return register(this, fn, opts)
  }

  /** @param {string} name */
  hasPlugin (name) {
    return hasPlugin(this, name)
  }

  get pluginName () {
    return pluginName(this)
  }

  printPlugins () {
    return printPlugins(this)
  }

  /**
   * The declared names of the plugins registered in this scope and its
   * parents, under the key Fastify keeps them (`Symbol.for` makes it every
   * copy's: plugins and their tests read it). A copy: hasPlugin() is the
   * way to ask.
   */
  get [kRegisteredPlugins] () {
    /** @type {string[]} */
    const names = []
    for (let c = /** @type {import('./context.js').Context | null} */ (this._ctx); c !== null; c = c.parent) names.unshift(...c.registeredPlugins)
    return names
  }

  /** @param {Function} [fn] */
  after (fn) {
    return after(this, fn)
  }

  /**
   * onClose(fn): fn runs when the app closes, as an onClose hook; Fastify's
   * instance has it from its plugin loader (avvio), and its own
   * addHook('onClose') goes through it. @fastify/reply-from uses it.
   * @param {Function} fn
   */
  onClose (fn) {
    return this.addHook('onClose', fn)
  }

  /**
   * @returns {((resolve: (app: this) => unknown, reject?: (err: unknown) => unknown) => Promise<unknown>) | undefined}
   */
  get then () {
    return thenOf(this)
  }

  // --- lifecycle -------------------------------------------------------------

  /**
   * ready() is a promise of the instance; ready(cb) calls cb(err) instead,
   * as in Fastify.
   * @param {(err: Error | null) => void} [callback]
   * @returns {Promise<this>}
   */
  ready (callback) {
    const core = this._core
    // ready(cb) from a plugin while the plugins load: cb(err) once they
    // all have, before the onReady hooks, as avvio calls it
    if (typeof callback === 'function' && core.loading) {
      core.readyCallbacks.push({ instance: this, fn: callback })
      return /** @type {Promise<this>} */ (/** @type {unknown} */ (undefined))
    }
    if (core.readyPromise === null) core.readyPromise = doReady(core)
    const ready = core.readyPromise.then(() => this)
    if (typeof callback === 'function') settleInOrder(ready, callback, this)
    return ready
  }

  /**
   * @param {ListenOptions | ((err: Error | null, address?: string | null) => void)} [opts]
   * @param {(err: Error | null, address?: string | null) => void} [callback]
   * @returns {Promise<string | undefined>}
   */
  listen (opts = {}, callback) {
    return listen(this, opts, callback)
  }

  /** @param {ListenOptions} opts @param {{ aborted: boolean }} state */
  _listen (opts, state) {
    return listenNow(this, opts, state)
  }

  /** The origin the server listens at (`http://127.0.0.1:3000`), or its socket path. */
  get listeningOrigin () {
    const address = this._core.address
    if (address === null) return undefined
    if (typeof address === 'string') return address
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    return `${this._core.engineOptions.https ? 'https' : 'http'}://${host}:${address.port}`
  }

  /** @param {(err?: Error) => void} [callback] @returns {Promise<void>} */
  close (callback) {
    return close(this, callback)
  }

  /**
   * Fastify's withTypeProvider(): the app itself. Request and reply types
   * come from the provider the program imports (hotpath/typebox, ...:
   * docs/typescript.md); this keeps `Fastify().withTypeProvider<P>()` working.
   */
  withTypeProvider () {
    return this
  }

  /**
   * Dispatches a request/response pair made elsewhere (an 'upgrade'
   * listener's request and a ServerResponse on its socket) through the
   * routes, hooks and handlers, as Fastify's `routing` does. After ready().
   * @param {any} req  an IncomingMessage, an engine's request, or a plain object with method, url and headers
   * @param {import('node:http').ServerResponse} res
   */
  routing (req, res) {
    const core = this._core
    const handler = core.handler
    if (handler === null) throw createError('HP_ERR_NOT_READY')
    // once close() has begun, a request routed here (@fastify/websocket's
    // upgrade requests) is refused as the engines refuse one that arrives
    // then (return503OnClosing, not with drain), as Fastify's routing does
    const options = core.engineOptions
    if (core.closing && options.return503OnClosing !== false && options.drain !== true && typeof res?.writeHead === 'function') {
      const answer = options.closingAnswer ?? closingAnswer(false)
      res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': Buffer.byteLength(answer.body), connection: 'close' })
      res.end(answer.body)
      if (options.onClosingRefusal !== undefined) options.onClosingRefusal()
      return
    }
    handler(foreignRequest(req), foreignResponse(res))
  }

  /**
   * Runs one request through the app without a socket (the inject engine),
   * as light-my-request runs it for Fastify: given a callback,
   * callback(err, res); else a chain that starts from the options given,
   * sent by end(), by awaiting it, or on the next tick
   * (`app.inject().get('/').headers({...}).end()`).
   * @param {any} [options]  an options object, or the URL
   * @param {(err: Error | null, res?: any) => void} [callback]
   * @returns {any}
   */
  inject (options, callback) {
    if (typeof options === 'string') options = { url: options }
    // options light-my-request refuses (a method no HTTP parser would hand
    // the app, a missing URL) are refused at the call, callback or not
    if (options !== undefined) checkInjectOptions(options)
    // without a callback, a chain that starts from the options given, as
    // light-my-request's (Fastify's inject()), sent on the next tick
    if (typeof callback !== 'function') return new InjectChain((/** @type {any} */ opts, /** @type {any} */ cb) => injectNow(this, opts, cb), options)
    return injectNow(this, options, callback)
  }
}

// `await using app = hotpath()` closes the app at the end of the block, as
// Fastify's [Symbol.asyncDispose] does (where the runtime has the symbol).
if (typeof Symbol.asyncDispose === 'symbol') {
  Object.defineProperty(Hotpath.prototype, Symbol.asyncDispose, {
    value: /** @this {Hotpath} */ function dispose () { return this.close() },
    writable: true,
    configurable: true
  })
}
