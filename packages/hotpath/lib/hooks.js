// Hook names, and the runners every stage of the lifecycle shares. A hook is
// called directly; only when it returns a thenable does this request switch
// to the async path (see resume() in pipeline.js).

export const REQUEST_HOOKS = /** @type {const} */ ([
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization',
  'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort'
])
export const APP_HOOKS = /** @type {const} */ (['onRoute', 'onRegister', 'onReady', 'onListen', 'preClose', 'onClose'])

/** @typedef {typeof REQUEST_HOOKS[number]} RequestHookName */
/** @typedef {typeof APP_HOOKS[number]} AppHookName */

/**
 * @param {unknown} value
 * @returns {value is PromiseLike<unknown>}
 */
export function isThenable (value) {
  return value !== null && typeof value === 'object' && typeof (/** @type {any} */ (value)).then === 'function'
}

/**
 * Runs hooks that only observe (onResponse, onTimeout, onRequestAbort):
 * nobody waits for them, and their errors are logged, never answered.
 * @param {Function[]} hooks
 * @param {any} instance
 * @param {import('./request.js').Request} req
 * @param {import('./reply.js').Reply} reply
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
