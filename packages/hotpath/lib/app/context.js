// A plugin scope. Each register() that is not plugin()-wrapped opens a child
// context: hooks, decorators, parsers and handlers added there apply to its
// routes and its children only. At ready(), each context that added request
// or reply decorators gets its own subclass of its parent's Request/Reply,
// with the decorators on the prototype, so a decorator costs nothing per
// request.
import { REQUEST_HOOKS } from '../lifecycle/hook-names.js'
import { Request } from '../lifecycle/request.js'
import { Reply } from '../reply/reply.js'
import { ParserTable } from '../lifecycle/parsers/table.js'
import { SchemaController } from '../routing/schema-controller.js'

/** @typedef {{ fn: Function | PromiseLike<unknown> | { default: Function }, opts: Record<string, any> | ((instance: any) => Record<string, any>), instance: any, after?: Function }} PendingPlugin */
/**
 * A not-found handler, with its own hooks and the context (and instance)
 * that set it, whose hooks run before them.
 * @typedef {{ handler: Function, hooks: Record<string, Function | Function[]>, errorHandler: Function | null, ctx: Context, instance: any }} NotFoundHandler
 */

/** how many request hooks have been added, in every app: the order of the next */
let hooksAdded = 0

export class Context {
  /**
   * @param {Context | null} parent
   * @param {string} prefix
   * @param {string} [routePrefix]
   */
  constructor (parent, prefix, routePrefix = '') {
    this.parent = parent
    this.prefix = prefix
    /**
     * the prefix as Fastify builds it from the register() calls (its
     * `prefix` getter, what onRoute hooks get): the declared ones joined
     * with one '/' between them, a trailing slash kept ('/v1/'). Routes
     * are joined to it as Fastify joins them (routePaths() in routes.js);
     * `prefix` above is the same without a trailing slash, which the
     * not-found routes and middleware mounts go by.
     */
    this.routePrefix = routePrefix
    /** @type {Record<string, Function[]>} */
    this.hooks = {}
    /** @type {Record<string, number[]>} when each of `hooks` was added (see addHook) */
    this.hookOrder = {}
    for (const name of REQUEST_HOOKS) {
      this.hooks[name] = []
      this.hookOrder[name] = []
    }
    /** @type {Function[]} */
    this.onRoute = []
    /** @type {Function[]} */
    this.onRegister = []
    /** @type {(() => unknown)[]} onListen hooks added here, bound to the instance that added them */
    this.onListen = []
    /** @type {(() => unknown)[]} onReady hooks added here, bound to the instance that added them */
    this.onReady = []

    /** @type {Map<string | symbol, unknown>} */
    this.requestDecorators = new Map()
    /** @type {Map<string | symbol, unknown>} */
    this.replyDecorators = new Map()
    /**
     * setErrorHandler's, in the order set: a later one hands what it throws
     * to the one before it, as Fastify chains them.
     * @type {{ fn: Function, instance: any }[]}
     */
    this.errorHandlers = []
    /**
     * The context whose not-found handler this one sets and answers with, as
     * Fastify's 404 levels: a plugin registered with a prefix starts a level
     * of its own (boot.js); one without shares its parent's.
     * @type {Context}
     */
    this.notFoundLevel = notFoundLevelOf(parent, this)
    /** @type {NotFoundHandler | null} setNotFoundHandler's, on a level's context */
    this.notFoundHandler = null
    /**
     * The shared schemas (addSchema) and the compilers of this scope: a
     * child's starts from its parent's as it is made; the root's is set by
     * the app from the schemaController option.
     * @type {SchemaController}
     */
    this.schemaController = parent === null ? /** @type {any} */ (null) : childController(parent)
    /** @type {Function | null} setReplySerializer */
    this.replySerializer = null
    /** @type {Function | null} setSchemaErrorFormatter, or at the root the schemaErrorFormatter option */
    this.schemaErrorFormatter = null
    /** @type {Function | null} setGenReqId's function, the requestIdHeader in front of it (core.requestIdFrom) */
    this.genReqId = null
    /** @type {Function | null} setChildLoggerFactory, or at the root the childLoggerFactory option */
    this.childLoggerFactory = null
    /** @type {string | null} the `logLevel` this context's plugin was registered with */
    this.logLevel = null
    /** @type {Record<string, (value: any) => any> | null} the `logSerializers` this context's plugin was registered with */
    this.logSerializers = null
    /** app.use() was called here: the context answers its unmatched paths itself */
    this.usesMiddleware = false
    /** @type {ParserTable | null} */
    this.parsers = parent === null ? new ParserTable(null) : null
    /** the root's Request class, chosen by the app's options (lifecycle/request.js requestClass) @type {typeof Request} */
    this.baseRequest = Request
    /** @type {typeof Request | null} */
    this.Request = null
    /** @type {typeof Reply | null} */
    this.Reply = null
    /** @type {any} the instance whose methods act on this context */
    this.instance = null
    /**
     * Fastify's plugin name chain (`pluginName`): the name of the plugin
     * that opened this context, then those of the plugin()-wrapped plugins
     * loaded into it, in order
     * @type {string[]}
     */
    this.pluginNames = parent === null ? ['hotpath'] : []
    /** @type {string[]} the declared names (fastify-plugin's) of the plugins loaded here (hasPlugin) */
    this.registeredPlugins = []
    /** @type {PendingPlugin[]} */
    this.pending = []
    this.draining = false
  }

