// addHook(), and the checks a hook goes through wherever it is given (a
// route's hook options, the not-found handler's); and use(), whose
// middleware runs as onRequest and onError hooks.
import { APP_HOOKS, REQUEST_HOOKS } from '../lifecycle/hook-names.js'
import { createError } from '../errors.js'
import { middlewareHook } from '../lifecycle/middleware.js'
import { adaptRequestHook, adaptAppHook } from '../lifecycle/callback-hooks.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

/** app hooks that may be added until ready() has finished (from an onReady hook) */
const STARTUP_HOOKS = new Set(['onReady', 'onListen', 'preClose', 'onClose'])

/**
 * @param {Hotpath} app
 * @param {string} name
 * @param {Function} fn
 */
export function addHook (app, name, fn) {
  const core = app._core
  if (typeof name !== 'string') throw core.error('HP_ERR_HOOK_INVALID_TYPE', typeof name)
  // what it got, in Fastify's words: null or undefined as such, anything
  // else by its [object Type]
  if (typeof fn !== 'function') throw core.error('HP_ERR_INVALID_HOOK', name, fn === null || fn === undefined ? String(fn) : Object.prototype.toString.call(fn))
  checkAsyncHook(core, name, fn)
  // an onReady hook may still add the app hooks that come later (onListen,
  // preClose, onClose), as in Fastify; an onReady added then is not run
  // a request hook added by an onReady hook (the routes are compiled, the
  // app is not ready yet) is refused apart, as Fastify's plugin loader
  // refuses it
  if (STARTUP_HOOKS.has(name) ? core.isReady : core.locked) throw core.error(core.isReady || STARTUP_HOOKS.has(name) ? 'HP_ERR_HOOK_AFTER_READY' : 'HP_ERR_HOOK_WHILE_READY', 'addHook', ` (${name})`)
  const ctx = app._ctx
  if (/** @type {readonly string[]} */ (REQUEST_HOOKS).includes(name)) {
    // a hook written with done(), as in Fastify, is adapted once here
    const hook = adaptRequestHook(name, fn, core.fastifyErrors)
    const add = () => { ctx.addHook(name, hook) }
    // After plugins registered here but not loaded yet, as avvio orders
    // it: their hooks on this context come first.
    if (ctx.pending.length > 0) ctx.pending.push({ fn: add, opts: {}, instance: app, after: add })
    else add()
  } else if (name === 'onRoute') {
    ctx.onRoute.push(fn)
  } else if (name === 'onRegister') {
    ctx.onRegister.push(fn)
  } else if (name === 'onListen' || name === 'onReady') {
    // run per context, after the parent's own, as Fastify runs them
    ctx[name].push(adaptAppHook(name, fn, app))
  } else if (/** @type {readonly string[]} */ (APP_HOOKS).includes(name)) {
    app._core.appHooks[name].push(adaptAppHook(name, fn, app))
  } else {
    throw core.error('HP_ERR_HOOK_NOT_SUPPORTED', name)
  }
  return app
}

/**
 * Connect/Express middleware, as Express's app.use takes it: one or more
 * functions or arrays of them, optionally after a mount path. They run at
 * onRequest (error middleware at onError), in order, in this context.
 * @param {Hotpath} app
 * @param {any[]} args
 */
export function use (app, args) {
  let mount = ''
  if (typeof args[0] === 'string') {
    const path = /** @type {string} */ (args.shift())
    if (path[0] !== '/' || /[:*(?]/.test(path)) throw createError('HP_ERR_INVALID_OPTION', 'use', `the mount path must be a literal path starting with '/', got ${JSON.stringify(path)}`)
    // joined to the plugin's prefix, as a route's path is
    mount = app._ctx.prefix + path.replace(/\/+$/, '')
  }
  const fns = args.flat(Infinity)
  if (fns.length === 0 || !fns.every((fn) => typeof fn === 'function')) throw createError('HP_ERR_INVALID_OPTION', 'use', 'expected (req, res, next) middleware')
  // (err, req, res, next) is error middleware, as in Express: it runs
  // when a route or an earlier middleware fails, before the error handler
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'use', '')
  for (const fn of fns) app._ctx.addHook(fn.length === 4 ? 'onError' : 'onRequest', middlewareHook(fn, mount))
  app._ctx.usesMiddleware = true
  return app
}

/**
 * A hook given as a route option: a function, an array of them, or nothing
 * (undefined or null, as Fastify takes both).
 * @param {import('./core.js').Core} core
 * @param {string} name
 * @param {unknown} h
 */
export function checkHookOption (core, name, h) {
  if (h === undefined || h === null) return
  for (const fn of Array.isArray(h) ? h : [h]) {
    if (typeof fn !== 'function') throw core.error('HP_ERR_INVALID_HOOK', name, Object.prototype.toString.call(fn))
    checkAsyncHook(core, name, fn)
  }
}

/**
 * The arguments each hook gets before Fastify's `done` callback (the
 * request hooks', onReady's and onListen's): an async function declaring
 * more has a `done` it must not call (its promise is its answer; a done()
 * would answer twice, or throw), and is refused when added.
 * @type {Record<string, number>}
 */
const HOOK_ARGS = { onRequest: 2, preParsing: 3, preValidation: 2, preHandler: 2, preSerialization: 3, onSend: 3, onResponse: 2, onError: 3, onTimeout: 2, onRequestAbort: 2, onReady: 0, onListen: 0 }

/**
 * @param {import('./core.js').Core} core
 * @param {string} name
 * @param {Function} fn
 */
function checkAsyncHook (core, name, fn) {
  // Fastify's onRequestAbort takes (request, done); hotpath's (req, reply)
  const args = name === 'onRequestAbort' && core.fastifyErrors ? 1 : HOOK_ARGS[name]
  if (args !== undefined && fn.length > args && fn.constructor?.name === 'AsyncFunction') throw core.error('HP_ERR_HOOK_ASYNC_DONE', name)
}
