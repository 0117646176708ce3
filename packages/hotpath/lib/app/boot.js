// Start-up and shut-down: loading plugins in order (with encapsulation),
// completing the route table at ready(), handing the engine the core's entry
// point, and close().
import { Context } from './context.js'
import { createError } from '../errors.js'
import { dispatch, dispatchRewritten } from '../routing/dispatch.js'
import { withHealth } from './health.js'
import { requestChannel } from '../lifecycle/tracing.js'
import { traceRequest } from '../lifecycle/request-trace.js'
import { defaultNotFound, fastifyNotFound } from '../routing/not-found.js'
import { isShared } from './plugin.js'
import { FASTIFY_VERSION } from './core.js'
import { checkPluginMeta, declaredName, loadNode, pluginLabel, preview } from './plugin-meta.js'
import { checkLogLevel, checkLogSerializers } from '../logger.js'

/** @typedef {import('./core.js').Core} Core */

/** @param {unknown} prefix */
function normalizePrefix (prefix) {
  if (prefix === undefined || prefix === null || prefix === '' || prefix === '/') return ''
  if (typeof prefix !== 'string') throw createError('HP_ERR_INVALID_OPTION', 'prefix', 'expected a string')
  let p = prefix[0] === '/' ? prefix : '/' + prefix
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1)
  return p
}

/**
 * A plugin's prefix joined to its parent's as Fastify joins them
 * (plugin-override.js): one '/' between the two, the declared one's
 * trailing slash kept ('/v1' and 'items/' give '/v1/items/').
 * @param {string} parentPrefix
 * @param {string} prefix  checked by normalizePrefix already
 */
function buildRoutePrefix (parentPrefix, prefix) {
  if (parentPrefix.endsWith('/') && prefix[0] === '/') return parentPrefix + prefix.slice(1)
  if (prefix[0] !== '/' && !parentPrefix.endsWith('/')) return parentPrefix + '/' + prefix
  return parentPrefix + prefix
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
  // A plugin's failure travels down the queue, as in Fastify (avvio): the
  // plugins queued after it are not loaded; each after(fn) still runs, and
  // one that takes the error (fn(err), fn(err, done)) has handled it: the
  // boot goes on. Unhandled, it fails ready() and listen(), even when an
  // `await register()` caught it.
  /** @type {unknown} */
  let error = null
  while (ctx.pending.length > 0) {
    const item = /** @type {import('./context.js').PendingPlugin} */ (ctx.pending.shift())
    const failed = error ?? core.loadError
    if (failed !== null && item.after === undefined) continue
    try {
      if (item.after !== undefined) {
        await runAfter(item.instance, item.after, failed)
        if (failed !== null && item.after.length > 0) {
          error = null
          if (core.loadError === failed) core.loadError = null
        }
      } else {
        await loadPlugin(core, ctx, item)
      }
    } catch (err) {
      error = err
    }
  }
  if (error !== null) {
    if (core.loadError === null) core.loadError = error
    throw error
  }
}

/**
 * @param {Core} core
 * @param {Context} parentCtx
 * @param {import('./context.js').PendingPlugin} item
 */