  /**
   * Adds a request hook to this context, numbered by one counter shared by
   * every context so that a route's hooks can be run in the order they were
   * added (routeHooks).
   * @param {string} name
   * @param {Function} fn
   */
  addHook (name, fn) {
    this.hooks[name].push(fn)
    this.hookOrder[name].push(++hooksAdded)
  }

  /**
   * The `name` hooks this context's routes run: its own and its ancestors',
   * in the order they were added. Fastify copies a parent's hooks into a
   * plugin when the plugin loads and appends a hook the parent adds later
   * to every child it has, so a hook the root adds after a plugin has
   * loaded runs after that plugin's own.
   * @param {string} name
   * @returns {Function[]}
   */
  routeHooks (name) {
    /** @type {{ fn: Function, order: number }[]} */
    const all = []
    let sources = 0
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) {
      const fns = c.hooks[name]
      if (fns.length === 0) continue
      sources++
      for (let i = 0; i < fns.length; i++) all.push({ fn: fns[i], order: c.hookOrder[name][i] })
    }
    if (sources > 1) all.sort((a, b) => a.order - b.order)
    return all.map((h) => h.fn)
  }

  /** root first */
  chain () {
    /** @type {Context[]} */
    const out = []
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) out.unshift(c)
    return out
  }

  /**
   * A setting made here or nearest up the chain, null for none.
   * @param {'replySerializer' | 'genReqId' | 'childLoggerFactory'} kind
   * @returns {Function | null}
   */
  findUp (kind) {
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) if (c[kind] !== null) return c[kind]
    return null
  }

  /** the not-found handler this context answers with: its level's, or the nearest enclosing level's */
  findNotFoundHandler () {
    for (let c = /** @type {Context | null} */ (this.notFoundLevel); c !== null; c = c.parent === null ? null : c.parent.notFoundLevel) if (c.notFoundHandler !== null) return c.notFoundHandler
    return null
  }

  /** the logSerializers of the plugins up the chain, the nearest winning a name, or null */
  findLogSerializers () {
    /** @type {Record<string, (value: any) => any> | null} */
    let out = null
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) {
      if (c.logSerializers !== null) out = { ...c.logSerializers, ...(out ?? {}) }
    }
    return out
  }

  /** the logLevel of the nearest plugin registered with one, or null */
  findLogLevel () {
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) if (c.logLevel !== null) return c.logLevel
    return null
  }

  /**
   * The error handlers this context's routes hand an error through,
   * nearest first: its own, latest first, then its parent's, up to the
   * root's (the default comes after them, route.js).
   * @returns {{ fn: Function, instance: any }[]}
   */
  errorHandlerChain () {
    /** @type {{ fn: Function, instance: any }[]} */
    const out = []
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) {
      for (let i = c.errorHandlers.length - 1; i >= 0; i--) out.push(c.errorHandlers[i])
    }
    return out
  }

  /** @returns {ParserTable} */
  findParsers () {
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) if (c.parsers !== null) return c.parsers
    throw new Error('unreachable: the root context has a parser table')
  }

  /** The table to add a parser to: copied from the parent on first write. */
  ownParsers () {
    if (this.parsers === null) this.parsers = new ParserTable(this.findParsers())
    return this.parsers
  }

  /**
   * Whether a plugin of this name was loaded here or in a parent (its
   * declared name), or is in this context's name chain (Fastify's hasPlugin).
   * @param {string} name
   */
  hasPlugin (name) {
    if (this.pluginNames.includes(name)) return true
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) if (c.registeredPlugins.includes(name)) return true
    return false
  }

  /**
   * @param {'requestDecorators' | 'replyDecorators'} kind
   * @param {string | symbol} name
   */
  hasDecorator (kind, name) {
    for (let c = /** @type {Context | null} */ (this); c !== null; c = c.parent) if (c[kind].has(name)) return true
    return false
  }

  /** Builds this context's Request and Reply classes (parents first). */
  buildClasses () {
    if (this.Request !== null) return
    const parent = this.parent
    if (parent !== null) parent.buildClasses()
    const BaseRequest = parent === null ? this.baseRequest : /** @type {typeof Request} */ (parent.Request)
    const BaseReply = parent === null ? Reply : /** @type {typeof Reply} */ (parent.Reply)
    this.Request = this.requestDecorators.size === 0 ? BaseRequest : subclass(BaseRequest, this.requestDecorators)
    this.Reply = this.replyDecorators.size === 0 ? BaseReply : subclass(BaseReply, this.replyDecorators)
  }
}

