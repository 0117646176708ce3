// The continuation kernel: how a request moves from one stage to the next,
// synchronously while every hook, parser and handler returns a plain value,
// and through park() once one returns a thenable (docs/architecture.md,
// "Sync fast path, async slow path").
//
// The kernel imports nothing. A stage hands it the continuation to run next
// and the function that takes a failure, both module-level functions of the
// stage that called it; the kernel keeps them in the reply's own fields. So
// the stages import the kernel and never each other backwards, and a request
// that goes async allocates only its two resume callbacks, made once.

/**
 * @param {unknown} value
 * @returns {value is PromiseLike<unknown>}
 */
export function isThenable (value) {
  return value !== null && typeof value === 'object' && typeof (/** @type {any} */ (value)).then === 'function'
}

/**
 * What a hook's promise is taken to have rejected with when it rejected
 * with nothing (undefined, null, false, 0, ''): a failure is answered as an
 * error. ./handle-error.js gives it its code.
 */
export class EmptyRejection extends Error {
  constructor () {
    super('A hook rejected without an error')
    this.name = 'EmptyRejection'
  }
}

/**
 * What a callback hook's in-place call answers when its done() came before
 * it returned: the chain went on inside done() (./callback-hooks.js).
 */
export const CONTINUED = Symbol('continued in done()')

/**
 * @typedef {import('../reply/reply.js').Reply} Reply
 * @typedef {(reply: Reply, value: any) => void} Continuation
 * @typedef {(reply: Reply, err: unknown) => void} Failure
 * @typedef {Function & { inPlace?: Function }} Hook  a hook written with done() carries its in-place call
 */

/**
 * Continuations that still get the outcome of their thenable once the
 * reply was settled meanwhile: the handler's, so that a value it returns,
 * or an error it rejects with, after sending or hijacking is reported
 * rather than lost. Checked only for a settled reply.
 * @type {Set<Function>}
 */
const TAKE_LATE = new Set()

/**
 * Marks continuations as taking the outcome of a settled reply's thenable.
 * @param {...Function} fns
 */
export function takeLateOutcome (...fns) {
  for (const fn of fns) TAKE_LATE.add(fn)
}

/**
 * Waits for a thenable: its value goes to onValue, its rejection to onError,
 * unless the request was settled meanwhile (timeout, client abort, an
 * answer sent) and they do not take a late outcome.
 * @param {Reply} reply
 * @param {PromiseLike<unknown>} thenable
 * @param {Continuation} onValue
 * @param {Failure} onError
 */
export function park (reply, thenable, onValue, onError) {
  reply._onValue = onValue
  reply._onError = onError
  if (reply._onResolve === null) {
    // made once per reply and reused by every park; unpark() drops them,
    // and a promise settling later then finds itself no longer current
    const onResolve = (/** @type {unknown} */ value) => {
      if (reply._onResolve !== onResolve) return
      const next = /** @type {Continuation} */ (reply._onValue)
      if (!reply._done || TAKE_LATE.has(next)) next(reply, value)
    }
    const onReject = (/** @type {unknown} */ err) => {
      if (reply._onReject !== onReject) return
      const fail = /** @type {Failure} */ (reply._onError)
      if (!reply._done || TAKE_LATE.has(fail)) fail(reply, err)
    }
    reply._onResolve = onResolve
    reply._onReject = onReject
  }
  thenable.then(reply._onResolve, reply._onReject)
}

/**
 * Something else takes the request over (a middleware's late error): what
 * it is parked on no longer continues it when it settles.
 * @param {Reply} reply
 */
export function unpark (reply) {
  reply._onResolve = null
  reply._onReject = null
}

/**
 * Runs hooks[i..] (onRequest, preValidation, preHandler, onError) in order,
 * then next(reply). A hook that sends ends the chain, and so does one that
 * returns (or resolves to) the reply itself: as in Fastify, it will send
 * later. On the first thenable the chain parks and goes on when it
 * settles. A throw or a rejection goes to fail.
 * @param {Reply} reply
 * @param {Function[]} hooks
 * @param {number} i
 * @param {(reply: Reply) => void} next
 * @param {Failure} fail
 */
export function runHooks (reply, hooks, i, next, fail) {
  const req = reply.request
  const instance = reply.route.instance
  for (; i < hooks.length; i++) {
    const hook = /** @type {Hook} */ (hooks[i])
    let r
    try {
      if (hook.inPlace === undefined) r = hook.call(instance, req, reply, reply._error)
      else {
        // a hook written with done(): the chain goes on inside done()
        reply._hooks = hooks
        reply._hookIndex = i + 1
        reply._next = next
        reply._hookFail = fail
        r = hook.inPlace.call(instance, req, reply, reply._error, continueHooks, hookRejected)
        if (r === CONTINUED) return
      }
    } catch (err) {
      fail(reply, err)
      return
    }
    // The reply itself (a thenable too): the hook will send.
    if (r === reply) return
    // A hook that sends (or hijacks) ends the lifecycle; a failure it
    // reports after that can only be logged.
    if (reply.sent) {
      if (isThenable(r)) r.then(undefined, (err) => lateFailure(reply, err))
      return
    }
    if (isThenable(r)) {
      reply._hooks = hooks
      reply._hookIndex = i + 1
      reply._next = next
      reply._hookFail = fail
      park(reply, r, continueHooks, hookRejected)
      return
    }
  }
  next(reply)
}

/**
 * A hook's promise rejected after its reply was sent (it sent, then failed):
 * logged, never an unhandled rejection.
 * @param {Reply} reply
 * @param {unknown} err
 */
