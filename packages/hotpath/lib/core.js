// The state one app shares across all its contexts: options, router,
// routes, engine, logger, and the in-flight request list the request
// timeout sweeps.
import { loadModule } from './require.js'
import { Context } from './context.js'
import { createError } from './errors.js'
import { createLogger } from './logger.js'
import { compileTrust } from './proxy.js'
import { SchemaCompiler } from './schema.js'
import { timeoutReply } from './finish.js'
import { DEFAULT_ENGINE, createEngine, isEngineName } from './engines/index.js'
import { LoadMonitor } from './load.js'

/** @type {typeof import('find-my-way')} */
const FindMyWay = loadModule('find-my-way')

/** @typedef {import('./route.js').Route} Route */

const DEFAULTS = {
  bodyLimit: 1024 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
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
  jsonDepthLimit: 64
}

function noop () {}

export class Core {
  /** @param {Record<string, any>} options */
  constructor (options) {
    for (const key of ['bodyLimit', 'headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'maxHeaderSize', 'maxParamLength', 'closeGraceTimeout']) {
      const v = options[key]
      if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw createError('HP_ERR_INVALID_OPTION', key, 'expected a non-negative integer')
    }
    const depth = options.jsonDepthLimit
    if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1)) throw createError('HP_ERR_INVALID_OPTION', 'jsonDepthLimit', 'expected a positive integer')
    const engineName = options.engine ?? DEFAULT_ENGINE
    if (!isEngineName(engineName)) throw createError('HP_ERR_UNKNOWN_ENGINE', String(engineName))
    if (options.genReqId !== undefined && typeof options.genReqId !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'genReqId', 'expected a function')
    this.engineName = engineName
    this.bodyLimit = options.bodyLimit ?? DEFAULTS.bodyLimit
    /** nesting of arrays and objects a JSON body may have */
    this.jsonDepthLimit = depth ?? DEFAULTS.jsonDepthLimit
    this.requestTimeout = options.requestTimeout ?? DEFAULTS.requestTimeout
    /** @type {import('./engines/engine.js').EngineOptions} */
    this.engineOptions = {
      https: options.https,
      headersTimeout: options.headersTimeout ?? DEFAULTS.headersTimeout,
      requestTimeout: this.requestTimeout,
      keepAliveTimeout: options.keepAliveTimeout ?? DEFAULTS.keepAliveTimeout,
      maxHeaderSize: options.maxHeaderSize ?? DEFAULTS.maxHeaderSize,
      closeGraceTimeout: options.closeGraceTimeout ?? DEFAULTS.closeGraceTimeout
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
    // Created now, so app.server exists before listen(), as in Fastify.
    /** @type {import('./engines/engine.js').Engine} */
    this.engine = createEngine(engineName, this.engineOptions)
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
    /** set by the load monitor; read once per request by dispatch */
    this.overloaded = false
    /** @type {LoadMonitor | null} */
    this.loadMonitor = null
    const monitor = new LoadMonitor(this, options.load)
    if (monitor.enabled) this.loadMonitor = monitor
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
