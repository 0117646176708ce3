// A request/response pair made outside hotpath's engines, dispatched
// through the core like any other (app.routing(req, res), Fastify's
// `routing`). @fastify/websocket makes one for each upgrade: the request
// an 'upgrade' listener received (node's IncomingMessage, wire's
// WireRequest, or a plain object for its in-memory injectWS) and a
// ServerResponse it attached to the upgrade's socket. The pair becomes the
// core's RawRequest and ResponseHandle (./engine.js); `request.raw` and
// `reply.raw` stay the objects given, so what the caller stored on them
// is there for its hooks and handlers.
import http from '../node-http.js'
import { Readable } from 'node:stream'
import { NodeRequest, bodyFollows, readBody } from './node/request.js'
import { NodeResponse, handleMethods } from './node/response.js'

/**
 * The RawRequest for a request made elsewhere: an engine's own request is
 * one already; anything else is read through an adapter.
 * @param {any} req
 * @returns {import('./engine.js').RawRequest}
 */
export function foreignRequest (req) {
  if (req instanceof NodeRequest || (typeof req.readBody === 'function' && typeof req.bodyStream === 'function')) {
    // node's parser has made the head by now
    if (req instanceof NodeRequest) req.hasBody = bodyFollows(req.headers)
    return req
  }
  return /** @type {any} */ (new ForeignRequest(req))
}

/**
 * The ResponseHandle for a ServerResponse made elsewhere: it becomes a
 * NodeResponse (the node engine's handle is a ServerResponse subclass whose
 * members only use ServerResponse's API), as Express gives node's objects
 * its own prototypes.
 * @param {import('node:http').ServerResponse} res
 * @returns {import('./engine.js').ResponseHandle}
 */
export function foreignResponse (res) {
  // the engine's own, whatever its prototype is now (Express swaps it)
  if (res instanceof NodeResponse || Object.hasOwn(res, 'engineState')) return /** @type {any} */ (res)
  if (!(res instanceof http.ServerResponse)) throw new TypeError('routing(req, res): res must be an http.ServerResponse')
  // node's own object gets the engine's prototype (Express's helpers among
  // its members); one whose prototype another library chose (Express's
  // app.response) keeps it: the members the core calls are own properties
  if (Object.getPrototypeOf(res) === http.ServerResponse.prototype) Object.setPrototypeOf(res, NodeResponse.prototype)
  const r = /** @type {NodeResponse} */ (res)
  r.engineState = null
  r.endListener = null
  r.endArg = null
  r.routedByApp = false
  Object.assign(r, handleMethods)
  return /** @type {any} */ (r)
}

/** A request that is a readable stream of its body, or a plain object with no body. */
class ForeignRequest {
  /** @param {any} req */
  constructor (req) {
    this.req = req
    this.method = typeof req.method === 'string' ? req.method : 'GET'
    this.url = typeof req.url === 'string' ? req.url : '/'
    /** @type {Record<string, string | string[] | undefined>} */
    this.headers = req.headers ?? {}
    this.httpVersion = typeof req.httpVersion === 'string' ? req.httpVersion : '1.1'
    this.socket = req.socket ?? { remoteAddress: undefined }
    /** a plain object carries no body */
    this.isStream = req instanceof Readable
    this.complete = this.isStream ? req.complete !== false : true
  }

  get hasBody () {
    if (!this.isStream) return false
    const cl = this.headers['content-length']
    if (cl !== undefined) return cl !== '0'
    return this.headers['transfer-encoding'] !== undefined
  }

  /**
   * @param {number} limit
   * @param {(err: any, body?: Buffer) => void} done
   */
  readBody (limit, done) {
    if (!this.isStream) return done(null, Buffer.alloc(0))
    readBody.call(this.req, limit, done)
  }

  bodyStream () {
    return this.isStream ? this.req : Readable.from([])
  }
}
