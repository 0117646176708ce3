// The node engine's ResponseHandle (../engine.js): node:http's
// ServerResponse, subclassed (http.createServer's ServerResponse option) to
// add the members the core answers through. It stays a real ServerResponse.
// The members the core calls are own properties (one shared function
// each, set in the constructor): code that swaps the object's prototype for
// another descendant of node's (Express's app.handle does, for every
// request it handles) leaves them in place.
import http, { STATUS_CODES } from '../../node-http.js'
import { pipeline, Transform } from 'node:stream'
import { abortError } from './request.js'
import { installExpressResponse } from '../express-helpers.js'
import { acceptAssignments } from '../assignable.js'
import { endSource } from '../source.js'
import { connectionTimedOut } from '../engine.js'
import { kOutHeaders } from '../compat/node-state.js'
import { ownHead } from './head.js'

export class NodeResponse extends http.ServerResponse {
  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {any} [options]
   */
  constructor (req, options) {
    // @types/node declares one parameter; node:http passes its options
    // (highWaterMark, rejectNonStandardBodyWrites) as a second
    // @ts-expect-error
    super(req, options)
    /** @type {{ closing: boolean, closeBusy: boolean } | null} the engine's state, set when the request is handed over */
    this.engineState = null
    /** @type {((arg: any, error: Error | null) => void) | null} */
    this.endListener = null
    /** the app's 'request' listener took this response (../server-emit.js): a second call leaves it alone */
    this.routedByApp = false
    /** @type {any} */
    this.endArg = null
    this.respond = respond
    this.respondStream = respondStream
    this.onEnd = onEnd
    this.compat = compat
  }

  /**
   * node:http's, except to an HTTP/1.0 client, which takes no interim
   * response (RFC 9110 §15.2); the callback is called either way.
   * @param {Record<string, string | string[]>} hints
   * @param {() => void} [callback]
   */
  writeEarlyHints (hints, callback) {
    if (this.req.httpVersion !== '1.0') super.writeEarlyHints(hints, callback)
    else if (typeof callback === 'function') process.nextTick(callback)
  }
}

/**
 * @param {number} statusCode
 * @param {import('../engine.js').OutgoingHeaders} headers
 * @param {string | Buffer | null} body
 * @this {NodeResponse}
 */
function respond (statusCode, headers, body) {
  // The app wrote the head itself (reply.raw.writeHead, flushHeaders): it
  // stands, as node:http sends it, and the body follows it
  if (/** @type {any} */ (this)._header) {
    this.end(body)
    return
  }
  if (this.engineState !== null && this.engineState.closeBusy) headers.connection = 'close'
  if (body !== null && headers['content-length'] === undefined) {
    headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  }
  // No header set on the object itself: the head node would write, from
  // checked lines (./head.js), stored as writeHead() stores it
  if (/** @type {any} */ (this)[kOutHeaders] === null) {
    const head = ownHead(this, statusCode, headers)
    if (head !== null) {
      const res = /** @type {any} */ (this)
      res.statusCode = statusCode
      res.statusMessage = STATUS_CODES[statusCode]
      res._contentLength = +headers['content-length']
      res._removedContLen = false
      res._header = head
      res._headerSent = false
      // as below: obs-text in the head goes out as its latin1 bytes (its
      // values are tested, short flat strings: a regex over the joined
      // head would first flatten it, 270 ns on Node 20)
      if (typeof body === 'string' && hasObsText(headers)) body = Buffer.from(body)
      this.end(body)
      return
    }
  }
  // Once a header was set on the object itself, writeHead keeps every one
  // in its table, where code reads them back (getHeader() at 'finish'): the
  // length as the string Fastify sets. Without, node writes the head from
  // the object and keeps none.
  if (/** @type {any} */ (this)[kOutHeaders] !== null && typeof headers['content-length'] === 'number') headers['content-length'] = String(headers['content-length'])
  // One writeHead with every header, then one end(): node:http joins the
  // head and a body given to end() into a single socket write.
  try {
    this.writeHead(statusCode, headers)
  } catch (err) {
    // A refused header (ERR_INVALID_CHAR, ERR_INVALID_HTTP_TOKEN): the
    // failed call left its reason phrase behind, and the fallback 500
    // would go out as "500 OK".
    this.statusMessage = /** @type {any} */ (undefined)
    throw err
  }
  // node:http writes a head joined to a string body in the body's
  // encoding: obs-text in a value (0x80-0xFF, RFC 9110 §5.5) would go
  // out as two UTF-8 bytes, where a head written alone (a Buffer body, a
  // stream) and the wire engine send the one latin1 byte a client reads.
  // With no header set on the object itself, the head holds only the
  // core's few values: a regex each. Once middleware set some (helmet: a
  // dozen, one of 260 characters), the head node made holds them all and
  // is pure ASCII exactly when its UTF-8 length is its length: one native
  // count (a copy of the headers and a regex each cost 3.5 µs there).
  if (typeof body === 'string') {
    const head = /** @type {any} */ (this)._header
    if (/** @type {any} */ (this)[kOutHeaders] === null
      ? hasObsText(headers)
      : typeof head === 'string' && Buffer.byteLength(head) !== head.length) body = Buffer.from(body)
  }
  this.end(body)
}

