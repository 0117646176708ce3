// The app: options, registration (routes, hooks, decorators, plugins with
// encapsulation), and ready/listen/close. Per-request work lives in
// pipeline.js; everything here runs at start-up.
import FindMyWay from 'find-my-way'
import { Context } from './context.js'
import { Route } from './route.js'
import { APP_HOOKS, REQUEST_HOOKS } from './hooks.js'
import { createError } from './errors.js'
import { createLogger } from './logger.js'
import { compileTrust } from './proxy.js'
import { SchemaCompiler } from './schema.js'
import { dispatch } from './pipeline.js'
import { timeoutReply } from './finish.js'
import { middlewareHook } from './middleware.js'
import { createEngine, DEFAULT_ENGINE, isEngineName } from './engines/index.js'
import { createNodeEngine } from './engines/node.js'
import { inject } from './inject.js'
import { kPlugin } from './plugin.js'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const RESERVED_REQUEST = new Set(['raw', 'params', 'body', 'headers', 'method', 'url', 'route', 'reply', 'path', 'querystring', 'query', 'id', 'log', 'ip', 'ips', 'hostname', 'protocol', 'signal', 'routeOptions'])
const RESERVED_REPLY = new Set(['raw', 'request', 'route', 'engine', 'statusCode', 'sent', 'code', 'status', 'header', 'headers', 'getHeader', 'hasHeader', 'removeHeader', 'getHeaders', 'type', 'send', 'redirect', 'hijack', 'elapsedTime'])

const DEFAULTS = {
  bodyLimit: 1024 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
  maxParamLength: 100
}

function noop () {}

