// Hooks written with a `done` callback, as Fastify takes them:
// onRequest(req, reply, done), onSend(req, reply, payload, done)… Told by
// their arity when added, and adapted once to the kernel's contract (a value,
// a throw, or a thenable), so the kernel has one kind of hook to run and a
// route without callback hooks pays nothing. A done() called before the hook
// returns continues synchronously, with no promise. A hook that settles
// later answers with its call itself, a thenable the kernel parks on: a
// later done() continues the chain from that call, as Fastify's next() does,
// and a hook that returned a promise (@fastify/helmet's, which never calls
// done) continues it when that promise settles, with no promise of the
// adapter's own between the two. A callback parser's later done() settles
// a promise, as before: a parser is not only the kernel's to call.
//
// The kernel runs the rest of the chain inside done(), even when done() is
// called before the hook returns, as Fastify's next() does: so what the
// hook made current around done() (`als.run(store, done)`,
// `resource.runInAsyncScope(done)`, as @fastify/request-context does) is
// the async context of every later stage. The adapter's `inPlace` is that
// entry; the plain adapter stays for the kernel's observing hooks.
import { EmptyRejection, CONTINUED } from './kernel.js'

/**
 * The arguments each request hook gets before `done`.
 * @type {Record<string, number>}
 */
const ARGS = {
  onRequest: 2,
  preParsing: 3,
  preValidation: 2,
  preHandler: 2,
  preSerialization: 3,
  onSend: 3,
  onResponse: 2,
  onError: 3,
  onTimeout: 2,
  onRequestAbort: 2
}

/**
 * A content-type parser written as Fastify's `(req, payload, done)`,
 * adapted to return its value (or a promise of it). An async function is
 * never a callback parser.
 * @param {Function} fn
 * @returns {Function}
 */
export function adaptParser (fn) {
  if (fn.length < 3 || isAsync(fn)) return fn
  return parserWithDone(fn)
}

/**
 * The hook itself, or its adapter when it takes a `done` callback. An async
 * function is never a callback hook: its promise is its answer.
 * @param {string} name  a request hook name
 * @param {Function} fn
 * @param {boolean} [fastifyForm]  the app takes Fastify's hook signatures (errorFormat 'fastify')
 * @returns {Function}
 */
export function adaptRequestHook (name, fn, fastifyForm = false) {
  // Fastify's onRequestAbort is (request, done): with Fastify's forms
  // (hotpath/fastify), its second parameter is the callback, not the reply
  if (fastifyForm && name === 'onRequestAbort') return fn.length < 2 || isAsync(fn) ? fn : named(requestOnly(fn), fn)
  const args = ARGS[name]
  if (args === undefined || isAsync(fn)) return fn
  // With Fastify's forms, a function that declares no parameter gets
  // `done` too, as Fastify gives every hook: a wrapper that passes on its
  // `...args` (a tracer's, @fastify/otel's) to a hook written with done()
  // declares none. Its promise, when it returns one, counts as well.
  if (fn.length <= args && !(fastifyForm && fn.length === 0)) return fn
  const adapter = named(args === 2 ? twoArgs(fn) : threeArgs(fn), fn)
  return Object.assign(adapter, { inPlace: args === 2 ? twoArgsInPlace(fn) : threeArgsInPlace(fn) })
}

/**
 * The adapter under the hook's own name: printRoutes({ includeHooks })
 * and tracers that name spans by function show the application's hook.
 * @param {Function} adapter
 * @param {Function} fn
 */
function named (adapter, fn) {
  Object.defineProperty(adapter, 'name', { value: fn.name, configurable: true })
  return adapter
}

/** @param {Function} fn  a hook taking (request, done) */
function requestOnly (fn) {
  /**
   * @this {unknown}
   * @param {unknown} req
   */
  return function callbackHook (req) {
    const call = new Call()
    call.follow(fn.call(this, req, call.done))
    return call.answer()
  }
}

