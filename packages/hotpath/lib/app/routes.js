// route() and its shorthands (get, post, …, all, and the one addHttpMethod
// adds for a method): a route's options checked, its paths joined to the
// plugin's prefix, the onRoute hooks run, and the Route (with the HEAD route
// a GET route answers HEAD through) added to the route table; and the
// table's queries (findRoute, hasRoute, printRoutes) and constraint
// strategies. Start-up only, as all of app/.
import { Route } from '../routing/route.js'
import { REQUEST_HOOKS, LISTED_REQUEST_HOOKS } from '../lifecycle/hook-names.js'
import { createError } from '../errors.js'
import { isLogLevel } from '../logger.js'
import { METHODS as NODE_METHODS } from '../node-http.js'
import { checkHookOption } from './hooks.js'
import { warnAsFastify } from '../fastify-warnings.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

/**
 * @param {Hotpath} app
 * @param {Record<string, any>} options
 */
export function route (app, options) {
  const core = app._core
  if (options === null || typeof options !== 'object') throw createError('HP_ERR_INVALID_ROUTE', 'route() expects an options object')
  const methods = (Array.isArray(options.method) ? options.method : [options.method]).map((m) => typeof m === 'string' ? m.toUpperCase() : m)
  if (core.locked) throw core.error('HP_ERR_ROUTE_AFTER_READY', methods.join(','), String(options.url))
  // `path` is Fastify's other name for `url`
  if (options.url === undefined && options.path !== undefined) options = { ...options, url: options.path }
  const bodyLimit = options.bodyLimit
  if (bodyLimit !== undefined && bodyLimit !== null && !(Number.isInteger(bodyLimit) && bodyLimit > 0)) throw core.error('HP_ERR_ROUTE_BODY_LIMIT', String(bodyLimit))
  // under a prefix, a path is joined to it as it is, as in Fastify
  // ('items' under '/v1/' is '/v1/items'); alone, it is a path
  if (typeof options.url !== 'string' || (app._ctx.routePrefix === '' && options.url !== '' && options.url[0] !== '/' && options.url[0] !== '*')) throw createError('HP_ERR_INVALID_ROUTE', `url must be a path starting with '/', got ${JSON.stringify(options.url)}`)
  if (typeof options.handler !== 'function') throw core.error('HP_ERR_ROUTE_MISSING_HANDLER', methods.join(','), options.url)
  if (options.errorHandler !== undefined && options.errorHandler !== null && typeof options.errorHandler !== 'function') throw core.error('HP_ERR_ROUTE_ERROR_HANDLER', methods.join(','), options.url)
  for (const m of methods) {
    if (typeof m !== 'string') throw core.error('HP_ERR_ROUTE_METHOD_INVALID', String(m))
    if (!core.bodyMethods.has(m) && !core.bodylessMethods.has(m)) throw core.error('HP_ERR_ROUTE_METHOD_NOT_SUPPORTED', m)
    // a body schema on a method whose bodies are never parsed would never run
    if (options.schema?.body && core.bodylessMethods.has(m)) throw core.error('HP_ERR_ROUTE_BODY_SCHEMA', m, options.url)
  }
  if (options.childLoggerFactory !== undefined && options.childLoggerFactory !== null && typeof options.childLoggerFactory !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'childLoggerFactory', 'expected a function')
  const handlerTimeout = options.handlerTimeout
  if (handlerTimeout !== undefined && !(Number.isInteger(handlerTimeout) && handlerTimeout > 0)) throw core.error('HP_ERR_INVALID_HANDLER_TIMEOUT', String(handlerTimeout))
  // null: the app's level, as no logLevel
  if (options.logLevel !== undefined && options.logLevel !== null && !isLogLevel(options.logLevel, core.logger)) throw core.error('HP_ERR_ROUTE_LOG_LEVEL', methods.join(','), options.url, String(options.logLevel))
  const ctx = app._ctx
  const prefix = ctx.routePrefix
  // '' is a path only under a prefix (the prefix itself), as in Fastify
  if (options.url === '' && prefix === '') throw core.error('HP_ERR_ROUTE_EMPTY_PATH')
  const routerOptions = core.routes.routerOptions
  const joined = routePaths(prefix, options.url, typeof options.method === 'string' && options.method.toUpperCase() === 'HEAD', options.prefixTrailingSlash, routerOptions)
  // as Fastify hands them to onRoute: `url` and `path` the path joined to
  // the prefix, `routePath` the part after the prefix, `logLevel` the
  // route's or its plugin's ('' for none) and `attachValidation` false
  // unless set
  /** @type {Record<string, any>} */
  // (a list stays a list, of one method too, as Fastify keeps it)
  const routeOptions = { ...options, method: Array.isArray(options.method) ? methods : methods[0], url: '', path: '', routePath: '', prefix, logLevel: options.logLevel || ctx.findLogLevel() || '', attachValidation: options.attachValidation ?? false }
  // A GET route answers HEAD through a HEAD route of its own, made from the
  // options as declared and passed through the onRoute hooks on its own,
  // as Fastify's exposeHeadRoute makes it (an API description lists it, a
  // per-route rate limit counts it apart), one for each path the route is
  // joined at. A HEAD route declared for the same path, before or after,
  // takes its place.
  const exposeHead = options.exposeHeadRoute ?? core.exposeHeadRoutes
  /** @type {Record<string, any> | null} */
  const headBase = exposeHead && methods.includes('GET') && !methods.includes('HEAD') ? { ...routeOptions, method: 'HEAD' } : null
  // what request.routeOptions.url says: the first path as joined, before
  // the onRoute hooks, as Fastify's route config
  const url = prefix + joined[0].path
  /** @type {string[]} */
  const paths = []
  for (const { path, prefixing } of joined) {
    // The one options object takes each path in turn, as in Fastify: an
    // onRoute hook that keeps it (@fastify/swagger) reads the last, '/v1/'
    // for a root route under '/v1' answering '/v1' and '/v1/'.
    routeOptions.url = routeOptions.path = prefix + path
    routeOptions.routePath = path
    // the second path of a root route ('/v1/' beside '/v1') is not shown
    // to the onRoute hooks, as in Fastify
    if (!prefixing) {
      for (const c of ctx.chain()) for (const hook of c.onRoute) hook.call(app, routeOptions)
      // the route's hooks as the onRoute hooks left them, as Fastify checks them
      for (const name of REQUEST_HOOKS) {
        // null is no hook in hotpath; Fastify refuses it on a route
        if (routeOptions[name] === null && core.fastifyErrors) throw core.error('HP_ERR_INVALID_HOOK', name, '[object Null]')
        checkHookOption(core, name, routeOptions[name])
      }
    }
    paths.push(routeOptions.url === '' ? '/' : routeOptions.url)
  }
  for (const method of methods) {
    core.routes.add(new Route(core, ctx, app, routeOptions, method, url, routeOptions.handler), paths)
  }
  if (headBase !== null) {
    for (const { path } of joined) {
      // a HEAD route's path is joined as any HEAD route's: '/' is not the
      // prefix's root
      const headPath = routePaths(prefix, path, true, undefined, routerOptions)[0].path
      /** @type {Record<string, any>} */
      const headOptions = { ...headBase, url: prefix + headPath, path: prefix + headPath, routePath: headPath }
      for (const c of ctx.chain()) for (const hook of c.onRoute) hook.call(app, headOptions)
      core.routes.addAutoHead(new Route(core, ctx, app, headOptions, 'HEAD', prefix + headPath, headOptions.handler), [headOptions.url === '' ? '/' : headOptions.url])
    }
  }
  return app
}