/** The state one app shares across all its contexts. */
export class Core {
  /** @param {Record<string, any>} options */
  constructor (options) {
    for (const key of ['bodyLimit', 'headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'maxHeaderSize', 'maxParamLength']) {
      const v = options[key]
      if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw createError('HP_ERR_INVALID_OPTION', key, 'expected a non-negative integer')
    }
    const engineName = options.engine ?? DEFAULT_ENGINE
    if (!isEngineName(engineName)) throw createError('HP_ERR_UNKNOWN_ENGINE', String(engineName))
    if (options.genReqId !== undefined && typeof options.genReqId !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'genReqId', 'expected a function')
    this.engineName = engineName
    this.bodyLimit = options.bodyLimit ?? DEFAULTS.bodyLimit
    this.requestTimeout = options.requestTimeout ?? DEFAULTS.requestTimeout
    /** @type {import('./engines/engine.js').EngineOptions} */
    this.engineOptions = {
      https: options.https,
      headersTimeout: options.headersTimeout ?? DEFAULTS.headersTimeout,
      requestTimeout: this.requestTimeout,
      keepAliveTimeout: options.keepAliveTimeout ?? DEFAULTS.keepAliveTimeout,
      maxHeaderSize: options.maxHeaderSize ?? DEFAULTS.maxHeaderSize
    }
    this.logger = createLogger(options.logger)
    let counter = 0
    /** @type {(raw: any) => string} */
    this.genReqId = options.genReqId ?? (() => 'req-' + (++counter).toString(36))
    this.trustProxy = compileTrust(options.trustProxy)
    this.router = FindMyWay({
      caseSensitive: options.caseSensitive ?? true,
      ignoreTrailingSlash: options.ignoreTrailingSlash ?? false,
      maxParamLength: options.maxParamLength ?? DEFAULTS.maxParamLength,
      // The query is parsed lazily by req.query, never by the router.
      querystringParser: /** @type {any} */ (noop),
      onBadUrl: noop
    })
    /** @type {Route[]} */
    this.routes = []
    /** path → method → route, for paths with no parameter or escape @type {Map<string, Record<string, Route>>} */
    this.staticRoutes = new Map()
    /** @type {Set<string>} */
    this.routeKeys = new Set()
    /** @type {{ prefix: string, route: Route }[]} */
    this.notFoundRoutes = []
    this.root = new Context(null, '')
    /** @type {Context[]} every context, root first */
    this.allContexts = [this.root]
    /** @type {import('./engines/engine.js').Engine | null} */
    this.engine = engineName === 'node' ? createNodeEngine(this.engineOptions) : null
    /** @type {import('./engines/engine.js').Engine | null} */
    this.injectEngine = null
    /** @type {Promise<void> | null} */
    this.readyPromise = null
    /** routes, hooks and decorators can no longer be added */
    this.locked = false
    this.isReady = false
    /** @type {Record<string, Function[]>} */
    this.appHooks = { onReady: [], onListen: [], preClose: [], onClose: [] }
    /** @type {Promise<void> | null} */
    this.closePromise = null
    /** @type {SchemaCompiler | null} */
    this._schemaCompiler = null
    /** @type {import('node:net').AddressInfo | null} */
    this.address = null
    // In-flight requests not answered synchronously, in a doubly linked
    // list through the replies themselves (oldest first), swept on a coarse
    // clock: a tick counter, so tracking costs no Date.now(), no hashing
    // and no allocation per request (a Set cost ~60-100 ns per async
    // request in a micro-benchmark; the list a few pointer writes).
    /** @type {import('./reply.js').Reply | null} */
    this.oldest = null
    /** @type {import('./reply.js').Reply | null} */
    this.newest = null
    this.tick = 0
    this.tickMs = Math.min(1000, Math.max(10, Math.ceil(this.requestTimeout / 10)))
    this.timeoutTicks = Math.ceil(this.requestTimeout / this.tickMs)
    /** @type {NodeJS.Timeout | null} */
    this.sweeper = null
  }

  schemaCompiler () {
    return (this._schemaCompiler ??= new SchemaCompiler())
  }

  /** @param {import('./reply.js').Reply} reply */
  track (reply) {
    if (this.requestTimeout === 0) return
    reply._tracked = true
    reply._since = this.tick
    const newest = this.newest
    reply._older = newest
    reply._newer = null
    if (newest === null) {
      this.oldest = reply
      // While something waits, the sweeper keeps the process alive (inject
      // has no server to do it); when nothing does, it must not.
      if (this.sweeper !== null) this.sweeper.ref()
    } else {
      newest._newer = reply
    }
    this.newest = reply
  }

  /** @param {import('./reply.js').Reply} reply */
  untrack (reply) {
    reply._tracked = false
    const older = reply._older
    const newer = reply._newer
    if (older === null) this.oldest = newer
    else older._newer = newer
    if (newer === null) this.newest = older
    else newer._older = older
    reply._older = null
    reply._newer = null
    if (this.oldest === null && this.sweeper !== null) this.sweeper.unref()
  }

  sweep () {
    const tick = ++this.tick
    // Oldest first: stop at the first request still within its time.
    let reply = this.oldest
    while (reply !== null && tick - reply._since > this.timeoutTicks) {
      const next = reply._newer
      this.untrack(reply)
      timeoutReply(reply, this.requestTimeout)
      if (!reply._done && !reply._tracked) this.track(reply) // an error handler still running gets one more period
      reply = next
    }
  }

  /** @param {string} url */
  notFoundRoute (url) {
    for (const entry of this.notFoundRoutes) {
      const p = entry.prefix
      if (p === '' || (url.startsWith(p) && (url.length === p.length || url[p.length] === '/' || url[p.length] === '?'))) return entry.route
    }
    return this.notFoundRoutes[this.notFoundRoutes.length - 1].route
  }
}

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
    return this._core.logger ?? /** @type {any} */ (noopLog)
  }

  get prefix () {
    return this._ctx.prefix
  }

  addresses () {
    return this._core.address === null ? [] : [this._core.address]
  }

  // --- routes -------------------------------------------------------------

  /** @param {Record<string, any>} options */
  route (options) {
    const core = this._core
    if (options === null || typeof options !== 'object') throw createError('HP_ERR_INVALID_ROUTE', 'route() expects an options object')
    const methods = (Array.isArray(options.method) ? options.method : [options.method]).map((m) => typeof m === 'string' ? m.toUpperCase() : m)
    if (core.locked) throw createError('HP_ERR_ROUTE_AFTER_READY', methods.join(','), String(options.url))
    if (typeof options.url !== 'string' || (options.url !== '' && options.url[0] !== '/' && options.url[0] !== '*')) throw createError('HP_ERR_INVALID_ROUTE', `url must be a path starting with '/', got ${JSON.stringify(options.url)}`)
    if (typeof options.handler !== 'function') throw createError('HP_ERR_INVALID_ROUTE', `${methods.join(',')} ${options.url} has no handler function`)
    for (const m of methods) {
      if (typeof m !== 'string' || !/^[A-Z]+$/.test(m)) throw createError('HP_ERR_INVALID_ROUTE', `unknown method ${JSON.stringify(m)}`)
    }
    for (const name of REQUEST_HOOKS) {
      const h = options[name]
      if (h !== undefined && !(typeof h === 'function' || (Array.isArray(h) && h.every((f) => typeof f === 'function')))) {
        throw createError('HP_ERR_INVALID_HOOK', name, 'expected a function or an array of functions')
      }
    }
    const ctx = this._ctx
    const prefix = ctx.prefix
    /** @type {Record<string, any>} */
    const routeOptions = { ...options, method: methods.length === 1 ? methods[0] : methods, url: joinPath(prefix, options.url), prefix }
    for (const c of ctx.chain()) for (const hook of c.onRoute) hook.call(this, routeOptions)
    const url = routeOptions.url
    // '/' inside a prefix answers both '/v1' and '/v1/'.
    const paths = options.url === '/' && prefix !== '' ? [prefix, prefix + '/'] : [url === '' ? '/' : url]
    for (const method of methods) {
      const route = new Route(core, ctx, this, routeOptions, method, url, routeOptions.handler)
      for (const path of paths) {
        const key = `${method} ${path}`
        if (core.routeKeys.has(key)) throw createError('HP_ERR_DUPLICATE_ROUTE', method, path)
        try {
          core.router.on(method, path, noop, route)
        } catch (err) {
          throw createError('HP_ERR_INVALID_ROUTE', `${method} ${path}: ${/** @type {Error} */ (err).message}`)
        }
        core.routeKeys.add(key)
      }
      route.paths = paths
      core.routes.push(route)
    }
    return this
  }

  /**
   * @param {string[]} methods
   * @param {string} path
   * @param {any} a
   * @param {any} [b]
   */
  _shorthand (methods, path, a, b) {
    const options = typeof a === 'function' ? { handler: a } : { ...a, handler: b ?? a?.handler }
    return this.route({ ...options, method: methods, url: path })
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
  all (path, a, b) { return this._shorthand(METHODS, path, a, b) }

  // --- hooks, handlers, parsers --------------------------------------------

  /**
   * @param {string} name
   * @param {Function} fn
   */
  addHook (name, fn) {
    if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_HOOK', name, 'the hook must be a function')
    if (this._core.locked) throw createError('HP_ERR_HOOK_AFTER_READY', name)
    const ctx = this._ctx
    if (/** @type {readonly string[]} */ (REQUEST_HOOKS).includes(name)) {
      ctx.hooks[name].push(fn)
    } else if (name === 'onRoute') {
      ctx.onRoute.push(fn)
    } else if (name === 'onRegister') {
      ctx.onRegister.push(fn)
    } else if (/** @type {readonly string[]} */ (APP_HOOKS).includes(name)) {
      const instance = this
      this._core.appHooks[name].push(function () { return fn.call(instance, instance) })
    } else {
      throw createError('HP_ERR_INVALID_HOOK', name, 'unknown hook name')
    }
    return this
  }

  /** @param {Function} fn */
  setErrorHandler (fn) {
    if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setErrorHandler', 'expected a function')
    if (this._core.locked) throw createError('HP_ERR_HOOK_AFTER_READY', 'errorHandler')
    this._ctx.errorHandler = fn
    return this
  }

  /** @param {Function} fn */
  setNotFoundHandler (fn) {
    if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setNotFoundHandler', 'expected a function')
    if (this._core.locked) throw createError('HP_ERR_HOOK_AFTER_READY', 'notFoundHandler')
    this._ctx.notFoundHandler = fn
    return this
  }

  /**
   * @param {string | readonly string[]} type
   * @param {any} opts
   * @param {Function} [fn]
   */
  addContentTypeParser (type, opts, fn) {
    if (this._core.locked) throw createError('HP_ERR_HOOK_AFTER_READY', 'contentTypeParser')
    if (typeof opts === 'function') {
      fn = opts
      opts = {}
    }
    this._ctx.ownParsers().add(type, opts, /** @type {any} */ (fn))
    return this
  }

  /** @param {(req: any, res: any, next: (err?: unknown) => void) => void} mw */
  use (mw) {
    if (typeof mw !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'use', 'expected (req, res, next) middleware')
    return this.addHook('onRequest', middlewareHook(mw))
  }

  // --- decorators ------------------------------------------------------------

  /** @param {string} name @param {unknown} value */
  decorate (name, value) {
    if (this._core.locked) throw createError('HP_ERR_DEC_AFTER_READY', name)
    if (name in this) throw createError('HP_ERR_DEC_ALREADY_PRESENT', name)
    ;/** @type {any} */ (this)[name] = value
    return this
  }

  /** @param {string} name @param {unknown} value */
  decorateRequest (name, value) {
    return this._decorateObject('requestDecorators', RESERVED_REQUEST, name, value)
  }

  /** @param {string} name @param {unknown} value */
  decorateReply (name, value) {
    return this._decorateObject('replyDecorators', RESERVED_REPLY, name, value)
  }

  /**
   * @param {'requestDecorators' | 'replyDecorators'} kind
   * @param {Set<string>} reserved
   * @param {string} name
   * @param {unknown} value
   */
  _decorateObject (kind, reserved, name, value) {
    if (this._core.locked) throw createError('HP_ERR_DEC_AFTER_READY', name)
    if (reserved.has(name) || name.startsWith('_') || this._ctx.hasDecorator(kind, name)) throw createError('HP_ERR_DEC_ALREADY_PRESENT', name)
    this._ctx[kind].set(name, value)
    return this
  }

  /** @param {string} name */
  hasDecorator (name) {
    return name in this
  }

  /** @param {string} name */
  hasRequestDecorator (name) {
    return this._ctx.hasDecorator('requestDecorators', name)
  }

  /** @param {string} name */
  hasReplyDecorator (name) {
    return this._ctx.hasDecorator('replyDecorators', name)
  }

  // --- plugins ---------------------------------------------------------------

  /**
   * Queues a plugin; it loads at ready(), or when the returned value is
   * awaited (with everything queued before it).
   * @param {Function | { default: Function }} fn
   * @param {Record<string, any>} [opts]
   */
  register (fn, opts = {}) {
    if (this._core.locked) throw createError('HP_ERR_REGISTER_AFTER_READY')
    const pluginFn = typeof fn === 'function' ? fn : fn?.default
    if (typeof pluginFn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'register', 'expected a plugin function')
    this._ctx.pending.push({ fn: pluginFn, opts: opts ?? {}, instance: this })
    // The result is this instance plus then(): chainable and awaitable,
    // while the instance itself stays non-thenable.
    const self = this
    const thenable = Object.create(this)
    thenable.then = (/** @type {any} */ onFulfilled, /** @type {any} */ onRejected) =>
      loadPlugins(self._core, self._ctx).then(onFulfilled, onRejected)
    return thenable
  }

  // --- lifecycle -------------------------------------------------------------

  /** @returns {Promise<this>} */
  ready () {
    const core = this._core
    if (core.readyPromise === null) core.readyPromise = doReady(core)
    return core.readyPromise.then(() => this)
  }

  /**
   * @param {{ port?: number, host?: string, backlog?: number }} [opts]
   * @returns {Promise<string>}
   */
  async listen (opts = {}) {
    await this.ready()
    const core = this._core
    if (core.address !== null) throw createError('HP_ERR_ALREADY_LISTENING')
    const engine = /** @type {import('./engines/engine.js').Engine} */ (core.engine)
    const address = await engine.listen(opts)
    core.address = address
    for (const hook of core.appHooks.onListen) await hook()
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    const scheme = core.engineOptions.https ? 'https' : 'http'
    return `${scheme}://${host}:${address.port}`
  }

  /** @returns {Promise<void>} */
  close () {
    const core = this._core
    if (core.closePromise === null) core.closePromise = doClose(core)
    return core.closePromise
  }

  /** @param {any} options */
  inject (options) {
    return inject(this, this._core, options)
  }
}