/**
 * @param {number} statusCode
 * @param {import('../engine.js').OutgoingHeaders} headers
 * @param {import('node:stream').Readable} stream
 * @param {(err: Error | null) => void} done
 * @param {import('../engine.js').TrailerSource | null} [trailers]
 * @this {NodeResponse}
 */
function respondStream (statusCode, headers, stream, done, trailers = null) {
  if (/** @type {any} */ (this)._header) {
    // the head the app wrote stands (as Fastify pipes into it): the body
    // follows it, framed as that head says
    new StreamWriter(this, statusCode, null, stream, done, null)
    return
  }
  if (this.engineState !== null && this.engineState.closeBusy) headers.connection = 'close'
  // The head is written on the stream's first byte, in an event
  // listener where a throw would end the process: refuse a bad header
  // now, as respond() does, with node:http's own checks.
  checkHeaders(headers)
  // Trailers need the chunked coding: none without a body, and none to an
  // HTTP/1.0 client (node:http refuses a Trailer header there)
  if (trailers !== null && (this.req.httpVersion !== '1.1' || this.req.method === 'HEAD' || statusCode === 204 || statusCode === 304)) {
    delete headers.trailer
    trailers = null
  }
  if (this.req.method === 'HEAD' || statusCode === 204 || statusCode === 304) {
    // The head alone (RFC 9110 §9.3.2): the stream is not read, so its
    // length (@fastify/static sends HEAD an empty stream with the file's
    // Content-Length) is never held against the declared one.
    endSource(stream)
    this.writeHead(statusCode, headers)
    this.end()
    done(null)
    return
  }
  new StreamWriter(this, statusCode, headers, stream, done, trailers)
}

/**
 * @template T
 * @param {(arg: T, error: Error | null) => void} listener
 * @param {T} arg
 * @this {NodeResponse}
 */
function onEnd (listener, arg) {
  if (this.closed) {
    // 'close' has fired already (the client left before anyone asked,
    // e.g. req.signal first read after it): report it the way it ended
    listener(arg, this.writableFinished ? null : abortError())
    return
  }
  this.endListener = listener
  this.endArg = arg
  this.on('close', onResClose)
}

/**
 * The ServerResponse itself, for reply.raw and connect middleware.
 * @param {import('../compat/guarded-emit.js').Owner} owner
 * @this {NodeResponse}
 */
function compat (owner) {
  const req = /** @type {any} */ (this.req)
  req._hotpath = owner
  return this
}

/** The members the core calls, for a ServerResponse made elsewhere (../foreign.js). */
export const handleMethods = { respond, respondStream, onEnd, compat }

/**
 * ServerResponse 'close' fires once: after 'finish' when the response was
 * handed to the socket, or alone when the connection went away first.
 * @this {NodeResponse}
 */
function onResClose () {
  const listener = this.endListener
  if (listener === null) return
  const arg = this.endArg
  this.endListener = null
  this.endArg = null
  listener(arg, this.writableFinished ? null : abortError())
}

/**
 * node:http destroyed the response's socket, idle past server.timeout
 * (./index.js): the listener hears it now, in the socket's 'timeout'
 * event, before the client sees the socket close (the route's onTimeout
 * hooks run here, as Fastify runs them on the socket's 'timeout').
 * @param {NodeResponse} res
 */
export function timedOut (res) {
  const listener = res.endListener
  if (listener === null || res.writableFinished) return
  const arg = res.endArg
  res.endListener = null
  res.endArg = null
  listener(arg, connectionTimedOut())
}

const NOT_ASCII = /[^\x00-\x7f]/

/** @param {Record<string, any>} headers */
function hasObsText (headers) {
  for (const name in headers) {
    const v = headers[name]
    if (typeof v === 'number') continue
    if (Array.isArray(v) ? v.some(isNotAscii) : NOT_ASCII.test(v)) return true
  }
  return false
}

/** @param {unknown} v */
function isNotAscii (v) { return NOT_ASCII.test(String(v)) }

/** @param {import('../engine.js').OutgoingHeaders} headers */
export function checkHeaders (headers) {
  for (const name in headers) {
    const v = headers[name]
    http.validateHeaderName(name)
    if (Array.isArray(v)) for (const item of v) http.validateHeaderValue(name, item)
    else http.validateHeaderValue(name, /** @type {any} */ (v))
  }
}

/**
 * Writes the head only once the stream has data (or ended), so a stream
 * that fails before its first byte can still be answered by the error
 * handler; after that, an error destroys the socket.
 */
