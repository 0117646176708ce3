// The reply object handed to hooks and handlers. Every field is assigned in
// the constructor, in one order; the kernel (../lifecycle/kernel.js) parks a
// request's position in the `_` fields when it goes async.
import { sendPayload, serializeFor } from './send.js'
import { createError } from '../errors.js'
import { unpark, markDone } from '../lifecycle/kernel.js'
import { ensureFinishListener } from '../lifecycle/finish.js'
import { dispatching, adoptReply } from '../lifecycle/request-trace.js'
import { getSerializationFunction, compileSerializationSchema, serializeInput } from './schema-serializers.js'
import { mediaType } from '../lifecycle/parsers/content-type.js'
import { FORBIDDEN_TRAILERS } from './trailers.js'
import { lowerCaseName } from './header-name.js'
import { kRouteContext } from '../fastify-internals/symbols.js'
import { reasonPhrase } from '../status.js'

export class Reply {
  /**
   * @param {import('../engines/engine.js').ResponseHandle} res
   * @param {import('../lifecycle/request.js').Request} request
   * @param {import('../routing/route.js').Route} route
   */
  constructor (res, request, route) {
    /** the engine's response handle (../engines/engine.js, ResponseHandle) */
    this._res = res
    /** @type {any} node:http's response for this request, once something asked for it (raw) */
    this._raw = null
    this.request = request
    this.route = route
    /** the status while nothing asked for `raw`; then node's object holds it (statusCode) */
    this._status = 200
    /** true once send() was called (or the reply hijacked); read as `sent` */
    this._sent = false
    /** @type {Record<string, string | number | string[]> | null} */
    this._headers = null
    /** @type {string | null} */
    this._contentType = null
    this._done = false
    this._erroring = false
    /** the onError hooks are running: send() is refused there, as in Fastify */
    this._inOnError = false
    /** @type {unknown} the error being answered */
    this._error = null
    /** the next of the route's error handlers (route.errorHandlers) to call */
    this._errorHandlerIndex = 0
    this._aborted = false
    this._tracked = false
    this._since = 0
    /** @type {Reply | null} */
    this._older = null
    /** @type {Reply | null} */
    this._newer = null
    this._listening = false
    /** @type {ReturnType<typeof setTimeout> | null} the route's handlerTimeout timer, on routes that have one */
    this._timer = null
    this._startTime = route.timesReply ? performance.now() : 0
    /** @type {import('../lifecycle/kernel.js').Continuation | null} where a parked request goes on */
    this._onValue = null
    /** @type {import('../lifecycle/kernel.js').Failure | null} where a parked request's failure goes */
    this._onError = null
    /** @type {Function[] | null} */
    this._hooks = null
    this._hookIndex = 0
    /** @type {Function | null} the continuation after the parked hook chain */
    this._next = null
    /** @type {import('../lifecycle/kernel.js').Failure | null} where the parked hook chain's failure goes */
    this._hookFail = null
    /** @type {unknown} */
    this._payload = undefined
    this._stopWhenSent = false
    /** @type {import('../lifecycle/parsers/table.js').Parser | null} */
    this._parser = null
    /** the body is being read (the request timeout then blames the client) */
    this._readingBody = false
    /** @type {((value: unknown) => void) | null} */
    this._onResolve = null
    /** @type {((err: unknown) => void) | null} */
    this._onReject = null
    /** @type {import('../lifecycle/tracing.js').HandlerTrace | null} the handler's tracing message, when the handler channel has subscribers */
    this._trace = null
    /** @type {Function[] | null} who awaits the reply (then()), called once it is settled */
    this._waiters = null
    /** @type {Record<string, import('./trailers.js').TrailerFn | undefined> | null} reply.trailer()'s, once one is declared */
    this._trailers = null
    /** @type {((payload: any) => string) | null} reply.serializer()'s */
    this._serializer = null
    /** hijack() was called: the response is user code's */
    this._hijacked = false
    /** @type {import('../lifecycle/request-trace.js').RequestTrace | null} the hotpath.request message, when the request is traced */
    this._requestTrace = null
    // made during a traced dispatch: the reply joins the trace (the one
    // check the request channel costs a reply)
    if (dispatching !== null) adoptReply(dispatching, this)
  }

