// app.server's 'request' listener, and the requests that reach it.
//
// On Fastify, app.server has one 'request' listener, the app: code that
// attaches to the server (socket.io, engine.io) saves
// `server.listeners('request')`, removes them, and installs its own, which
// answers its path and hands every other request to the saved ones.
// Instrumentations that see node:http's requests by wrapping
// `http.Server.prototype.emit` (OpenTelemetry's instrumentation-http, APM
// agents) start their server span when a server emits 'request', run the
// listeners in its context, and end the span at the response's 'close'.
//
// Every engine's server carries the app as that one listener. The node
// engine's requests come through it (node:http emits them). wire and h2
// call the core themselves while the server's listeners are the app's
// alone and the emit is node's own: one comparison each per request. Once
// either is not, they emit 'request' with node:http's objects (wire's
// from ./compat/, h2's node:http2 compat objects), built only then, and
// the app's listener, called by whoever calls it, goes on into the core
// with the engine's own pair behind them. inject has no server: while the
// emit is wrapped it emits its requests on an emitter of its own.
import http from '../node-http.js'
import { EventEmitter } from 'node:events'
import { CompatRequest } from './compat/request.js'
import { CompatResponse } from './compat/response.js'
import { foreignRequest, foreignResponse } from './foreign.js'
import { errorAnswer } from '../reply/error-body.js'

/** node's emit, as http.Server inherits it, taken when hotpath loads */
export const originalEmit = EventEmitter.prototype.emit

/** where the instrumentations put their wrapper (https.Server has its own) */
export const httpServerPrototype = http.Server.prototype

/**
 * What the core's `owner` gives the compat objects until the core asks for
 * them with its own request (ResponseHandle.compat): a log for what an
 * instrumentation's listener throws.
 * @type {import('./compat/guarded-emit.js').Owner}
 */
export const UNOWNED = {
  log: {
    error (obj, msg) {
      process.emitWarning(`hotpath: ${msg}: ${String(/** @type {any} */ (obj).err?.stack ?? /** @type {any} */ (obj).err)}`)
    }
  }
}

/**
 * Hands one request to the emit of `prototype` (node's own, or an
 * instrumentation's wrapper), on `target`, the 'request' emitter (wire:
 * app.server; inject: an emitter of its own) whose listeners include, or
 * wrap, the app's (`continueIntoCore`), which calls the core with the
 * engine's own pair.
 * @param {{ emit: Function }} prototype
 * @param {EventEmitter} target
 * @param {{ compat: (owner: import('./compat/guarded-emit.js').Owner) => any }} res  the engine's ResponseHandle
 */
export function emitRequest (prototype, target, res) {
  const cres = res.compat(UNOWNED)
  prototype.emit.call(target, 'request', cres.req, cres)
}

/**
 * Whether `server`'s 'request' listeners are `listener` alone: an
 * EventEmitter keeps a lone listener as the function itself (two or more
 * as an array), so this is one property read and one comparison, and
 * nothing is allocated (`listeners()` would copy).
 * @param {import('node:events').EventEmitter} server
 * @param {Function} listener
 */
export function listenersAreOnly (server, listener) {
  return /** @type {any} */ (server)._events.request === listener
}


/**
 * The app as app.server's 'request' listener: what code that saved it
 * calls with node:http's objects. wire's compat objects (and inject's) go
 * on as the engine's record and ResponseHandle behind them; an engine's
 * own objects (h2's compat pair, node's) as they are; a pair made
 * elsewhere (node:http's, from another server) as app.routing() takes it.
 * A response already answered, or already handed to the core, is not
 * routed again: a second answer would fail, so it is left alone and the
 * fact is logged. Before ready() the answer is 503, as the engines give
 * their own requests.
 * @param {{ handler: ((raw: any, res: any) => void) | null }} engine
 * @returns {(req: any, res: any) => void}
 */
export function continueIntoCore (engine) {
  return function hotpath (req, res) {
    const own = req instanceof CompatRequest && res instanceof CompatResponse
    const raw = own ? req._record : foreignRequest(req)
    const handle = own ? /** @type {any} */ (res).res : isHandle(res) ? res : foreignResponse(res)
    // a pair given to the listener twice (a wrapper that calls the saved
    // listeners twice, or the app saved twice) is routed once; a field of
    // the engine's response, not a WeakSet (~0.5 µs a request on node,
    // where every request comes through here)
    // (the compat response's head is made at once, its bytes reach the
    // engine at the end of the tick: its own headersSent says it first)
    const answered = handle.headersSent || (own && res.headersSent)
    if (answered || handle.routedByApp) return notRoutedAgain(req, answered)
    handle.routedByApp = true
    const handler = engine.handler
    if (handler === null) {
      const answer = errorAnswer('HP_ERR_NOT_READY')
      handle.respond(answer.status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }, answer.body)
      return
    }
    handler(raw, handle)
  }
}

/**
 * An engine's ResponseHandle (../engine.js) that is also node's response:
 * the node engine's and h2's compat response.
 * @param {any} res
 */
function isHandle (res) {
  return typeof res.respond === 'function' && typeof res.respondStream === 'function' && typeof res.onEnd === 'function' && typeof res.compat === 'function'
}

/**
 * The app's listener was given a request someone else answered (a
 * listener before it), or one it already took: it leaves the request
 * alone, and says so (a process warning: no request of the app's owns it).
 * @param {{ method?: string, url?: string }} req
 * @param {boolean} answered
 */
export function notRoutedAgain (req, answered) {
  const why = answered ? 'had already been answered by another listener' : 'had already been handed to the app'
  process.emitWarning(`hotpath: ${req.method} ${req.url} reached app.server's 'request' listener, but ${why}; it was not routed again`, { code: 'HP_ERR_REP_ALREADY_SENT' })
}
