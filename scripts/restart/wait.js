// Small waits the soak needs: a pause between restarts, a deadline for a
// step that must not hang the run.

/** @param {number} ms */
export function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Rejects with `what` timed out after `ms` unless `promise` settles first.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what
 * @returns {Promise<T>}
 */
export function withTimeout (promise, ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer
  const deadline = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  return /** @type {Promise<T>} */ (Promise.race([promise, deadline]).finally(() => clearTimeout(timer)))
}
