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
import { writeFixedError, writeFixedBody } from '../reply/last-resort.js'
import { writeOverloaded } from '../app/load-monitor.js'
import { refusedBeforeRouting } from '../lifecycle/request-trace.js'

const FASTIFY_ASYNC_CONSTRAINT_BODY = '{"error":"Internal Server Error","message":"Unexpected error from async constraint","statusCode":500}'

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
  // the request-target's own limit (maxUrlLength; Infinity when it has none)
  if (url.length > core.urlLimit) {
    refusedBeforeRouting(414, 'HP_ERR_URL_TOO_LONG', raw)
    writeFixedError(res, createError('HP_ERR_URL_TOO_LONG', core.urlLimit), true)
    return
  }
  const table = core.routes
  // Paths requested exactly as declared skip the router: one Map lookup
  // instead of a tree walk and a result object (~30 ns vs ~70-150 ns).
  const entry = table.exact.get(url)
  const route = entry === undefined ? undefined : entry[method]
  if (route !== undefined) {
    start(core, raw, res, route, {})
  } else if (table.asyncConstrained) {
    lookupAsync(core, raw, res)
  } else {
    routeFound(core, raw, res, table.constrained
      ? table.router.find(/** @type {any} */ (method), url, table.deriveConstraints(raw))
      : table.router.find(/** @type {any} */ (method), url))
  }
}

/**
 * The entry point of an app with Fastify's rewriteUrl: the URL the request
 * is routed by is the one it returns; the one received stays in
 * `originalUrl`.
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 */
export function dispatchRewritten (core, raw, res) {
  const original = raw.url
  // refused before the app's code sees them, as without rewriteUrl
  if (core.overloaded || original.length > core.urlLimit) {
    dispatch(core, raw, res)
    return
  }
  raw.originalUrl = original
  /** @type {unknown} */
  let url
  try {
    url = /** @type {Function} */ (core.rewriteUrl).call(core.root.instance, raw)
  } catch (err) {
    failBeforeRouting(core, raw, res, err)
    return
  }
  if (typeof url !== 'string') {
    const err = core.error('HP_ERR_ROUTE_REWRITE_NOT_STR', original, typeof url)
    const socket = /** @type {any} */ (raw.socket)
    // Fastify destroys the request: no answer, the connection ends
    if (core.fastifyErrors && typeof socket.destroy === 'function') {
      core.logger?.error({ err }, err.message)
      socket.destroy()
    } else {
      failBeforeRouting(core, raw, res, err)
    }
    return
  }
  raw.url = url
  dispatch(core, raw, res)
}

/**
 * The lookup of an app with an asynchronous constraint strategy: the
 * request waits for the derived values, then goes on as any other.
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 */
function lookupAsync (core, raw, res) {
  const table = core.routes
  table.constrainer.deriveConstraints(raw, undefined, (/** @type {Error | null} */ err, /** @type {any} */ constraints) => {
    if (err !== null) {
      if (core.fastifyErrors && core.frameworkErrors === null) {
        // Fastify's own answer to it: a fixed body, with no code, and no
        // hook or error handler run
        writeFixedBody(res, 500, FASTIFY_ASYNC_CONSTRAINT_BODY, false, 'application/json')
        return
      }
      routerEvent(core, raw, res, core.error('HP_ERR_ASYNC_CONSTRAINT'), null, '')
      return
    }
    let found
    try {
      found = table.router.find(/** @type {any} */ (raw.method), raw.url, constraints)
    } catch (e) {
      failBeforeRouting(core, raw, res, e)
      return
    }
    routeFound(core, raw, res, found)
  })
}

/**
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {any} found  find-my-way's result
 */