/**
 * @param {Hotpath} app
 * @param {string[]} methods
 * @param {string} path
 * @param {any} a
 * @param {any} [b]
 */
export function shorthand (app, methods, path, a, b) {
  if (typeof path !== 'string') throw app._core.error('HP_ERR_INVALID_URL', typeof path)
  if (typeof b === 'function' && typeof a !== 'function') {
    // (path, options, handler): the options are a plain object without a handler of their own
    const method = methods.join(',')
    if (Object.prototype.toString.call(a) !== '[object Object]') throw app._core.error('HP_ERR_ROUTE_OPTIONS_NOT_OBJ', method, path)
    if (a.handler !== undefined) throw app._core.error('HP_ERR_ROUTE_DUPLICATED_HANDLER', method, path)
  }
  const options = typeof a === 'function' ? { handler: a } : { ...a, handler: b ?? a?.handler }
  // one method as a string, as Fastify's shorthands pass it
  return app.route({ ...options, method: methods.length === 1 ? methods[0] : methods, url: path })
}

/**
 * Lets routes use one more of the methods Node.js parses (WebDAV's
 * PROPFIND, CalDAV's MKCALENDAR…), with a shorthand of its own
 * (`app.propfind(path, handler)`), as Fastify's addHttpMethod: with
 * `hasBody`, its request bodies are parsed as a POST's. For a method
 * routes may use already, it changes whether its bodies are parsed;
 * Node.js warns when it does so without `overrideExisting`, as Fastify.
 * @param {Hotpath} app
 * @param {string} method
 * @param {boolean} hasBody
 * @param {boolean} overrideExisting
 */
export function addHttpMethod (app, method, hasBody, overrideExisting) {
  const core = app._core
  if (typeof method !== 'string' || !NODE_METHODS.includes(method)) throw core.error('HP_ERR_HTTP_METHOD_INVALID', JSON.stringify(method))
  // Fastify's deprecation of this use of its API
  if (!overrideExisting && (core.bodyMethods.has(method) || core.bodylessMethods.has(method))) warnAsFastify(core, 'FSTDEP025', method)
  if (hasBody === true) {
    core.bodyMethods.add(method)
    core.bodylessMethods.delete(method)
  } else {
    core.bodylessMethods.add(method)
    core.bodyMethods.delete(method)
  }
  const name = method.toLowerCase()
  if (!app.hasDecorator(name)) {
    app.decorate(name, /** @this {Hotpath} @param {string} path @param {any} a @param {any} [b] */ function (path, a, b) {
      return this._shorthand([method], path, a, b)
    })
  }
  return app
}