async function loadPlugin (core, parentCtx, item) {
  const fn = await pluginFunction(item.fn)
  // an async plugin answers with its promise: a done declared as well
  // would be a second answer (Fastify refuses the mix too)
  if (fn.length >= 3 && fn.constructor?.name === 'AsyncFunction') throw core.error('HP_ERR_PLUGIN_ASYNC_DONE', pluginName(fn, item.opts))
  // options given as a function are computed once the plugin has its
  // instance, from it, as avvio does: they cannot open the context (prefix)
  const given = typeof item.opts === 'function' ? {} : item.opts
  // a plugin's Fastify range is about Fastify's API: under hotpath/fastify
  // the app's version (which names that release), else the release hotpath
  // follows
  const fastifyVersion = core.version === FASTIFY_VERSION ? String(item.instance.version) : FASTIFY_VERSION
  const refused = checkPluginMeta(core, item.instance, fn, fastifyVersion)
  if (refused !== null) throw refused
  const label = pluginLabel(fn)
  const declared = declaredName(fn)
  if (declared !== null) parentCtx.registeredPlugins.push(declared)
  // The plugin gets its options whole, `prefix` included, as in Fastify; a
  // shared plugin (fastify-plugin) has no context of its own to prefix.
  const prefix = given.prefix
  let ctx = parentCtx
  let instance = item.instance
  if (!isShared(fn)) {
    ctx = new Context(parentCtx, parentCtx.prefix + normalizePrefix(prefix), prefix ? buildRoutePrefix(parentCtx.routePrefix, prefix) : parentCtx.routePrefix)
    ctx.pluginNames.push(label)
    if (prefix) {
      ctx.notFoundLevel = ctx
    }
    if (given.logLevel !== undefined) ctx.logLevel = checkLogLevel(given.logLevel, core.logger)
    if (given.logSerializers !== undefined) ctx.logSerializers = checkLogSerializers(given.logSerializers)
    instance = Object.create(item.instance)
    instance._ctx = ctx
    ctx.instance = instance
    core.allContexts.push(ctx)
    for (const c of ctx.chain()) for (const hook of c.onRegister) await hook.call(item.instance, instance, given)
  } else {
    parentCtx.pluginNames.push(label)
  }
  const opts = typeof item.opts === 'function' ? item.opts(instance) ?? {} : given
  // printPlugins(): this plugin under the one whose loading registered it
  const node = loadNode(label)
  const outerNode = core.loadingNode
  outerNode.nodes.push(node)
  core.loadingNode = node
  // What the plugin registers (and hooks it defers) loads before the
  // siblings queued after it, as avvio orders it: a shared plugin, which
  // adds to its parent's context, gets a queue of its own meanwhile.
  const outer = ctx.pending
  if (ctx === parentCtx) ctx.pending = []
  try {
    await callPlugin(core, fn, instance, opts)
    await loadPlugins(core, ctx)
  } finally {
    if (ctx === parentCtx) ctx.pending = outer.concat(ctx.pending)
    core.loadingNode = outerNode
    node.end = Date.now()
  }
}

/**
 * The ready(cb) callbacks plugins left while they loaded, in the order they
 * were called, once every plugin has loaded (before the onReady hooks), as
 * avvio calls them: cb(err), cb(err, done) or cb(err, instance, done).
 * @param {Core} core
 * @param {unknown} err  the failure of the boot, or null
 */
async function runReadyCallbacks (core, err) {
  const callbacks = core.readyCallbacks.splice(0)
  for (const { instance, fn } of callbacks) await runAfter(instance, fn, err)
}

/**
 * The plugin a register() was given: a function, a module whose default
 * export is one (a bundled or TypeScript plugin), or a promise of either
 * (`register(import('./plugin.js'))`), as avvio takes them.
 * @param {Function | PromiseLike<unknown> | { default: Function }} given
 * @returns {Promise<Function>}
 */
async function pluginFunction (given) {
  if (typeof given === 'function') return given
  const mod = /** @type {any} */ (typeof (/** @type {any} */ (given)).then === 'function' ? await given : given)
  const fn = typeof mod === 'function' ? mod : mod?.default
  if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'register', 'expected a plugin function, a module whose default export is one, or a promise of either')
  return fn
}

/**
 * A plugin is an async function, one that returns a promise, or
 * (instance, opts, done) that calls done(err?) when it has finished, as
 * Fastify (avvio) takes them: a function of fewer than three parameters
 * that returns no promise has finished when it returns.
 * A plugin not done within pluginTimeout fails the boot: the timer starts
 * before the plugin is called.
 * @param {Core} core
 * @param {Function} fn
 * @param {any} instance
 * @param {Record<string, any>} opts
 * @returns {Promise<void>}
 */
function callPlugin (core, fn, instance, opts) {
  return withTimeout(core.pluginTimeout, () => settleWithDone(fn, undefined, [instance, opts], 'plugin rejected'), () => pluginTimeoutError(core, fn, opts))
}

/**
 * start() within ms (0: no limit), else the error timedOut() makes. The
 * timer is set before start() runs (the global setTimeout, which a test
 * may fake to make time pass inside a plugin).
 * @param {number} ms
 * @param {() => unknown} start
 * @param {() => Error} timedOut
 * @returns {Promise<void>}
 */
function withTimeout (ms, start, timedOut) {
  if (ms === 0) {
    try {
      return Promise.resolve(start()).then(() => {})
    } catch (err) {
      return Promise.reject(err)
    }
  }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const expired = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms)
  })
  /** @type {Promise<unknown>} */
  let done
  try {
    done = Promise.resolve(start())
  } catch (err) {
    done = Promise.reject(err)
  }
  return /** @type {Promise<void>} */ (Promise.race([done, expired])).finally(() => clearTimeout(timer))
}

/**
 * @param {Core} core
 * @param {string} hookName
 * @param {Function & { fnName?: string }} hook
 */