/** @param {Function} fn */
function isAsync (fn) {
  return fn.constructor?.name === 'AsyncFunction'
}

/** @param {Function} fn */
function twoArgs (fn) {
  /**
   * @this {unknown}
   * @param {unknown} req
   * @param {unknown} reply
   */
  return function callbackHook (req, reply) {
    const call = new Call()
    call.follow(fn.call(this, req, reply, call.done))
    return call.answer()
  }
}

/**
 * The hook as the kernel's chains call it: `onValue(reply, value)` or
 * `onError(reply, err)` runs inside its done() when done() comes before the
 * hook returns, and the call answers CONTINUED; a later done() settles the
 * call the kernel then parks on, as the plain adapter's.
 * @param {Function} fn
 */
function twoArgsInPlace (fn) {
  /**
   * @this {unknown}
   * @param {any} req
   * @param {any} reply
   * @param {unknown} _third
   * @param {(reply: any, value: unknown) => void} onValue
   * @param {(reply: any, err: unknown) => void} onError
   */
  return function callbackHookInPlace (req, reply, _third, onValue, onError) {
    const call = new Call(reply, onValue, onError)
    try {
      call.follow(fn.call(this, req, reply, call.done))
    } catch (err) {
      call.running = false // a later done() no longer continues anything
      throw err
    }
    return call.returned()
  }
}

/** @param {Function} fn */
function threeArgsInPlace (fn) {
  /**
   * @this {unknown}
   * @param {any} req
   * @param {any} reply
   * @param {unknown} third  the payload, or the error (onError)
   * @param {(reply: any, value: unknown) => void} onValue
   * @param {(reply: any, err: unknown) => void} onError
   */
  return function callbackHookInPlace (req, reply, third, onValue, onError) {
    const call = new Call(reply, onValue, onError)
    try {
      call.follow(fn.call(this, req, reply, third, call.done))
    } catch (err) {
      call.running = false // a later done() no longer continues anything
      throw err
    }
    return call.returned()
  }
}

/** @param {Function} fn  a parser taking (req, payload, done) */
function parserWithDone (fn) {
  /**
   * @this {unknown}
   * @param {unknown} req
   * @param {unknown} payload
   */
  return function callbackParser (req, payload) {
    const call = new Call()
    call.follow(fn.call(this, req, payload, call.done))
    return call.result()
  }
}

/** @param {Function} fn */
function threeArgs (fn) {
  /**
   * @this {unknown}
   * @param {unknown} req
   * @param {unknown} reply
   * @param {unknown} third  the payload, or the error (onError)
   */
  return function callbackHook (req, reply, third) {
    const call = new Call()
    call.follow(fn.call(this, req, reply, third, call.done))
    return call.answer()
  }
}

/**
 * One call of a callback hook: how its done() settled; while it has not,
 * a thenable whose then() takes the continuation (the kernel's park), or
 * the promise a parser's caller waits on.
 */
class Call {
  /**
   * @param {any} [reply]  with the continuations: the kernel's call, run in place
   * @param {((reply: any, value: unknown) => void) | null} [onValue]
   * @param {((reply: any, err: unknown) => void) | null} [onError]
   */
  constructor (reply = null, onValue = null, onError = null) {
    /** the hook is still running: a done() now continues in place */
    this.running = onValue !== null
    this.reply = reply
    this.onValue = onValue
    this.onError = onError
    this.settled = false
    /** settled by a failure (a promise may reject without a reason) */
    this.failed = false
    /** @type {unknown} */
    this.error = null
    /** @type {unknown} */
    this.value = undefined
    /** @type {((value: unknown) => void) | null} */
    this.resolve = null
    /** @type {((err: unknown) => void) | null} */
    this.reject = null
    /** someone waits: then() was called, or result() made its promise */
    this.waited = false
    /** done(err?, value?): the value replaces the payload in payload hooks */
    this.done = (/** @type {unknown} */ err, /** @type {unknown} */ value) => { this.settle(err, value, Boolean(err)) }
  }