function lateFailure (reply, err) {
  // after hijack() the response, and what fails on its way, is user
  // code's (Fastify ignores it): kept at debug level
  if (reply._hijacked) reply.request.log.debug({ err }, 'hook failed after the reply was hijacked')
  else reply.request.log.error({ err }, 'hook failed after the reply was sent')
}

/**
 * @param {Reply} reply
 * @param {unknown} value  what the parked hook resolved to
 */
function continueHooks (reply, value) {
  if (reply.sent || value === reply) return
  runHooks(reply, /** @type {Function[]} */ (reply._hooks), reply._hookIndex, /** @type {any} */ (reply._next), /** @type {Failure} */ (reply._hookFail))
}

/**
 * Runs hooks that see a payload and may return a replacement: preParsing
 * (the body stream), preSerialization (the object), onSend (the serialized
 * body); then next(reply, payload). `stopWhenSent`: a hook that sends ends
 * the chain (preParsing, before the reply exists); the later stages run
 * after send() and stop only once the reply is settled.
 * @param {Reply} reply
 * @param {Function[]} hooks
 * @param {number} i
 * @param {unknown} payload
 * @param {Continuation} next
 * @param {boolean} stopWhenSent
 * @param {Failure} fail
 */
export function runPayloadHooks (reply, hooks, i, payload, next, stopWhenSent, fail) {
  const req = reply.request
  const instance = reply.route.instance
  for (; i < hooks.length; i++) {
    const hook = /** @type {Hook} */ (hooks[i])
    let r
    try {
      if (hook.inPlace === undefined) r = hook.call(instance, req, reply, payload)
      else {
        // a hook written with done(): the chain goes on inside done()
        reply._hooks = hooks
        reply._hookIndex = i + 1
        reply._payload = payload
        reply._next = next
        reply._stopWhenSent = stopWhenSent
        reply._hookFail = fail
        r = hook.inPlace.call(instance, req, reply, payload, payloadHookDone, hookRejected)
        if (r === CONTINUED) return
      }
    } catch (err) {
      fail(reply, err)
      return
    }
    if (reply._done || (stopWhenSent && reply.sent)) {
      if (r !== reply && isThenable(r)) r.then(undefined, (err) => lateFailure(reply, err))
      return
    }
    if (r === reply) r = undefined // the reply is not a payload
    if (isThenable(r)) {
      reply._hooks = hooks
      reply._hookIndex = i + 1
      reply._payload = payload
      reply._next = next
      reply._stopWhenSent = stopWhenSent
      reply._hookFail = fail
      park(reply, r, continuePayloadHooks, hookRejected)
      return
    }
    if (r !== undefined) payload = r
  }
  next(reply, payload)
}

/**
 * A payload hook's done() came before it returned: what the loop checks
 * after a hook, then the next one, inside done().
 * @param {Reply} reply
 * @param {unknown} value
 */
function payloadHookDone (reply, value) {
  if (reply._done || (reply._stopWhenSent && reply.sent)) {
    reply._payload = undefined
    return
  }
  continuePayloadHooks(reply, value === reply ? undefined : value)
}

/**
 * @param {Reply} reply
 * @param {unknown} value  what the parked hook resolved to
 */
function continuePayloadHooks (reply, value) {
  const payload = value === undefined ? reply._payload : value
  reply._payload = undefined
  const fail = /** @type {Failure} */ (reply._hookFail)
  try {
    runPayloadHooks(reply, /** @type {Function[]} */ (reply._hooks), reply._hookIndex, payload, /** @type {any} */ (reply._next), reply._stopWhenSent, fail)
  } catch (err) {
    // what comes after the hooks threw (the writer refusing a payload):
    // thrown synchronously it reaches the code that sent; here it has no
    // caller but the promise, so it takes the hooks' failure path
    fail(reply, err)
  }
}

/**
 * A parked hook's promise rejected: its chain's failure function gets the
 * reason, or an EmptyRejection for a rejection with nothing, as Fastify's
 * hook runners make one.
 * @param {Reply} reply
 * @param {unknown} err
 */
function hookRejected (reply, err) {
  /** @type {Failure} */ (reply._hookFail)(reply, err || new EmptyRejection())
}

/**
 * Runs hooks that only observe (onResponse, onTimeout, onRequestAbort):
 * nobody waits for them, and their errors are logged, never answered.
 * @param {Function[]} hooks
 * @param {any} instance
 * @param {import('./request.js').Request} req
 * @param {Reply} reply
 * @param {number} [i]
 */
export function runDetached (hooks, instance, req, reply, i = 0) {
  for (; i < hooks.length; i++) {
    let r
    try {
      r = hooks[i].call(instance, req, reply)
    } catch (err) {
      req.log.error({ err }, 'hook failed')
      continue
    }
    if (isThenable(r)) {
      const next = i + 1
      r.then(
        () => runDetached(hooks, instance, req, reply, next),
        (err) => {
          req.log.error({ err }, 'hook failed')
          runDetached(hooks, instance, req, reply, next)
        }
      )
      return
    }
  }
}

/**
 * The reply is settled: nothing more will be written by the lifecycle, and
 * the request timeout no longer watches it.
 * @param {Reply} reply
 */
export function markDone (reply) {
  reply._done = true
  reply._sent = true
  if (reply._tracked) reply.route.app.inFlight.untrack(reply)
  if (reply._waiters !== null) settleWaiters(reply, reply._waiters)
}

/**
 * Those that awaited the reply (reply.then()) go on.
 * @param {Reply} reply
 * @param {Function[]} waiters
 */
function settleWaiters (reply, waiters) {
  reply._waiters = null
  for (const fn of waiters) {
    try {
      fn()
    } catch (err) {
      reply.request.log.error({ err }, 'a callback given to reply.then() threw')
    }
  }
}