function hookTimeoutError (core, hookName, hook) {
  const err = core.error('HP_ERR_HOOK_TIMEOUT', hookName, hook.fnName ? ` "${hook.fnName}"` : '')
  if (core.fastifyErrors) err.cause = Object.assign(new Error('Plugin did not start in time'), { code: 'AVV_ERR_READY_TIMEOUT' })
  return err
}

/**
 * @param {Core} core
 * @param {Function} fn
 * @param {Record<string, any>} opts
 */
function pluginTimeoutError (core, fn, opts) {
  const err = core.error('HP_ERR_PLUGIN_TIMEOUT', pluginName(fn, opts))
  // Fastify's carries the cause avvio gives it
  if (core.fastifyErrors) err.cause = Object.assign(new Error('Plugin did not start in time'), { code: 'AVV_ERR_PLUGIN_EXEC_TIMEOUT' })
  return err
}

/**
 * A plugin's name as Fastify (avvio) gives it in its errors: its declared
 * name, the `name` of its options, its function's name, else its first
 * two lines.
 * @param {Function} fn
 * @param {Record<string, any> | Function} opts
 */
function pluginName (fn, opts) {
  const declared = declaredName(fn)
  if (declared !== null) return declared
  if (typeof opts === 'object' && typeof opts?.name === 'string' && opts.name !== '') return opts.name
  if (fn.name !== '') return fn.name
  return preview(fn)
}

/**
 * after(fn): runs once everything registered before it has loaded, as
 * Fastify's after(): fn(err) with a promise or nothing, fn(err, done) or
 * fn(err, instance, done); err is the failure of a plugin before it, or null.
 * @param {any} instance
 * @param {Function} fn
 * @param {unknown} err
 * @returns {Promise<void>}
 */
function runAfter (instance, fn, err) {
  return settleWithDone(fn, instance, fn.length >= 3 ? [err, instance] : [err], 'after() rejected')
}

/**
 * Calls fn(...args, done) and settles once: by done(err?), by the promise
 * fn returns, or, when fn declares no done parameter and returns no
 * promise, on return.
 * A promise's settling is taken on process.nextTick as it is then, as
 * Fastify's boot (avvio) takes it: what fn queued on the tick runs before
 * the boot goes on, and a test that fakes process.nextTick with an
 * advancing clock (FakeTimers' shouldAdvanceTime) sees the clock move once
 * more per such plugin, as on Fastify, so what node's streams queued on the
 * faked tick meanwhile (the test runner's report) has run before the test
 * resets its clock (test/boot-fake-timers.test.js).
 * @param {Function} fn
 * @param {unknown} self  `this` for fn
 * @param {unknown[]} args  the arguments before done
 * @param {string} rejected  the error for a rejection without a reason
 * @returns {Promise<void>}
 */
function settleWithDone (fn, self, args, rejected) {
  return new Promise((resolve, reject) => {
    let settled = false
    /** @param {unknown} [err] */
    const done = (err) => {
      if (settled) return
      settled = true
      if (err) reject(err)
      else resolve()
    }
    const r = fn.apply(self, [...args, done])
    if (r !== null && typeof r === 'object' && typeof r.then === 'function') r.then(() => process.nextTick(done), (/** @type {unknown} */ err) => process.nextTick(done, err ?? new Error(rejected)))
    else if (fn.length <= args.length) done()
  })
}

// setImmediate as it was when hotpath was loaded: a test that fakes the
// timers (sinon's FakeTimers replaces setImmediate) must not hold the boot.
const nextTurn = globalThis.setImmediate

/** @returns {Promise<void>} */
function afterThisTurn () {
  return new Promise((resolve) => nextTurn(resolve))
}

/**
 * process.nextTick as it is now: Fastify's boot (avvio) goes through it,
 * so a test that fakes it and advances the clock (FakeTimers'
 * shouldAdvanceTime) sees the clock move before ready() resolves, and
 * what node's streams queued on the faked tick meanwhile (the test
 * runner's report) runs then, as on Fastify.
 * @returns {Promise<void>}
 */
function afterNextTick () {
  return new Promise((resolve) => process.nextTick(resolve))
}