export class StreamWriter {
  /**
   * @param {import('node:http').ServerResponse} res
   * @param {number} statusCode
   * @param {import('../engine.js').OutgoingHeaders | null} headers  null: the head is written already
   * @param {import('node:stream').Readable} stream
   * @param {(err: Error | null) => void} done
   * @param {import('../engine.js').TrailerSource | null} trailers
   */
  constructor (res, statusCode, headers, stream, done, trailers) {
    this.res = res
    this.statusCode = statusCode
    this.headers = headers
    this.stream = stream
    this.done = done
    this.trailers = trailers
    this.started = false
    this.onReadable = this.onReadable.bind(this)
    this.onEarlyError = this.onEarlyError.bind(this)
    this.onEarlyClose = this.onEarlyClose.bind(this)
    stream.once('readable', this.onReadable)
    stream.once('error', this.onEarlyError)
    res.once('close', this.onEarlyClose)
  }

  onReadable () {
    if (this.started) return
    this.started = true
    this.stream.removeListener('error', this.onEarlyError)
    this.res.removeListener('close', this.onEarlyClose)
    try {
      // (null: the app wrote the head already)
      if (this.headers !== null) this.res.writeHead(this.statusCode, this.headers)
    } catch (err) {
      // a head node:http refuses only now: nothing was sent, so the error
      // handler answers instead (a throw here would end the process)
      endSource(this.stream)
      this.done(/** @type {Error} */ (err))
      return
    }
    let reported = false
    /** @param {Error | null | undefined} err */
    const onDone = (err) => {
      if (reported) return
      reported = true
      // destroyed with the error, as pipeline() destroys it (h2's compat
      // response notes it, and resets the stream with an error code)
      if (err && !this.res.writableFinished) this.res.destroy(err)
      this.done(err ?? null)
    }
    const declared = this.headers === null ? undefined : this.headers['content-length']
    const stage = this.trailers !== null
      ? trailerStage(this.res, this.trailers)
      : declared === undefined ? null : lengthGuard(Number(declared))
    // A failure of the source or of a stage is reported from its 'error'
    // event, before the response is destroyed: pipeline() calls back only
    // after the ServerResponse's 'close' on Node 22 and later (on Node 20
    // before it), and that 'close' reports the request as aborted by the
    // client, which the failure would then pass for.
    this.stream.once('error', onDone)
    if (stage === null) {
      pipeline(this.stream, this.res, onDone)
    } else {
      stage.once('error', onDone)
      pipeline(this.stream, stage, this.res, onDone)
    }
  }

  /** @param {Error} err */
  onEarlyError (err) {
    if (this.started) return
    this.started = true
    this.stream.removeListener('readable', this.onReadable)
    this.res.removeListener('close', this.onEarlyClose)
    this.done(err)
  }

  onEarlyClose () {
    // The client went away before the stream produced anything.
    if (this.started) return
    this.started = true
    this.stream.removeListener('readable', this.onReadable)
    this.stream.removeListener('error', this.onEarlyError)
    endSource(this.stream)
    this.done(abortError())
  }
}

/**
 * Passes a streamed body through while it stays within its declared
 * Content-Length, and fails if it ends short or runs long: node:http would
 * send the extra bytes, which the client reads as the start of the next
 * response (RFC 9112 §6.3). A failure destroys the socket (see onDone).
 * @param {number} length
 */
function lengthGuard (length) {
  let left = length
  return new Transform({
    transform (chunk, _encoding, cb) {
      left -= chunk.length
      cb(left < 0 ? lengthMismatch() : null, left < 0 ? undefined : chunk)
    },
    flush (cb) {
      cb(left === 0 ? null : lengthMismatch())
    }
  })
}

/**
 * Passes the body through; at its end, before the response ends, gets the
 * trailer fields and adds those node:http accepts (it sends them after the
 * last chunk).
 * @param {import('node:http').ServerResponse} res
 * @param {import('../engine.js').TrailerSource} trailers
 */
function trailerStage (res, trailers) {
  return new Transform({
    transform (chunk, _encoding, cb) {
      cb(null, chunk)
    },
    flush (cb) {
      trailers((fields) => {
        /** @type {Record<string, string>} */
        const valid = {}
        for (const name of Object.keys(fields)) {
          try {
            http.validateHeaderName(name)
            http.validateHeaderValue(name, fields[name])
            valid[name] = fields[name]
          } catch {}
        }
        res.addTrailers(valid)
        cb()
      })
    }
  })
}

function lengthMismatch () {
  return Object.assign(new Error('The response stream does not match its Content-Length'), { code: 'ERR_HTTP_CONTENT_LENGTH_MISMATCH' })
}

installExpressResponse(NodeResponse.prototype)
acceptAssignments(NodeResponse.prototype, http.ServerResponse.prototype)
