// Every route of an app, and the lookups dispatch makes: find-my-way's
// radix tree, plus a Map of paths with no parameter (requested exactly as
// declared, they skip the tree), plus the not-found routes by prefix.
// Filled while the app is assembled, completed once at ready().
import { METHODS } from '../node-http.js'
import { loadModule } from '../require.js'
import { createError } from '../errors.js'
import { Route } from './route.js'
import { headRouteOnSendHandler } from './head-route.js'
import { LISTED_REQUEST_HOOKS } from '../lifecycle/hook-names.js'
import { parseQuery } from '../lifecycle/parsers/urlencoded.js'
import { defaultErrorHandler } from '../lifecycle/handle-error.js'

/** node:http's methods: Fastify's not-found router has a route for each */
const NODE_METHODS = new Set(METHODS)

/** @type {typeof import('find-my-way')} */
const FindMyWay = loadModule('find-my-way')

function noop () {}

/**
 * find-my-way's onBadUrl and onMaxParamLength: dispatch calls the handler
 * of the result whose store is null, which calls these with the path.
 * @param {string} path
 */
function badUrlEvent (path) {
  return { code: 'HP_ERR_BAD_URL', path }
}

/** @param {string} path */
function maxParamEvent (path) {
  return { code: 'HP_ERR_MAX_PARAM_LENGTH', path }
}