const noopLog = createLogger(false)

/**
 * @param {string} prefix
 * @param {string} url
 */
function joinPath (prefix, url) {
  if (prefix === '') return url
  if (url === '/' || url === '') return prefix
  return prefix + url
}

/** @param {unknown} prefix */
function normalizePrefix (prefix) {
  if (prefix === undefined || prefix === null || prefix === '' || prefix === '/') return ''
  if (typeof prefix !== 'string') throw createError('HP_ERR_INVALID_OPTION', 'prefix', 'expected a string')
  let p = prefix[0] === '/' ? prefix : '/' + prefix
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1)
  return p
}

/**
 * Loads a context's queued plugins in order. A plugin that awaits its own
 * register() calls loads them on the spot (nested drain).
 * @param {Core} core
 * @param {Context} ctx
 */
async function loadPlugins (core, ctx) {
  if (ctx.draining) return drain(core, ctx)
  ctx.draining = true
  try {
    await drain(core, ctx)
  } finally {
    ctx.draining = false
  }
}

/**
 * @param {Core} core
 * @param {Context} ctx
 */
async function drain (core, ctx) {
  while (ctx.pending.length > 0) {
    const item = /** @type {import('./context.js').PendingPlugin} */ (ctx.pending.shift())
    await loadPlugin(core, ctx, item)
  }
}

