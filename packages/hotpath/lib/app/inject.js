// What app.inject() does besides building its chain: its options checked,
// and its request sent through the inject engine (../engines/inject/) once
// the app is ready, or refused once close() has begun.
import { createError } from '../errors.js'
import { invalidOption } from '../engines/inject/options.js'
import { settleTo } from './callbacks.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

/**
 * @param {any} options
 */
export function checkInjectOptions (options) {
  const invalid = options !== null && typeof options === 'object' ? invalidOption(options) : null
  if (invalid !== null) throw createError('HP_ERR_INVALID_OPTION', invalid[0], invalid[1])
}

/**
 * app.inject()'s request, sent now: the promise of its Response, or
 * callback(err, res).
 * @param {Hotpath} app
 * @param {Record<string, any>} options
 * @param {(err: Error | null, res?: any) => void} [callback]
 * @returns {any}
 */
export function injectNow (app, options, callback) {
  checkInjectOptions(options ?? {})
  const core = app._core
  // once close() has begun, an injected request is refused rather than
  // answered 503, as Fastify refuses it (served while a drain delay runs,
  // as the engines serve theirs)
  const result = core.closePromise !== null && !core.draining
    ? Promise.reject(core.error('HP_ERR_CLOSED'))
    : app.ready().then(() => core.injectEngine.request(options))
  if (typeof callback !== 'function') return result
  settleTo(result, callback, app, true)
  return undefined
}
