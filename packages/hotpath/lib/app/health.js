// The `health` route and the `drain` option: what a load balancer or an
// orchestrator needs to take an instance out of rotation before it stops
// (docs/operations.md, "Health and readiness" and "Shutdown").
//
// The health route is answered by the core before overload shedding,
// routing and every hook: a probe is never shed while the process is
// overloaded, and never refused by an application's authentication hook.
// Only an app that sets `health` pays for it, one string comparison per
// request: the engine's handler is then wrapped (as it is for rewriteUrl).
import { createError } from '../errors.js'
import { JSON_TYPE } from '../reply/payload-kind.js'

const OK_BODY = '{"status":"ok"}'
const OVERLOADED_BODY = '{"status":"overloaded"}'
const DRAINING_BODY = '{"status":"draining"}'

/**
 * The `health` option: a path ('/health') or `{ path }`; null when off.
 * @param {unknown} option
 * @returns {string | null}
 */
export function healthPath (option) {
  if (option === undefined || option === null || option === false) return null
  const path = typeof option === 'object' ? /** @type {{ path?: unknown }} */ (option).path : option
  if (typeof path !== 'string' || path[0] !== '/' || /[?#\s]/.test(path)) {
    throw createError('HP_ERR_INVALID_OPTION', 'health', "expected a path such as '/health', or { path }")
  }
  return path
}

/**
 * The `drain` option: the ms the app keeps serving, its health route
 * answering 503, after close() is called and before the listener closes;
 * null when off (close() then closes at once, as Fastify's does).
 * @param {unknown} option
 * @returns {number | null}
 */
export function drainDelay (option) {
  if (option === undefined || option === null || option === false) return null
  if (option === true) return 0
  if (typeof option === 'object' && !Array.isArray(option)) {
    for (const key of Object.keys(option)) {
      if (key !== 'delay') throw createError('HP_ERR_INVALID_OPTION', `drain.${key}`, 'unknown option; drain takes { delay }')
    }
    const delay = /** @type {{ delay?: unknown }} */ (option).delay ?? 0
    if (Number.isInteger(delay) && /** @type {number} */ (delay) >= 0) return /** @type {number} */ (delay)
    throw createError('HP_ERR_INVALID_OPTION', 'drain.delay', 'expected a non-negative integer (ms)')
  }
  throw createError('HP_ERR_INVALID_OPTION', 'drain', 'expected true, false or { delay }')
}

/**
 * The engine's handler for an app with a health route: a GET or HEAD of
 * the path (with any query) is answered here, anything else goes on to
 * `next` (dispatch) as usual.
 * @param {import('./core.js').Core} core
 * @param {string} path
 * @param {import('../engines/engine.js').RequestHandler} next
 * @returns {import('../engines/engine.js').RequestHandler}
 */
export function withHealth (core, path, next) {
  const length = path.length
  return (raw, res) => {
    const url = raw.url
    if (url.startsWith(path) && (url.length === length || url.charCodeAt(length) === 63 /* ? */) && (raw.method === 'GET' || raw.method === 'HEAD')) {
      answerHealth(core, res)
      return
    }
    next(raw, res)
  }
}

/**
 * 200 while the app serves; 503 once close() has begun (the balancer
 * stops sending new requests; those that still come are served). An
 * overloaded process still answers 200, saying so: its overload protection
 * sheds the excess, and a probe that failed every loaded instance at once
 * would move all of their traffic onto the others.
 * @param {import('./core.js').Core} core
 * @param {import('../engines/engine.js').ResponseHandle} res
 */
function answerHealth (core, res) {
  const draining = core.closePromise !== null
  const body = draining ? DRAINING_BODY : core.overloaded ? OVERLOADED_BODY : OK_BODY
  /** @type {import('../engines/engine.js').OutgoingHeaders} */
  const headers = { 'content-type': JSON_TYPE, 'content-length': body.length, 'cache-control': 'no-store' }
  try {
    res.respond(draining ? 503 : 200, headers, body)
  } catch {
    // the socket is gone: nothing to answer
  }
}
