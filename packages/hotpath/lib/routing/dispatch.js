// The core's one entry point: the engine calls dispatch once per request.
// It refuses what must not reach a route (the server is overloaded, the
// request-target is too long), finds the route, builds the Request and
// Reply of the route's context and starts the route's lifecycle:
//
//   onRequest → body (preParsing, parse) → validation (preValidation)
//   → handler (preHandler) → send (preSerialization, serialize, onSend)
//   → write → engine → onResponse
//
// docs/architecture.md follows a request through these files.
import { createError } from '../errors.js'
import { runHooks } from '../lifecycle/kernel.js'
import { handleError, stageFailed } from '../lifecycle/handle-error.js'
import { bodyStage } from '../lifecycle/body.js'
import { ensureFinishListener, logIncoming, startHandlerTimer } from '../lifecycle/finish.js'
import { writeFixedError } from '../reply/last-resort.js'
import { writeOverloaded } from '../app/load-monitor.js'

// RFC 9112 §3: servers should accept request-targets of at least 8000
// octets; longer ones get 414 before any routing work.
const MAX_URL_LENGTH = 8192

/**
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 */
export function dispatch (core, raw, res) {
  // The whole per-request cost of overload protection: one boolean.
  if (core.overloaded) {
    writeOverloaded(/** @type {import('../app/load-monitor.js').LoadMonitor} */ (core.loadMonitor), raw, res)
    return
  }
  const method = raw.method
  const url = raw.url
  if (url.length > MAX_URL_LENGTH) {
    writeFixedError(res, createError('HP_ERR_URL_TOO_LONG', MAX_URL_LENGTH), true)
    return
  }
  const table = core.routes
  // Paths requested exactly as declared skip the router: one Map lookup
  // instead of a tree walk and a result object (~30 ns vs ~70-150 ns).
  const entry = table.exact.get(url)
  /** @type {import('./route.js').Route | undefined} */
  let route = entry === undefined ? undefined : entry[method]
  /** @type {Record<string, string>} */
  let params
  let badUrl = false
  if (route !== undefined) {
    params = {}
  } else {
    const found = table.constrained
      ? table.router.find(/** @type {any} */ (method), url, table.deriveConstraints(raw))
      : table.router.find(/** @type {any} */ (method), url)
    if (found === null) {
      route = table.notFoundRoute(url, method)
      params = {}
    } else if (found.store === null) {
      // find-my-way's onBadUrl: a malformed percent-encoding in the path.
      route = table.notFoundRoute('/', method)
      params = {}
      badUrl = true
    } else {
      route = /** @type {import('./route.js').Route} */ (found.store)
      params = /** @type {Record<string, string>} */ (found.params)
    }
  }
  const req = new route.Request(raw, params, route)
  const reply = new route.Reply(res, req, route)
  req.reply = reply
  if (route.trackFinish) ensureFinishListener(reply)
  if (route.handlerTimeout > 0) startHandlerTimer(reply, route.handlerTimeout)
  if (route.logIncoming) logIncoming(req)
  if (badUrl) {
    handleError(reply, core.error('HP_ERR_BAD_URL', url))
  } else if (route.onRequest === null) {
    bodyStage(reply)
  } else {
    runHooks(reply, route.onRequest, 0, bodyStage, stageFailed)
  }
  // Anything not answered synchronously is bounded by the request timeout.
  if (!reply._done) core.inFlight.track(reply)
}