  /** @param {number} statusCode */
  code (statusCode) {
    if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) statusCode = badStatusCode(this, statusCode)
    this.statusCode = statusCode
    return this
  }

  /**
   * The status; once `raw` was asked for, node's object holds it, as on
   * Fastify: code that sets it there (Express's res.status(), connect
   * middleware) sets the reply's, and reply.code() sets node's.
   */
  get statusCode () { return this._raw === null ? this._status : this._raw.statusCode }
  set statusCode (code) {
    this._status = code
    if (this._raw !== null) this._raw.statusCode = code
  }

  /** @param {number} statusCode */
  status (statusCode) {
    return this.code(statusCode)
  }

  /**
   * @param {string} name
   * @param {string | number | readonly string[]} value
   */
  header (name, value) {
    const key = lowerCaseName(name)
    if (key === 'content-type') {
      this._contentType = String(value)
      return this
    }
    const headers = this._headers ?? (this._headers = {})
    if (key === 'set-cookie' && headers[key] !== undefined) {
      const prev = headers[key]
      headers[key] = (Array.isArray(prev) ? prev : [String(prev)]).concat(Array.isArray(value) ? value : [String(value)])
    } else if (key === 'vary' && headers[key] !== undefined) {
      headers[key] = addVary(String(headers[key]), Array.isArray(value) ? value.join(', ') : String(value))
    } else {
      headers[key] = /** @type {string | number | string[]} */ (value)
    }
    return this
  }

  /** @param {Record<string, string | number | readonly string[]>} headers */
  headers (headers) {
    for (const name of Object.keys(headers)) this.header(name, headers[name])
    return this
  }

  /**
   * The reply's header, or one set on `reply.raw` (by user code or a
   * middleware) that the reply does not override: both go out.
   * @param {string} name
   */
  getHeader (name) {
    const key = lowerCaseName(name)
    const own = key === 'content-type' ? this._contentType ?? undefined : this._headers === null ? undefined : this._headers[key]
    // the length hotpath measured is a number, the engines' to write;
    // read back, it is the string Fastify's reply holds
    if (typeof own === 'number' && key === 'content-length') return String(own)
    if (own !== undefined || this._raw === null) return own
    return this._raw.getHeader(key)
  }

  /** @param {string} name */
  hasHeader (name) {
    return this.getHeader(name) !== undefined
  }

  /** @param {string} name */
  removeHeader (name) {
    const key = lowerCaseName(name)
    if (key === 'content-type') this._contentType = null
    else if (this._headers !== null && this._headers[key] !== undefined) delete this._headers[key]
    if (this._raw !== null && !this._raw.headersSent) this._raw.removeHeader(key)
    return this
  }

  /**
   * Declares a trailer field (RFC 9110 §6.5), computed once the body has
   * gone: `fn(reply, payload, done)` answers through `done(err, value)` or
   * the promise it returns. The response is then sent chunked, with a
   * Trailer header that names its trailers.
   * @param {string} name
   * @param {import('./trailers.js').TrailerFn} fn
   */
  trailer (name, fn) {
    const key = name.toLowerCase()
    if (FORBIDDEN_TRAILERS.has(key)) throw this.route.app.error('HP_ERR_BAD_TRAILER_NAME', key)
    if (typeof fn !== 'function') throw this.route.app.error('HP_ERR_BAD_TRAILER_VALUE', key, typeof fn)
    if (this._trailers === null) this._trailers = {}
    this._trailers[key] = fn
    return this
  }

  /** @param {string} name */
  hasTrailer (name) {
    return this._trailers !== null && this._trailers[name.toLowerCase()] !== undefined
  }

  /** @param {string} name */
  removeTrailer (name) {
    if (this._trailers !== null) this._trailers[name.toLowerCase()] = undefined
    return this
  }

  getHeaders () {
    /** @type {Record<string, string | number | string[]>} */
    const out = this._raw === null ? { ...this._headers } : { ...this._raw.getHeaders(), ...this._headers }
    if (this._contentType !== null) out['content-type'] = this._contentType
    if (typeof out['content-length'] === 'number') out['content-length'] = String(out['content-length'])
    return out
  }

  /** @param {string} contentType */
  type (contentType) {
    this._contentType = contentType
    return this
  }

  /**
   * The Content-Type set so far without its parameters, lower case;
   * undefined when none is set or it is not a media type.
   */
  get mediaType () {
    const type = this._contentType
    return type === null ? undefined : mediaType(type) ?? undefined
  }

  /**
   * The JSON text send() would make of `payload` for the current status:
   * reply.serializer()'s, else setReplySerializer()'s, else the route's
   * response serializer, else JSON.stringify (Fastify's reply.serialize).
   * @param {unknown} payload
   * @returns {string | undefined}
   */
  serialize (payload) {
    if (this._serializer !== null) return this._serializer(payload)
    const own = this.route.replySerializer
    return own !== null ? own(payload, this.statusCode) : serializeFor(this.route, this.statusCode, payload, this._contentType)
  }

  /**
   * The serializer of this reply's JSON payloads (and of a string sent with
   * a Content-Type of its own), in place of the route's.
   * @param {(payload: any) => string} fn
   */
  serializer (fn) {
    this._serializer = fn
    return this
  }

  /** @param {unknown} [payload] */
  send (payload) {
    sendPayload(this, payload)
    return this
  }

  /**
   * redirect(url, [code]) or redirect(code, url); without a code, the status
   * set before (other than the default 200), else 302.
   * @param {string | number} a
   * @param {string | number} [b]
   */
  redirect (a, b) {
    const url = typeof a === 'string' ? a : /** @type {string} */ (b)
    const code = typeof a === 'number' ? a : typeof b === 'number' ? b : this.statusCode !== 200 ? this.statusCode : 302
    this.code(code)
    this.header('location', url)
    return this.send()
  }

  /**
   * Answers as if no route had matched, as Fastify's reply.callNotFound()
   * does: the reply goes over to the not-found route of the deepest prefix
   * that holds the request's path, whose preHandler hooks and handler run
   * (its default answers the 404); what the route's own handler was waiting
   * on no longer continues the request. Inside a not-found handler, a
   * plain-text 404, so it cannot call itself.
   */
  callNotFound () {
    if (this.route.notFound) {
      this.request.log.warn('Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.')
      this.code(404).send('404 Not Found')
      return this
    }
    const route = this.route.app.routes.notFoundRoute(this.request.url, this.request.method)
    unpark(this)
    this.route = route
    // the request is the not-found route's from now on, as in Fastify:
    // request.is404, routeOptions (no url: metrics label it as unmatched)
    // and server are its
    this.request.route = route
    route.enterHandler(this)
    return this
  }

  /**
   * Sends a 103 Early Hints interim response (RFC 8297), such as `link`
   * preloads, ahead of the final one, through node:http's
   * writeEarlyHints(); inject sends none. The callback is called either way.
   * @param {Record<string, string | string[]>} hints
   * @param {() => void} [callback]
   */
  writeEarlyHints (hints, callback) {
    this.raw.writeEarlyHints(hints, callback)
    return this
  }

  /**
   * Takes the response out of hotpath's hands; user code writes to
   * `reply.raw` (or the socket) itself.
   */
  hijack () {
    this._hijacked = true
    if (!this._done) markDone(this)
    if (this._timer !== null) {
      clearTimeout(this._timer)
      this._timer = null
    }
    return this
  }

  /** The route's options, as request.routeOptions (Fastify's reply.routeOptions). */
  get routeOptions () {
    return this.request.routeOptions
  }

  /**
   * A reply is a thenable, as Fastify's: `await reply` in a handler that
   * sends from elsewhere (a timer, a decorator) waits until the answer has
   * been handed to the engine, or the client has gone, or the request
   * timed out. Only a reply awaited pays for this: the first waiter asks the
   * engine to report the end of the response (a client that goes away
   * settles it too).
   * @param {(() => void) | undefined} [fulfilled]
   * @param {unknown} [_rejected]  never called: every way a reply ends fulfils it
   */
  then (fulfilled, _rejected) {
    if (typeof fulfilled !== 'function') return
    if (this._done) {
      fulfilled()
      return
    }
    if (this._waiters === null) {
      this._waiters = []
      ensureFinishListener(this)
    }
    this._waiters.push(fulfilled)
  }

  /**
   * node:http's ServerResponse for this request: itself on the node engine;
   * on wire and under inject a compatible Writable built on this first read
   * (../engines/compat/response.js), so a route that never reads it allocates
   * nothing for it. Headers set on it are part of the reply.
   * @returns {import('node:http').ServerResponse & { req: import('node:http').IncomingMessage }}
   */
  get raw () {
    if (this._raw === null) {
      const raw = this._res.compat(this.request)
      // the reply's status (the one sent, when the reply was written first)
      raw.statusCode = this._status
      // and, once sent, its phrase, as node's writeHead leaves it
      if (raw.statusMessage === undefined && raw.headersSent) raw.statusMessage = reasonPhrase(this._status)
      this._raw = raw
    }
    return this._raw
  }

  /** Fastify's reply[kRouteContext]: the route's record, as request[kRouteContext]. */
  get [kRouteContext] () {
    return this.route
  }

  /**
   * True once send() was called (or the reply hijacked). Read-only: to take
   * the response over, hijack().
   */
  get sent () {
    return this._sent
  }

  /** The request's logger, as Fastify's `reply.log` is. */
  get log () {
    return this.request.log
  }

  /** ms since the request started (0 on a route with logging off and nothing that runs at its end, such as onResponse hooks). */
  get elapsedTime () {
    return this._startTime === 0 ? 0 : performance.now() - this._startTime
  }

  /** The instance of the plugin that declared the route (Fastify's reply.server). */
  get server () {
    return this.route.instance
  }

  /**
   * A reply decorator of the route's plugin scope (a function comes bound
   * to this reply); an undeclared one throws.
   * @param {string | symbol} name
   */
  getDecorator (name) {
    if (!this.route.instance.hasReplyDecorator(name)) throw this.route.app.error('HP_ERR_DEC_UNDECLARED', String(name), 'reply')
    const value = /** @type {any} */ (this)[name]
    return typeof value === 'function' ? value.bind(this) : value
  }

  /**
   * The route's serializer for a status of its response schema, or the one
   * compileSerializationSchema() made for a schema (./schema-serializers.js).
   * @param {object | string | number} schemaOrStatus
   * @param {string} [contentType]
   */
  getSerializationFunction (schemaOrStatus, contentType) {
    return getSerializationFunction(this, schemaOrStatus, contentType)
  }

  /**
   * A serializer for `schema` from the route's serializer compiler, compiled
   * once per route.
   * @param {object} schema
   * @param {string | number | null} [httpStatus]
   * @param {string | null} [contentType]
   */
  compileSerializationSchema (schema, httpStatus, contentType) {
    return compileSerializationSchema(this, schema, httpStatus, contentType)
  }

  /**
   * `input` serialized by the route's serializer for a status, or by one
   * compiled for a schema.
   * @param {unknown} input
   * @param {object | string | number} schema
   * @param {string | number} [httpStatus]
   * @param {string} [contentType]
   */
  serializeInput (input, schema, httpStatus, contentType) {
    return serializeInput(this, input, schema, httpStatus, contentType)
  }
}

