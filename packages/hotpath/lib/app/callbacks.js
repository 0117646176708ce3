// How the callback forms of ready(), close() and inject() call their
// callback: outside the promise chain.

/**
 * Fastify's callback forms (ready, listen, close, inject): the callback
 * runs on its own tick, outside the promise chain, so that a throw in it
 * (a failed assertion in a test) is an exception of its own, not a
 * rejection nobody handles.
 * @param {Promise<any>} promise
 * @param {Function} callback
 * @param {any} self
 * @param {boolean} withValue  callback(null, value) rather than callback(null)
 */
export function settleTo (promise, callback, self, withValue) {
  promise.then(
    (value) => process.nextTick(() => withValue ? callback.call(self, null, value) : callback.call(self, null)),
    (err) => process.nextTick(() => callback.call(self, err))
  )
}

/**
 * ready(cb): cb(null, instance) or cb(err) in the same turn as the promises
 * of the ready() calls made before it, so that callbacks and promises settle
 * in the order ready() was called, as in Fastify; a throw in cb is an
 * exception of its own, not a rejection nobody handles.
 * @param {Promise<any>} promise
 * @param {Function} callback
 * @param {any} self
 */
export function settleInOrder (promise, callback, self) {
  /** @param {unknown[]} args */
  const call = (...args) => {
    try {
      callback.apply(self, args)
    } catch (err) {
      process.nextTick(() => { throw err })
    }
  }
  promise.then((value) => call(null, value), (err) => call(err))
}