/**
 * The names of the fields hotpath's own requests and replies hold
 * (`_incoming`, `_sent`, ...), which no decorator may take; read off bare
 * instances, so that the list follows the classes. Other names starting
 * with `_` are the application's, as in Fastify.
 */
export const OWN_FIELDS = {
  requestDecorators: new Set(Object.keys(new Request(/** @type {any} */ ({ method: 'GET', url: '/' }), {}, /** @type {any} */ (null)))),
  replyDecorators: new Set(Object.keys(new Reply(/** @type {any} */ (null), /** @type {any} */ (null), /** @type {any} */ ({ timesReply: false }))))
}

/**
 * A new context's not-found level: its parent's, the root its own.
 * @param {Context | null} parent
 * @param {Context} ctx
 * @returns {Context}
 */
function notFoundLevelOf (parent, ctx) {
  return parent === null ? ctx : parent.notFoundLevel
}

/**
 * @template {new (...args: any[]) => any} C
 * @param {C} Base
 * @param {Map<string | symbol, unknown>} decorators
 * @returns {C}
 */
function subclass (Base, decorators) {
  const Sub = class extends Base {}
  for (const [name, value] of decorators) {
    const v = /** @type {any} */ (value)
    if (v !== null && typeof v === 'object' && (typeof v.getter === 'function' || typeof v.setter === 'function')) {
      Object.defineProperty(Sub.prototype, name, { get: v.getter, set: v.setter, configurable: true, enumerable: false })
    } else {
      Object.defineProperty(Sub.prototype, name, { value: v, writable: true, configurable: true, enumerable: false })
    }
  }
  return Sub
}

/**
 * A child scope's schema controller: its parent's schemas and compilers.
 * @param {Context} parent
 */
function childController (parent) {
  const p = parent.schemaController
  return new SchemaController(p, p.opts)
}
