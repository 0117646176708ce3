// register(), after() and the instance as a thenable (`await app`): plugins
// are queued on their context here, and boot.js loads them, at ready() or
// when the instance or after() is awaited; and what was loaded (hasPlugin,
// pluginName, printPlugins).
import { createError } from '../errors.js'
import { loadPlugins } from './boot.js'
import { printLoadTree } from './plugin-meta.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

/**
 * Queues a plugin; it loads at ready(), or when the returned value is
 * awaited (with everything queued before it).
 * @param {Hotpath} app
 * @param {Function | { default: Function } | PromiseLike<unknown>} fn
 * @param {Record<string, any> | ((instance: any) => Record<string, any>)} opts
 */
export function register (app, fn, opts) {
  if (app._core.locked) throw app._core.error('HP_ERR_REGISTER_AFTER_READY')
  const given = /** @type {any} */ (fn)
  // a promise (an import()) is checked when it has settled, at load
  const thenable = given !== null && typeof given === 'object' && typeof given.then === 'function'
  if (typeof given !== 'function' && !thenable && typeof given?.default !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'register', 'expected a plugin function, a module whose default export is one, or a promise of either')
  // options given as a function are computed when the plugin loads
  app._ctx.pending.push({ fn: given, opts: opts ?? {}, instance: app })
  return app
}

/**
 * Whether a plugin of this name was loaded into this context or a parent
 * (its declared name: fastify-plugin's, plugin()'s), or opened this
 * context, as Fastify's hasPlugin.
 * @param {Hotpath} app
 * @param {string} name
 */
export function hasPlugin (app, name) {
  return app._ctx.hasPlugin(name)
}

/**
 * The plugins this instance's context went through, as Fastify's
 * pluginName: the name of the plugin that opened it, then those of the
 * plugin()-wrapped plugins loaded into it so far, joined by ' -> '.
 * @param {Hotpath} app
 */
export function pluginName (app) {
  return app._ctx.pluginNames.join(' -> ')
}

/**
 * The plugins as they loaded, as a tree, with the milliseconds each took
 * (itself and what it registered), as Fastify's printPlugins.
 * @param {Hotpath} app
 */
export function printPlugins (app) {
  return printLoadTree(app._core.loadTree)
}

/**
 * after(fn): fn runs once everything registered before it has loaded
 * (fn(err) or fn(err, done), as in Fastify); after() alone is a promise
 * of that moment, rejected when a plugin failed and nothing handled it.
 * @param {Hotpath} app
 * @param {Function} [fn]
 */
export function after (app, fn) {
  if (typeof fn !== 'function') {
    const core = app._core
    return loadPlugins(core, app._ctx).then(() => { if (core.loadError !== null) throw core.loadError })
  }
  app._ctx.pending.push({ fn, opts: {}, instance: app, after: fn })
  return app
}

/**
 * The instance is awaitable until the app has loaded its plugins, as
 * Fastify's (avvio's thenify): `await app` (or `await app.register(…)`)
 * loads the plugins registered so far in this context and resolves to the
 * instance. Once loaded, `then` is undefined, so ready()'s promise of the
 * instance, and an async function returning it, settle with it as it is;
 * so does the resolution with the instance here, which reads `then` once
 * more (the flag breaks that loop, as avvio's kThenifyDoNotWrap).
 * @template {Hotpath} T
 * @param {T} app
 * @returns {((resolve: (app: T) => unknown, reject?: (err: unknown) => unknown) => Promise<unknown>) | undefined}
 */
export function thenOf (app) {
  const core = app._core
  if (core.locked) return undefined
  if (core.resolvingInstance) {
    core.resolvingInstance = false
    return undefined
  }
  // called by `await`, or by code as `app.register(p).then(a, b)`: what
  // it returns is a promise of a's (or b's) result, as avvio's is
  return (resolve, reject) => loadPlugins(core, app._ctx).then(() => {
    // a plugin that failed, and nothing handled it: as after()
    if (core.loadError !== null) {
      if (typeof reject !== 'function') throw core.loadError
      return reject(core.loadError)
    }
    core.resolvingInstance = true
    return resolve(app)
  }, reject)
}
