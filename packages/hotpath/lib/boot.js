// Start-up and shut-down: loading plugins in order (with encapsulation),
// compiling every route at ready(), and close().
import { Context } from './context.js'
import { Route } from './route.js'
import { createError } from './errors.js'
import { dispatch } from './pipeline.js'
import { kPlugin } from './plugin.js'

/** @typedef {import('./core.js').Core} Core */

function noop () {}

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
export async function loadPlugins (core, ctx) {
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
export async function doReady (core) {
  await loadPlugins(core, core.root)
  core.locked = true
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
  if (core.loadMonitor !== null) core.loadMonitor.start()
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
export async function doClose (core) {
  for (const hook of core.appHooks.preClose) await hook()
  await core.engine.close()
  if (core.sweeper !== null) clearInterval(core.sweeper)
  core.sweeper = null
  if (core.loadMonitor !== null) core.loadMonitor.stop()
  for (const hook of core.appHooks.onClose) await hook()
}