/**
 * A status code that is not an integer from 100 to 599: refused, unless
 * under errorFormat 'fastify' it is what Fastify's reply.code() takes (a
 * number, or a string of one, in that range, its fraction dropped as
 * node:http drops it: 404.5 answers 404).
 * @param {Reply} reply
 * @param {unknown} statusCode
 * @returns {number}
 */
function badStatusCode (reply, statusCode) {
  const app = reply.route.app
  if (app.fastifyErrors) {
    const n = Number(statusCode)
    if (n >= 100 && n <= 599) return Math.trunc(n)
  }
  throw app.error('HP_ERR_BAD_STATUS_CODE', String(statusCode))
}

/**
 * Vary lists the request fields a response depends on (RFC 9110 §12.5.5):
 * a second value adds its fields to the first, once each, rather than
 * replacing it (cors sets `Origin`, compression `Accept-Encoding`); `*`
 * stands for all of them.
 * @param {string} current
 * @param {string} added
 */
function addVary (current, added) {
  if (current.trim() === '*') return current
  const fields = current.split(',').map((f) => f.trim()).filter((f) => f !== '')
  const seen = new Set(fields.map((f) => f.toLowerCase()))
  for (const raw of added.split(',')) {
    const f = raw.trim()
    if (f === '*') return '*'
    if (f !== '' && !seen.has(f.toLowerCase())) {
      seen.add(f.toLowerCase())
      fields.push(f)
    }
  }
  return fields.join(', ')
}