/**
 * @param {Core} core
 * @param {Context} parentCtx
 * @param {import('./context.js').PendingPlugin} item
 */
async function loadPlugin (core, parentCtx, item) {
  const { prefix, ...pluginOpts } = item.opts
  let ctx = parentCtx
  let instance = item.instance
  if (/** @type {any} */ (item.fn)[kPlugin] === undefined) {
    ctx = new Context(parentCtx, parentCtx.prefix + normalizePrefix(prefix))
    instance = Object.create(item.instance)
    instance._ctx = ctx
    ctx.instance = instance
    core.allContexts.push(ctx)
    for (const c of ctx.chain()) for (const hook of c.onRegister) await hook(instance, item.opts)
  }
  await item.fn(instance, pluginOpts)
  await loadPlugins(core, ctx)
}

/** @param {Core} core */
async function doReady (core) {
  await loadPlugins(core, core.root)
  core.locked = true
  if (core.engine === null) core.engine = await createEngine(core.engineName, core.engineOptions)
  const router = core.router
  // HEAD is answered for every GET route that has no HEAD route of its own.
  /** @type {Map<string, Route>} */
  const autoHead = new Map()
  for (const route of core.routes) {
    if (route.method !== 'GET') continue
    for (const path of route.paths) {
      const key = `HEAD ${path}`
      if (core.routeKeys.has(key)) continue
      router.on('HEAD', path, noop, route)
      core.routeKeys.add(key)
      autoHead.set(path, route)
    }
  }
  for (const route of core.routes) route.compile()
  // The static-path table (see dispatch): only paths the router would match
  // exactly as written.
  for (const route of core.routes) {
    for (const path of route.paths) {
      if (/[:*%(]/.test(path)) continue
      addStatic(core, route.method, path, route)
    }
  }
  for (const [path, route] of autoHead) if (!/[:*%(]/.test(path)) addStatic(core, 'HEAD', path, route)
  // Not-found routes: one per context with a handler, deepest prefix first.
  /** @type {Context[]} */
  const contexts = []
  collectContexts(core, contexts)
  for (const ctx of contexts) {
    if (ctx.notFoundHandler === null && ctx !== core.root) continue
    const handler = ctx.notFoundHandler ?? defaultNotFound
    const route = new Route(core, ctx, ctx.instance, { url: '*', method: '*' }, '*', '*', handler)
    route.compile()
    route.parseBody = false
    core.notFoundRoutes.push({ prefix: ctx.prefix, route })
  }
  core.notFoundRoutes.sort((a, b) => b.prefix.length - a.prefix.length)
  const engine = core.engine
  engine.setHandler((raw, res) => dispatch(core, engine, raw, res))
  if (core.requestTimeout > 0) {
    core.sweeper = setInterval(() => core.sweep(), core.tickMs)
    core.sweeper.unref()
  }
  for (const hook of core.appHooks.onReady) await hook()
  core.isReady = true
}

/**
 * @param {Core} core
 * @param {string} method
 * @param {string} path
 * @param {Route} route
 */
function addStatic (core, method, path, route) {
  let entry = core.staticRoutes.get(path)
  if (entry === undefined) {
    entry = Object.create(null)
    core.staticRoutes.set(path, /** @type {Record<string, Route>} */ (entry))
  }
  /** @type {Record<string, Route>} */ (entry)[method] = route
}

/**
 * Contexts reachable from routes and plugin registration.
 * @param {Core} core
 * @param {Context[]} out
 */
function collectContexts (core, out) {
  out.push(...core.allContexts)
}

/**
 * @param {import('./request.js').Request} req
 */
function defaultNotFound (req) {
  throw createError('HP_ERR_NOT_FOUND', req.method, req.path)
}

/** @param {Core} core */
async function doClose (core) {
  for (const hook of core.appHooks.preClose) await hook()
  if (core.engine !== null) await core.engine.close()
  if (core.sweeper !== null) clearInterval(core.sweeper)
  core.sweeper = null
  for (const hook of core.appHooks.onClose) await hook()
}