function routeFound (core, raw, res, found) {
  if (found === null) {
    const own = core.routerEvents.defaultRoute
    if (own === null) {
      start(core, raw, res, core.routes.notFoundRoute(raw.url, raw.method), {})
    } else {
      const reply = eventReply(core, raw, res, false)
      reply.hijack()
      try {
        own(reply.raw.req, reply.raw)
      } catch (err) {
        rawHandlerFailed(reply, err)
      }
    }
  } else if (found.store === null) {
    // find-my-way's onBadUrl or onMaxParamLength: the handler says which
    const event = /** @type {{ code: string, path: string }} */ (found.handler(raw, res))
    const events = core.routerEvents
    const own = event.code === 'HP_ERR_BAD_URL' ? events.onBadUrl : events.onMaxParamLength
    const err = core.error(event.code, event.path)
    if (own === null && core.fastifyErrors && core.frameworkErrors === null) {
      // Fastify's own answer to it (its onBadUrl and onMaxParamLength): a
      // fixed body, 'Bad Request' whatever the status, as application/json,
      // and no hook, error handler or log line
      writeFixedBody(res, err.statusCode, JSON.stringify({ error: 'Bad Request', code: err.code, message: err.message, statusCode: err.statusCode }), false, 'application/json')
      return
    }
    routerEvent(core, raw, res, err, own, event.path)
  } else {
    start(core, raw, res, /** @type {import('./route.js').Route} */ (found.store), found.params)
  }
}

/**
 * Builds the Request and Reply of `route` and starts its lifecycle.
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {import('./route.js').Route} route
 * @param {Record<string, string>} params
 */
function start (core, raw, res, route, params) {
  const req = new route.Request(raw, params, route)
  const reply = new route.Reply(res, req, route)
  req.reply = reply
  if (route.trackFinish) ensureFinishListener(reply)
  if (route.handlerTimeout > 0) startHandlerTimer(reply, route.handlerTimeout)
  if (route.logIncoming) logIncoming(req)
  if (route.onRequest === null) {
    bodyStage(reply)
  } else {
    runHooks(reply, route.onRequest, 0, bodyStage, stageFailed)
  }
  // Anything not answered synchronously is bounded by the request timeout.
  if (!reply._done) core.inFlight.track(reply)
}

/**
 * An error found before any route could be (a malformed path, a parameter
 * over maxParamLength, a failed asynchronous constraint): the app's own
 * handler of node:http's objects for it (onBadUrl, onMaxParamLength), else
 * its frameworkErrors, else the answer of the table, through the root
 * not-found route's error handling.
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {import('../errors.js').HttpError} err
 * @param {((path: string, req: any, res: any) => void) | null} own
 * @param {string} path
 */
function routerEvent (core, raw, res, err, own, path) {
  if (own !== null) {
    const reply = eventReply(core, raw, res, false)
    reply.hijack()
    try {
      own(path, reply.raw.req, reply.raw)
    } catch (e) {
      rawHandlerFailed(reply, e)
    }
    return
  }
  const handler = core.frameworkErrors
  if (handler === null) {
    failBeforeRouting(core, raw, res, err)
    return
  }
  // as Fastify: the request logged as it arrives, then the app's handler
  const reply = eventReply(core, raw, res, true)
  try {
    const result = /** @type {any} */ (handler(err, reply.request, reply))
    // an async handler that rejects: answered as an error, never left unhandled
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') result.then(null, (/** @type {unknown} */ e) => handleError(reply, e))
  } catch (e) {
    handleError(reply, e)
  }
  if (!reply._done) core.inFlight.track(reply)
}

/**
 * A handler of node:http's objects (defaultRoute, onBadUrl,
 * onMaxParamLength) threw: logged, and answered 500 if it wrote nothing.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {unknown} err
 */
function rawHandlerFailed (reply, err) {
  reply.request.log.error({ err }, 'request failed')
  writeFixedError(reply._res, createError('HP_ERR_INTERNAL'), false)
}

/**
 * Answers `err` through the root not-found route's error handling.
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {unknown} err
 */
function failBeforeRouting (core, raw, res, err) {
  const reply = eventReply(core, raw, res, false)
  handleError(reply, err)
  if (!reply._done) core.inFlight.track(reply)
}

/**
 * The Request and Reply of the root not-found route, for a request that
 * reaches no route, with no lifecycle started.
 * @param {import('../app/core.js').Core} core
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 * @param {boolean} framework  for frameworkErrors: Fastify logs the request as it arrives, and not its completion
 */
function eventReply (core, raw, res, framework) {
  const route = core.routes.notFoundRoute('/', raw.method)
  const req = new route.Request(raw, {}, route)
  const reply = new route.Reply(res, req, route)
  req.reply = reply
  if (route.trackFinish && !(framework && core.fastifyLogs)) ensureFinishListener(reply)
  if (route.logIncoming) logIncoming(req)
  return reply
}
