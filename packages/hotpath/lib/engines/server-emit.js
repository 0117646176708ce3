// Instrumentations that see node:http's requests by wrapping
// `http.Server.prototype.emit` (OpenTelemetry's instrumentation-http, APM
// agents) start their server span when a server emits 'request', run the
// listener in its context, and end the span at the response's 'close'.
// wire and inject have no http.Server: while that emit is wrapped, they
// hand each request to it, as node:http would, with the node:http-like
// objects of ./compat.js, and the listener goes on into the core. While it
// is node's own, the request path pays one comparison (the engines').
import http from '../node-http.js'
import { EventEmitter } from 'node:events'

/** node's emit, as http.Server inherits it, taken when hotpath loads */
export const originalEmit = EventEmitter.prototype.emit

/** where the instrumentations put their wrapper (https.Server has its own) */
export const httpServerPrototype = http.Server.prototype

/**
 * What the core's `owner` gives the compat objects until the core asks for
 * them with its own request (ResponseHandle.compat): a log for what an
 * instrumentation's listener throws.
 * @type {import('./compat.js').Owner}
 */
export const UNOWNED = {
  log: {
    error (obj, msg) {
      process.emitWarning(`hotpath: ${msg}: ${String(/** @type {any} */ (obj).err?.stack ?? /** @type {any} */ (obj).err)}`)
    }
  }
}

/**
 * Hands one request to the wrapped emit of `prototype`, on `target`, the
 * 'request' emitter (wire: app.server; inject: an emitter of its own) whose
 * listener (`continueIntoCore`) calls the core with the engine's own pair.
 * @param {{ emit: Function }} prototype
 * @param {EventEmitter} target
 * @param {{ compat: (owner: import('./compat.js').Owner) => any }} res  the engine's ResponseHandle
 */
export function emitRequest (prototype, target, res) {
  const cres = res.compat(UNOWNED)
  prototype.emit.call(target, 'request', cres.req, cres)
}

/**
 * The 'request' listener that hands the pair back to the core: the
 * engine's record and ResponseHandle behind the compat objects.
 * @param {{ handler: ((raw: any, res: any) => void) | null }} engine
 * @returns {(req: any, res: any) => void}
 */
export function continueIntoCore (engine) {
  return (req, res) => /** @type {(raw: any, res: any) => void} */ (engine.handler)(req._record, res.res)
}