  /**
   * @param {unknown} err
   * @param {unknown} value
   * @param {boolean} failed
   */
  settle (err, value, failed) {
    if (this.settled) return
    this.settled = true
    this.failed = failed
    this.error = err
    this.value = value
    if (this.running) {
      // done() before the hook returned: the chain goes on from here, in
      // the async context the hook called done() in
      this.running = false
      this.value = CONTINUED
      if (failed) /** @type {Function} */ (this.onError)(this.reply, err)
      else /** @type {Function} */ (this.onValue)(this.reply, value)
      return
    }
    const resolve = this.resolve
    const reject = this.reject
    this.resolve = null
    this.reject = null
    if (failed) {
      if (reject !== null) reject(err)
    } else if (resolve !== null) {
      resolve(value)
    }
  }

  /**
   * A hook that takes `done` but returns a promise may settle through
   * either, as in Fastify: the first to settle counts.
   * @param {unknown} returned  what the hook returned
   */
  follow (returned) {
    if (this.settled || returned === null || typeof returned !== 'object' || typeof (/** @type {any} */ (returned).then) !== 'function') return
    // a rejection without a reason is still a failure (an EmptyRejection)
    /** @type {PromiseLike<unknown>} */ (returned).then((value) => this.settle(null, value, false), (err) => this.settle(err || new EmptyRejection(), undefined, true))
  }

  /** What the kernel's in-place call answers: CONTINUED when done() came first, else this call, to be parked on. */
  returned () {
    this.running = false
    return this.settled ? this.value : this
  }

  /** What a hook answers: at once when done() came first, else this call, to be parked on. */
  answer () {
    if (this.settled) {
      if (this.failed) throw this.error
      return this.value
    }
    return this
  }

  /**
   * The kernel parks here: what settles the call continues the request,
   * from done() or the hook's promise, with no promise in between. A
   * second then() (not the kernel's) waits behind the first, as on a promise.
   * @param {((value: unknown) => void) | undefined} onValue
   * @param {((err: unknown) => void) | undefined} onFailure
   */
  then (onValue, onFailure) {
    if (this.settled) {
      // settled before anyone asked (only code other than the kernel asks late): answered in a microtask, as a promise would
      const cb = this.failed ? onFailure : onValue
      const arg = this.failed ? this.error : this.value
      if (typeof cb === 'function') queueMicrotask(() => cb(arg))
      return
    }
    if (!this.waited) {
      this.waited = true
      this.resolve = typeof onValue === 'function' ? onValue : null
      this.reject = typeof onFailure === 'function' ? onFailure : null
      return
    }
    const resolve = this.resolve
    const reject = this.reject
    this.resolve = (value) => {
      if (resolve !== null) resolve(value)
      if (typeof onValue === 'function') onValue(value)
    }
    this.reject = (err) => {
      if (reject !== null) reject(err)
      if (typeof onFailure === 'function') onFailure(err)
    }
  }

  /** What a parser answers: at once when done() came first, else a promise of it. */
  result () {
    if (this.settled) {
      if (this.failed) throw this.error
      return this.value
    }
    this.waited = true
    return new Promise((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
  }
}

/**
 * An app hook (onReady, onListen, preClose, onClose) as Fastify takes it:
 * with `this` the instance, and a `done` after its arguments (onClose gets
 * the instance first) when it declares one; else its value or promise.
 * @param {string} name
 * @param {Function} fn
 * @param {any} instance
 * @returns {() => unknown}
 */
export function adaptAppHook (name, fn, instance) {
  const args = name === 'onClose' ? [instance] : []
  const adapted = fn.length <= args.length || isAsync(fn)
    ? () => fn.apply(instance, args)
    : () => new Promise((resolve, reject) => {
      fn.call(instance, ...args, (/** @type {unknown} */ err) => err ? reject(err) : resolve(undefined))
    })
  // the hook's own name, for the error when it times out
  return Object.assign(adapted, { fnName: fn.name })
}