// Paths the router matches only through a parameter, a wildcard, an escape
// or a regexp: they never go into the exact-path Map.
const NOT_EXACT = /[:*%(]/

export class RouteTable {
  /**
   * @param {{ caseSensitive?: boolean, ignoreTrailingSlash?: boolean, ignoreDuplicateSlashes?: boolean, allowUnsafeRegex?: boolean, maxParamLength: number, useSemicolonDelimiter?: boolean, constraints?: Record<string, any>, buildPrettyMeta?: Function, maxParamEvent?: boolean }} options
   *   maxParamEvent: a parameter over maxParamLength is an event of its own (an
   *   answer or a handler), not a path that matches nothing
   */
  constructor (options) {
    /** find-my-way's options, for the tree printRoutes() builds too */
    this.routerOptions = {
      caseSensitive: options.caseSensitive ?? true,
      ignoreTrailingSlash: options.ignoreTrailingSlash ?? false,
      ignoreDuplicateSlashes: options.ignoreDuplicateSlashes ?? false,
      allowUnsafeRegex: options.allowUnsafeRegex ?? false,
      maxParamLength: options.maxParamLength,
      // find-my-way 9 reads it; its types do not declare it
      ...(/** @type {{}} */ ({ useSemicolonDelimiter: options.useSemicolonDelimiter ?? false })),
      // The query is parsed lazily by req.query, never by the router.
      querystringParser: /** @type {any} */ (noop),
      // find-my-way answers these with a result whose store is null; its
      // handler, called by dispatch, says which it was
      onBadUrl: badUrlEvent,
      onMaxParamLength: options.maxParamEvent === true ? maxParamEvent : undefined
    }
    /** @type {any[]} the strategies of the app's own constraints, in the order they were added (printRoutes' tree gets them too) */
    this.strategies = []
    if (options.constraints !== undefined && options.constraints !== null) {
      if (typeof options.constraints !== 'object') throw createError('HP_ERR_INVALID_OPTION', 'constraints', 'expected an object of constraint strategies')
      this.strategies.push(...Object.values(options.constraints))
    }
    this.router = FindMyWay(/** @type {any} */ ({ ...this.routerOptions, constraints: options.constraints ?? undefined }))
    /** @type {any} find-my-way's constrainer: the strategies, those in use, the function that derives their values */
    this.constrainer = /** @type {any} */ (this.router).constrainer
    /** @type {Function | null} Fastify's buildPrettyMeta: what printRoutes({ includeMeta }) shows of a route */
    this.buildPrettyMeta = options.buildPrettyMeta ?? null
    /** ';' ends the path as '?' does: a path declared with one is left to the router */
    this.semicolon = options.useSemicolonDelimiter ?? false
    /** @type {Route[]} */
    this.routes = []
    /** path → method → route, for paths with no parameter or escape @type {Map<string, Record<string, Route>>} */
    this.exact = new Map()
    /** 'METHOD path' of every route added @type {Set<string>} */
    this.keys = new Set()
    /** deepest prefix first; bodyRoute for the methods whose bodies are parsed @type {{ prefix: string, route: Route, bodyRoute: Route }[]} */
    this.notFound = []
    /** errorFormat 'fastify': the answer to a method node:http does not know (see notFoundRoute) @type {Route | null} */
    this.unknownMethod = null
    /** the HEAD routes of GET routes, added at ready() where no HEAD route was declared @type {{ route: Route, paths: string[] }[]} */
    this.autoHead = []
    /** a GET route's HEAD route → how many routes were declared before it (printRoutes lists it there) @type {Map<Route, number>} */
    this.autoHeadAt = new Map()
    /** some route has `constraints`: dispatch derives them from the request (one check per request otherwise) */
    this.constrained = false
    /** some constraint in use is derived asynchronously: the lookup waits for it (set at ready()) */
    this.asyncConstrained = false
    /** a route is constrained by version (set at ready()): request.routeOptions.version is the request's Accept-Version */
    this.versioned = false
    /** paths with a constrained route: they never go into the exact-path Map @type {Set<string>} */
    this.constrainedPaths = new Set()
  }

  /**
   * The constraints the routes match on, read from the request: only when
   * some route has any (find-my-way builds the function for the strategies
   * in use: host, version, and the app's own).
   * @param {{ headers: Record<string, string | string[] | undefined> }} raw
   */
  deriveConstraints (raw) {
    return this.constrainer.deriveSyncConstraints(raw, undefined)
  }

  /**
   * Adds a constraint strategy (find-my-way's: name, storage, validate,
   * deriveConstraint, a deriveConstraint of three arguments being
   * asynchronous), as Fastify's addConstraintStrategy.
   * @param {any} strategy
   */
  addConstraintStrategy (strategy) {
    this.router.addConstraintStrategy(strategy)
    this.strategies.push(strategy)
  }

  /**
   * Whether routes may use a constraint of this name: one of the app's own,
   * or host or version once a route uses it (find-my-way's answer).
   * @param {string} name
   */
  hasConstraintStrategy (name) {
    return this.router.hasConstraintStrategy(name)
  }

  /**
   * @param {Route} route  a GET route's HEAD route
   * @param {string[]} paths
   */
  addAutoHead (route, paths) {
    route.autoHead = true
    this.autoHead.push({ route, paths })
    this.autoHeadAt.set(route, this.routes.length)
  }

  /**
   * @param {Route} route
   * @param {string[]} paths  the router paths it answers
   */
  add (route, paths) {
    const constraints = this.routeConstraints(route)
    for (const path of paths) {
      const key = constraints === null ? `${route.method} ${path}` : `${route.method} ${path} ${constraintKey(constraints)}`
      if (this.keys.has(key)) throw route.app.error('HP_ERR_DUPLICATE_ROUTE', route.method, path)
      if (constraints !== null) {
        this.constrained = true
        this.constrainedPaths.add(path)
      }
      try {
        if (constraints === null) this.router.on(/** @type {any} */ (route.method), path, noop, route)
        else this.router.on(/** @type {any} */ (route.method), path, { constraints }, noop, route)
      } catch (err) {
        const message = /** @type {Error} */ (err).message
        // the same path under other parameter names ('/:id' and '/:key')
        if (message.includes('already declared for route')) throw route.app.error('HP_ERR_DUPLICATE_ROUTE', route.method, path)
        throw createError('HP_ERR_INVALID_ROUTE', `${route.method} ${path}: ${message}`)
      }
      this.keys.add(key)
    }
    route.paths = paths
    this.routes.push(route)
  }

  /**
   * At ready(): HEAD for every GET route without its own, each route's
   * pipeline compiled, the exact-path Map, and one not-found route per
   * context that set a handler or uses middleware (the root always has one).
   * @param {import('../app/core.js').Core} core
   * @param {import('../app/context.js').Context[]} contexts  root first
   * @param {Function} defaultNotFound
   */
  complete (core, contexts, defaultNotFound) {
    const router = this.router
    for (const { route, paths } of this.autoHead) {
      const constraints = this.routeConstraints(route)
      const key = (/** @type {string} */ path) => constraints === null ? `HEAD ${path}` : `HEAD ${path} ${constraintKey(constraints)}`
      // a HEAD route declared for the path takes its place, whatever its
      // parameters are named
      const free = paths.filter((path) => !this.keys.has(key(path)) && !router.hasRoute('HEAD', path, /** @type {any} */ (constraints ?? undefined)))
      if (free.length === 0) continue
      for (const path of free) {
        if (constraints === null) router.on('HEAD', path, noop, route)
        else router.on('HEAD', path, { constraints }, noop, route)
        this.keys.add(key(path))
      }
      route.paths = free
      this.routes.push(route)
    }
    this.autoHead = []
    const constrainer = this.constrainer
    this.constrained = constrainer.strategiesInUse.size > 0 || constrainer.asyncStrategiesInUse.size > 0
    this.asyncConstrained = constrainer.asyncStrategiesInUse.size > 0
    this.versioned = router.hasConstraintStrategy('version')
    // A strategy that must match when derived (mustMatchWhenDerived) turns
    // away a request that carries its value from routes that do not declare
    // it: no path can skip the router then.
    const everyPathConstrained = [...constrainer.strategiesInUse, ...constrainer.asyncStrategiesInUse].some((name) => constrainer.strategies[name].mustMatchWhenDerived === true)
    for (const route of this.routes) route.compile()
    if (!everyPathConstrained) for (const route of this.routes) {
      for (const path of route.paths) if (!NOT_EXACT.test(path) && !this.constrainedPaths.has(path) && !(this.semicolon && path.includes(';'))) this.addExact(route.method, path, route)
    }
    const root = contexts[0]
    for (const ctx of contexts) {
      // A not-found route for the root, for each prefix that set a handler
      // (with the hooks of the context that set it, as Fastify), and for a
      // context with middleware: it answers the paths under its prefix that
      // match none of its routes too, as an Express router runs its
      // middleware for every request under its mount path (cors answers a
      // preflight for which there is no OPTIONS route).
      const ownLevel = ctx.notFoundLevel === ctx && ctx.notFoundHandler !== null
      if (!ownLevel && ctx !== root && !(ctx.usesMiddleware && ctx.prefix !== '')) continue
      const own = ctx.findNotFoundHandler()
      const at = ownLevel && own !== null ? own.ctx : ctx
      const instance = ownLevel && own !== null ? own.instance : ctx.instance
      /** @param {boolean} parseBody */
      const make = (parseBody) => {
        const route = new Route(core, at, instance, { url: '*', method: '*', ...own?.hooks, errorHandler: own?.errorHandler ?? undefined }, '*', '*', own?.handler ?? defaultNotFound)
        route.compile()
        route.parseBody = parseBody
        route.notFound = true
        // no route matched: request.routeOptions names no url or method,
        // and its config is empty, as Fastify's for a 404
        route.requestOptions = { ...route.requestOptions, url: undefined, method: undefined, config: {} }
        // the built-in 404 is hotpath's answer, not a payload of the app's
        // (setReplySerializer's serializer does not see it)
        if (own === null) route.replySerializer = null
        return route
      }
      // the body of a method that has one is parsed for the not-found
      // handler too, as for a route
      this.notFound.push({ prefix: ctx.prefix, route: make(false), bodyRoute: make(true) })
    }
    if (core.fastifyErrors) {
      const route = new Route(core, root, root.instance, { url: '*', method: '*' }, '*', '*', unknownMethod)
      route.compile()
      route.parseBody = false
      route.notFound = true
      route.requestOptions = { ...route.requestOptions, url: undefined, method: undefined, config: {} }
      route.replySerializer = null
      this.unknownMethod = route
    }
    this.notFound.sort((a, b) => b.prefix.length - a.prefix.length)
  }

  /**
   * The route a request for `method` and `url` would reach (Fastify's
   * findRoute): its handler, its params and its query, or null. Copies,
   * so that changing them changes nothing.
   * @param {string} method
   * @param {string} url
   * @param {Record<string, unknown>} [constraints]  as derived from a request (host, version)
   */
  find (method, url, constraints) {
    const found = this.router.find(/** @type {any} */ (method), url, constraints)
    if (found === null || found.store === null) return null
    const q = url.indexOf('?')
    return {
      handler: /** @type {Route} */ (found.store).handler,
      params: { ...found.params },
      searchParams: { ...parseQuery(q === -1 ? '' : url.slice(q + 1)) }
    }
  }

  /**
   * The routes as find-my-way's prettyPrint draws them, in the order they
   * were declared, a GET route's HEAD route right after it: a tree of its
   * own, so that the one requests are looked up in keeps no metadata.
   * @param {Record<string, unknown>} options  find-my-way's prettyPrint options
   */
  print (options) {
    const own = this.buildPrettyMeta
    /** @type {Record<string, any>} */
    const constraints = {}
    for (const strategy of this.strategies) constraints[strategy.name] = strategy
    const tree = FindMyWay(/** @type {any} */ ({ ...this.routerOptions, constraints, buildPrettyMeta: own ?? prettyMeta }))
    /** @type {Route[]} */
    const ordered = []
    const heads = this.routes.filter((r) => this.autoHeadAt.has(r))
    let h = 0
    this.routes.forEach((route, i) => {
      if (this.autoHeadAt.has(route)) return
      while (h < heads.length && /** @type {number} */ (this.autoHeadAt.get(heads[h])) <= i) ordered.push(heads[h++])
      ordered.push(route)
    })
    while (h < heads.length) ordered.push(heads[h++])
    for (const route of ordered) {
      const constraints = this.routeConstraints(route)
      for (const path of route.paths) {
        if (constraints === null) tree.on(/** @type {any} */ (route.method), path, noop, route)
        else tree.on(/** @type {any} */ (route.method), path, { constraints }, noop, route)
      }
    }
    return tree.prettyPrint(/** @type {any} */ (options))
  }

  /**
   * Whether a route is declared for `method` and the path pattern `url`
   * (with these constraints, for a constrained one), as Fastify's hasRoute.
   * @param {string} method
   * @param {string} url
   * @param {Record<string, unknown>} [constraints]
   */
  has (method, url, constraints) {
    return this.router.hasRoute(/** @type {any} */ (method), url, constraints)
  }

  /**
   * A route's `constraints` (find-my-way's `host`, a string or RegExp,
   * `version`, the route's version, which a request's Accept-Version range
   * selects, and the app's own strategies), or null when it has none.
   * @param {Route} route
   * @returns {Record<string, unknown> | null}
   */
  routeConstraints (route) {
    const c = route.options.constraints
    if (c === undefined || c === null) return null
    if (typeof c !== 'object') throw createError('HP_ERR_INVALID_ROUTE', `${route.method} ${route.url}: constraints must be an object`)
    const known = this.constrainer.strategies
    for (const name of Object.keys(c)) {
      if (!Object.hasOwn(known, name)) throw createError('HP_ERR_INVALID_ROUTE', `${route.method} ${route.url}: unknown constraint "${name}" (host, version, and those addConstraintStrategy() or the constraints option add)`)
    }
    return Object.keys(c).length === 0 ? null : c
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {Route} route
   */
  addExact (method, path, route) {
    let entry = this.exact.get(path)
    if (entry === undefined) {
      entry = /** @type {Record<string, Route>} */ (Object.create(null))
      this.exact.set(path, entry)
    }
    entry[method] = route
  }

  /**
   * The not-found route of the deepest prefix that contains `url`, for the
   * request's method.
   * @param {string} url
   * @param {string} method
   */
  notFoundRoute (url, method) {
    // A method outside node:http's list (only HTTP/2 carries one: node:http
    // refuses it): Fastify's not-found router has a route for each of
    // node's methods only, so no not-found handler runs, and its fallback
    // answers FST_ERR_NOT_FOUND
    if (this.unknownMethod !== null && !NODE_METHODS.has(method)) return this.unknownMethod
    let found = this.notFound[this.notFound.length - 1]
    for (const entry of this.notFound) {
      const p = entry.prefix
      if (p === '' || (url.startsWith(p) && (url.length === p.length || url[p.length] === '/' || url[p.length] === '?'))) {
        found = entry
        break
      }
    }
    return found.route.app.bodyMethods.has(method) ? found.bodyRoute : found.route
  }
}

/**
 * What printRoutes({ includeMeta }) shows of a route (find-my-way's
 * buildPrettyMeta), in the order of Fastify's own: its error handler, its
 * log level ('' for none), then its request hooks in the order Fastify
 * lists them (onTimeout first; the HEAD route made from a GET route ends
 * its onSend hooks with headRouteOnSendHandler). hotpath's own entry adds
 * the options the route was declared with (config, schema, constraints,
 * bodyLimit), which Fastify's does not show.
 * @param {{ store?: unknown } | undefined} entry
 */
function prettyMeta (entry) {
  const route = entry?.store
  if (!(route instanceof Route)) return {}
  const opts = route.options
  /** @type {Record<string, unknown>} */
  const meta = { errorHandler: shownErrorHandler(route), logLevel: opts.logLevel || route.context.findLogLevel() || '' }
  for (const name of LISTED_REQUEST_HOOKS) {
    const list = route.context.routeHooks(name)
    const own = opts[name]
    if (own !== undefined && own !== null) list.push(...(Array.isArray(own) ? own : [own]))
    if (name === 'onSend' && route.autoHead) list.push(headRouteOnSendHandler)
    if (list.length > 0) meta[name] = list
  }
  if (route.app.fastifyReplies) return meta
  for (const key of ['config', 'schema', 'constraints', 'bodyLimit']) {
    if (opts[key] !== undefined) meta[key] = opts[key]
  }
  return meta
}

/**
 * The route's error handler as Fastify shows it: one set with
 * setErrorHandler() by the name of the bound function Fastify keeps
 * ("bound name()"), the route's own option and the default by their own.
 * @param {Route} route
 */
function shownErrorHandler (route) {
  const fn = route.errorHandler
  if (fn === defaultErrorHandler || fn === route.options.errorHandler) return fn
  return { toJSON: () => `bound ${fn.name}()` }
}

/** @param {Record<string, unknown>} c  the constraints as a key (a RegExp by its source) */
function constraintKey (c) {
  return JSON.stringify(c, (_k, v) => v instanceof RegExp ? String(v) : v)
}

/**
 * The handler of RouteTable#unknownMethod.
 * @param {import('../lifecycle/request.js').Request} req
 */
function unknownMethod (req) {
  throw req.route.app.error('HP_ERR_METHOD_UNKNOWN', req.method, req.path)
}