/** @param {Core} core */
export async function doReady (core) {
  // The boot starts after what the calling code queued on process.nextTick
  // and as microtasks, as Fastify's does (its ready() goes through a
  // nextTick, avvio's ready() a microtask, avvio's start() a nextTick):
  // routes, hooks and plugins added meanwhile (a test file's first tests)
  // are still taken. Not a turn of the event loop (setImmediate), which
  // Fastify's boot does not take: the timers due meanwhile ran before the
  // boot, so an inject() on an app not yet ready answered after a
  // setTimeout() set beside it, where Fastify's answers first.
  await afterNextTick()
  await null
  await afterNextTick()
  core.loadTree.start = Date.now()
  try {
    await loadPlugins(core, core.root)
  } finally {
    core.loadTree.end = Date.now()
  }
  await runReadyCallbacks(core, core.loadError)
  if (core.loadError !== null) throw core.loadError
  core.locked = true
  core.routes.complete(core, core.allContexts, core.fastifyErrors ? fastifyNotFound : defaultNotFound)
  /** @type {import('../engines/engine.js').RequestHandler} */
  // rewriteUrl is paid for only by the apps that set it
  // with subscribers to hotpath.request, the same inside its trace
  // (../lifecycle/request-trace.js): one read per request without them
  const routed = core.rewriteUrl === null
    ? (/** @type {any} */ raw, /** @type {any} */ res) => requestChannel.hasSubscribers ? traceRequest(dispatch, core, raw, res) : dispatch(core, raw, res)
    : (/** @type {any} */ raw, /** @type {any} */ res) => requestChannel.hasSubscribers ? traceRequest(dispatchRewritten, core, raw, res) : dispatchRewritten(core, raw, res)
  // and the health route by those that have one (its probes are not traced)
  const handler = core.healthPath === null ? routed : withHealth(core, core.healthPath, routed)
  core.handler = handler
  core.engine.setHandler(handler)
  core.injectEngine.setHandler(handler)
  core.inFlight.start()
  if (core.loadMonitor !== null) core.loadMonitor.start()
  // each context's onReady hooks, then its children's (as onListen's); an
  // onReady hook is bounded by pluginTimeout too, as in Fastify. Those
  // added by an onReady hook are not run.
  /** @type {(() => unknown)[]} */
  const onReady = []
  for (const ctx of core.allContexts) onReady.push(...ctx.onReady)
  for (const hook of onReady) await withTimeout(core.pluginTimeout, hook, () => hookTimeoutError(core, 'onReady', hook))
  core.isReady = true
}

/**
 * The onListen hooks, once the server listens: each context's own in the
 * order they were added, then its children's, a context before the ones
 * loaded after it (as Fastify walks its instances). One after the other, a
 * hook that returns a promise (or takes done) holding the next; one that
 * fails is logged and the next runs. Nobody waits for them.
 * @param {Core} core
 */
export function runOnListen (core) {
  /** @type {(() => unknown)[]} */
  const hooks = []
  for (const ctx of core.allContexts) hooks.push(...ctx.onListen)
  let i = 0
  /** @param {unknown} err */
  const failed = (err) => {
    core.logger?.error(err)
    next()
  }
  const next = () => {
    while (i < hooks.length) {
      /** @type {any} */
      let r
      try {
        r = hooks[i++]()
      } catch (err) {
        core.logger?.error(err)
        continue
      }
      if (r !== null && typeof r === 'object' && typeof r.then === 'function') {
        r.then(next, failed)
        return
      }
    }
  }
  next()
}

/** @param {Core} core */
export async function doClose (core) {
  // Closing an app that has not started loads its plugins first, as
  // Fastify's close() does: the onClose hooks they add run too. A plugin
  // that failed has failed ready() already; close() still closes.
  if (core.readyPromise === null) {
    await afterThisTurn()
    await loadPlugins(core, core.root).catch(() => {})
  } else if (!core.isReady) {
    await core.readyPromise.catch(() => {})
  }
  // drain: the app keeps serving while its health route answers 503, for
  // the balancer to stop sending it new requests, before anything closes
  const delay = core.drainDelay
  if (delay !== null && delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  core.draining = false
  core.backgroundCompile.stop()
  for (const hook of core.appHooks.preClose) await hook()
  core.closing = true
  await core.engine.close()
  core.address = null
  core.inFlight.stop()
  if (core.loadMonitor !== null) core.loadMonitor.stop()
  // Last added, first run, as Fastify (avvio) runs them: a plugin's clean-up
  // runs before that of the plugins it depends on, which were added first.
  const onClose = core.appHooks.onClose
  for (let i = onClose.length - 1; i >= 0; i--) await onClose[i]()
  // settled on a later tick, as Fastify's close() (its boot goes through
  // process.nextTick), never within the caller's microtasks: what the
  // caller queued meanwhile runs first (a test runner's subtests, queued
  // in a ready() callback, the app's close() in the parent's after hook)
  await afterNextTick()
}