/**
 * The route a request for `method` and `url` would reach, as Fastify's
 * findRoute: `{ handler, params, searchParams }` (copies), or null.
 * @param {Hotpath} app
 * @param {{ method?: string, url?: string, constraints?: Record<string, unknown> }} options
 */
export function findRoute (app, options) {
  const { method, url, constraints } = options ?? {}
  if (typeof method !== 'string' || typeof url !== 'string' || url === '') return null
  return app._core.routes.find(method.toUpperCase(), url, constraints)
}

/**
 * Whether a route is declared for this method and path pattern (with
 * these constraints, for a constrained one), as Fastify's hasRoute.
 * @param {Hotpath} app
 * @param {{ method?: string, url?: string, constraints?: Record<string, unknown> }} options
 */
export function hasRoute (app, options) {
  const { method, url, constraints } = options ?? {}
  if (typeof method !== 'string' || typeof url !== 'string' || url === '') return false
  return app._core.routes.has(method.toUpperCase(), url, constraints)
}

/**
 * Adds a constraint strategy routes may then use in their `constraints`,
 * as Fastify's addConstraintStrategy (find-my-way's strategy: `name`,
 * `storage`, `deriveConstraint(req, ctx)`, or `(req, ctx, done)` for one
 * derived asynchronously, and `validate`). Before ready().
 * @param {Hotpath} app
 * @param {{ name: string, storage: Function, deriveConstraint: Function, validate?: Function, mustMatchWhenDerived?: boolean }} strategy
 */
export function addConstraintStrategy (app, strategy) {
  if (app._core.locked) throw app._core.error('HP_ERR_CONSTRAINT_AFTER_READY')
  app._core.routes.addConstraintStrategy(strategy)
  return app
}

/**
 * The route tree as text (find-my-way's prettyPrint), as Fastify's
 * printRoutes: every method's routes merged, or one method's tree
 * (`method`); `commonPrefix: false` for one line per path;
 * `includeMeta` (true, or keys) shows each route's hooks, error handler
 * and options, `includeHooks` its hooks. Complete after ready(), which
 * adds GET routes' HEAD routes.
 * @param {Hotpath} app
 * @param {{ method?: string, commonPrefix?: boolean, includeMeta?: boolean | (string | symbol)[], includeHooks?: boolean }} options
 */
export function printRoutes (app, options) {
  const opts = { ...options }
  if (opts.includeHooks) opts.includeMeta = Array.isArray(opts.includeMeta) ? [...LISTED_REQUEST_HOOKS, ...opts.includeMeta] : opts.includeMeta === true ? true : [...LISTED_REQUEST_HOOKS]
  return app._core.routes.print(opts)
}

/**
 * The paths after the prefix a route is registered at, as Fastify's route()
 * joins them. A route declared as '/' under a prefix answers what its
 * `prefixTrailingSlash` says: '/v1' and '/v1/' ('both', the default; the
 * second is `prefixing`, registered without the onRoute hooks, and left out
 * under ignoreTrailingSlash, where the router answers it from '/v1', and
 * under ignoreDuplicateSlashes when the prefix ends with '/'), '/v1' alone
 * ('no-slash') or '/v1/' alone ('slash'). Under a prefix that ends with
 * '/', a path's leading '/' is dropped ('/v1/' and '/x' give '/v1/x');
 * any other path is appended as it is.
 * @param {string} prefix  as Fastify builds it (Context#routePrefix)
 * @param {string} path  as declared
 * @param {boolean} isHead  a HEAD route (the method a string, as Fastify tells)
 * @param {unknown} prefixTrailingSlash  the route's option
 * @param {{ ignoreTrailingSlash?: boolean, ignoreDuplicateSlashes?: boolean }} routerOptions
 * @returns {{ path: string, prefixing: boolean }[]}
 */
function routePaths (prefix, path, isHead, prefixTrailingSlash, routerOptions) {
  if (path === '/' && prefix !== '' && !isHead) {
    if (prefixTrailingSlash === 'slash') return [{ path, prefixing: false }]
    if (prefixTrailingSlash === 'no-slash') return [{ path: '', prefixing: false }]
    if (routerOptions.ignoreTrailingSlash === true || (routerOptions.ignoreDuplicateSlashes === true && prefix.endsWith('/'))) return [{ path: '', prefixing: false }]
    return [{ path: '', prefixing: false }, { path, prefixing: true }]
  }
  if (path[0] === '/' && prefix.endsWith('/')) return [{ path: path.slice(1), prefixing: false }]
  return [{ path, prefixing: false }]
}
