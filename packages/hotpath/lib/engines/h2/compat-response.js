// The h2 engine's ResponseHandle (../engine.js): node:http2's compat
// Http2ServerResponse, subclassed (the server's Http2ServerResponse option)
// with the members the core answers through. It stays node's object, for
// `reply.raw` and middleware.
import { AsyncResource } from 'node:async_hooks'
import { abortError } from '../node/request.js'
import { StreamWriter, checkHeaders } from '../node/response.js'
import { installExpressResponse } from '../express-helpers.js'
import { acceptAssignments } from '../assignable.js'
import { endSource } from '../source.js'

/**
 * Fields that belong to an HTTP/1.1 connection (RFC 9113 §8.2.2): an
 * HTTP/2 message must not carry them, and node:http2 throws
 * (ERR_HTTP2_INVALID_CONNECTION_HEADERS) where a plugin or handler that
 * works on HTTP/1.1 sets one. They are dropped instead: HTTP/2 frames and
 * ends its streams itself.
 */
const CONNECTION_FIELDS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'])

/**
 * @param {string} name
 * @param {unknown} value
 */
function isConnectionField (name, value) {
  const lower = name.toLowerCase()
  // TE is allowed with "trailers" alone (RFC 9113 §8.2.2)
  if (lower === 'te') return String(value).trim().toLowerCase() !== 'trailers'
  return CONNECTION_FIELDS.has(lower)
}

/**
 * Removes the connection fields from headers the core built for one response.
 * @param {Record<string, any>} headers
 * @returns {boolean} Connection: close was asked (the stream ends early, not the session)
 */
export function dropConnectionFields (headers) {
  const close = headers.connection === 'close'
  for (const name in headers) if (isConnectionField(name, headers[name])) delete headers[name]
  return close
}

/**
 * node:http's checks, with its error codes (ERR_INVALID_HTTP_TOKEN,
 * ERR_INVALID_CHAR), before node:http2's own: its compat setHeader lets a
 * CR, LF or a character above 0xFF through to the answer, which then fails
 * where nothing can tell the middleware that set it.
 * @param {string} name
 * @param {any} value
 */
function checkField (name, value) {
  checkHeaders({ [name]: value })
}

/**
 * The body an answer carries, its Content-Length set in `headers`: none
 * for HEAD (the length it would have, RFC 9110 §9.3.2), 204 (no length)
 * and 304.
 * @param {string} method
 * @param {number} statusCode
 * @param {import('../engine.js').OutgoingHeaders} headers
 * @param {string | Buffer | null} body
 * @returns {string | Buffer | null}
 */
export function framedBody (method, statusCode, headers, body) {
  const length = body === null || headers['content-length'] !== undefined ? -1 : typeof body === 'string' ? Buffer.byteLength(body) : body.length
  if (method === 'HEAD' || statusCode === 204 || statusCode === 304) {
    if (statusCode === 204) delete headers['content-length']
    else if (length !== -1) headers['content-length'] = length
    return null
  }
  if (length !== -1) headers['content-length'] = length
  return body
}

/** RFC 9113 §7 */
export const NGHTTP2_NO_ERROR = 0

/**
 * The class, made on the first h2 engine (node:http2 loads node:tls).
 * @param {typeof import('node:http2')} http2
 */
export function defineH2Response (http2) {
  class H2Response extends http2.Http2ServerResponse {
    /**
     * @param {import('node:http2').ServerHttp2Stream} stream
     * @param {any} headers
     * @param {any} options
     */
    constructor (stream, headers, options) {
      // @types/node declares no constructor parameters; node passes these
      // @ts-expect-error
      super(stream, headers, options)
      /** @type {{ closing: boolean, closeBusy: boolean } | null} the engine's state, set when the request is handed over */
      this.engineState = null
      /** @type {((arg: any, error: Error | null) => void) | null} */
      this.endListener = null
      /** the app's 'request' listener took this response (../server-emit.js): a second call leaves it alone */
      this.routedByApp = false
      /** @type {any} */
      this.endArg = null
      /** @type {AsyncResource | null} the context the answer was written in (keepEndContext) */
      this.endContext = null
      /** connect middleware has the object */
      this.compatUsed = false
      /** built after the engine answered on the stream itself (./response.js): that answer was whole */
      this.endedOnStream = false
      /** a streamed body is being written (StreamWriter) */
      this.writing = false
      /** @type {Error | null} the streamed body failed on this side, and destroyed the response */
      this.writerFailure = null
      /** @type {(() => void) | null} the end report held back until the writer has told the core */
      this.afterWriter = null
    }

    /**
     * A streamed body that fails here (a source error, a length mismatch)
     * destroys the response before the writer reports the failure: that is
     * noted, so the stream's close is not taken for the client leaving first.
     * @param {Error} [err]
     */
    destroy (err) {
      if (err != null && this.writing && !this.stream.closed && !this.stream.destroyed) this.writerFailure = err
      return super.destroy(err)
    }

    /**
     * @param {string} name
     * @param {any} value
     */
    setHeader (name, value) {
      if (typeof name === 'string' && isConnectionField(name, value)) return this
      checkField(name, value)
      return super.setHeader(name, value)
    }

    /**
     * @param {string} name
     * @param {any} value
     */
    appendHeader (name, value) {
      if (typeof name === 'string' && isConnectionField(name, value)) return this
      checkField(name, value)
      return super.appendHeader(name, value)
    }

    /**
     * node:http2's takes no callback, where node:http's calls it once the
     * 103 is written: a route that waits for it (reply.writeEarlyHints(hints,
     * callback)) would wait forever. The 103 is handed to the session at
     * once (stream.additionalHeaders), so the callback follows on the next tick.
     * @param {Record<string, any>} hints
     * @param {() => void} [callback]
     */
    writeEarlyHints (hints, callback) {
      const sent = super.writeEarlyHints(hints)
      if (typeof callback === 'function') process.nextTick(callback)
      return sent
    }

    /**
     * @param {number} statusCode
     * @param {any} [reason]
     * @param {any} [headers]
     */
    writeHead (statusCode, reason, headers) {
      const fields = typeof reason === 'string' ? headers : reason
      if (fields !== null && typeof fields === 'object') {
        if (Array.isArray(fields)) {
          // [name, value, name, value…] or [[name, value]…], as node:http takes them
          const flat = Array.isArray(fields[0])
          const kept = fields.filter((/** @type {any} */ item, /** @type {number} */ i) => flat
            ? !isConnectionField(item[0], item[1])
            : (i % 2 === 0 ? !isConnectionField(item, fields[i + 1]) : !isConnectionField(fields[i - 1], item)))
          if (typeof reason === 'string') headers = kept
          else reason = kept
        } else {
          dropConnectionFields(fields)
        }
      }
      return super.writeHead(statusCode, reason, headers)
    }

    /**
     * @param {number} statusCode
     * @param {import('../engine.js').OutgoingHeaders} headers
     * @param {string | Buffer | null} body
     */
    respond (statusCode, headers, body) {
      if (this.headersSent) {
        // the app wrote the head itself (reply.raw.writeHead): it stands,
        // and the body follows it
        keepEndContext(this)
        if (body === null || this.req.method === 'HEAD') this.end()
        else this.end(body)
        return
      }
      const close = dropConnectionFields(headers)
      body = framedBody(this.req.method, statusCode, headers, body)
      // node:http2 checks names and values in writeHead, and throws with
      // nothing sent (ERR_INVALID_CHAR / ERR_INVALID_HTTP_TOKEN, as node:http)
      checkHeaders(headers)
      this.writeHead(statusCode, headers)
      keepEndContext(this)
      if (close && !this.req.complete) closeAfterAnswer(this)
      if (body === null) this.end()
      else if (body.length > WRITE_SLICE) writeInSlices(this, this.stream, typeof body === 'string' ? Buffer.from(body) : body, 0)
      else this.end(body)
    }

    /**
     * @param {number} statusCode
     * @param {import('../engine.js').OutgoingHeaders} headers
     * @param {import('node:stream').Readable} stream
     * @param {(err: Error | null) => void} done
     * @param {import('../engine.js').TrailerSource | null} [trailers]
     */
    respondStream (statusCode, headers, stream, done, trailers = null) {
      if (this.headersSent) {
        // the app wrote the head itself: the stream is its body
        this.writing = true
        new StreamWriter(/** @type {any} */ (this), statusCode, null, stream, (err) => writerDone(this, done, err), null)
        return
      }
      const close = dropConnectionFields(headers)
      checkHeaders(headers)
      if (close && !this.req.complete) closeAfterAnswer(this)
      if (this.req.method === 'HEAD' || statusCode === 204 || statusCode === 304) {
        endSource(stream)
        delete headers.trailer
        this.writeHead(statusCode, headers)
        this.end()
        done(null)
        return
      }
      this.writing = true
      new StreamWriter(/** @type {any} */ (this), statusCode, headers, stream, (err) => writerDone(this, done, err), trailers)
    }

    /**
     * @template T
     * @param {(arg: T, error: Error | null) => void} listener
     * @param {T} arg
     */
    onEnd (listener, arg) {
      if (this.stream.closed || this.stream.destroyed) {
        listener(arg, handedOver(this) ? null : abortError())
        return
      }
      this.endListener = listener
      this.endArg = arg
      if (this.writableEnded) keepEndContext(this)
      this.on('close', onResClose)
    }

    /**
     * The Http2ServerResponse itself, for reply.raw and connect middleware.
     * @param {import('../compat/guarded-emit.js').Owner} owner
     */
    compat (owner) {
      this.compatUsed = true
      const req = /** @type {any} */ (this.req)
      req._hotpath = owner
      return this
    }
  }

  // built after the answer went out on the stream, it reads as ended
  for (const name of ['writableEnded', 'finished']) {
    const own = /** @type {() => boolean} */ (Object.getOwnPropertyDescriptor(http2.Http2ServerResponse.prototype, name)?.get)
    Object.defineProperty(H2Response.prototype, name, {
      configurable: true,
      get () { return this.endedOnStream || own.call(this) }
    })
  }
  installExpressResponse(H2Response.prototype)
  acceptAssignments(H2Response.prototype, http2.Http2ServerResponse.prototype)
  return H2Response
}

/** @typedef {InstanceType<ReturnType<typeof defineH2Response>>} H2Response */

/**
 * Bytes handed to node:http2 at a time for a large body. One write of a
 * whole body stays queued in the session's memory until the client reads
 * it, reset or not, and a session past maxSessionMemory (10 MB by default)
 * refuses its next streams (ENHANCE_YOUR_CALM): a client that cancels a
 * large download would lose its connection. Written in slices, with
 * backpressure, a reset stream leaves at most one slice behind.
 */
export const WRITE_SLICE = 64 * 1024

/**
 * @param {{ write: (chunk: Buffer) => boolean, end: (chunk: Buffer) => any, once: (event: 'drain', listener: () => void) => any }} out
 *   the compat response, or the stream itself
 * @param {import('node:http2').ServerHttp2Stream} stream
 * @param {Buffer} body
 * @param {number} offset
 */
export function writeInSlices (out, stream, body, offset) {
  while (offset < body.length) {
    if (stream.destroyed || stream.closed) return
    const end = Math.min(offset + WRITE_SLICE, body.length)
    if (end === body.length) return void out.end(body.subarray(offset))
    const more = out.write(body.subarray(offset, end))
    offset = end
    if (!more) {
      out.once('drain', () => writeInSlices(out, stream, body, offset))
      return
    }
  }
}

/**
 * The core asked for Connection: close with the request's body unread
 * (a 413): the answer is out, and the stream is reset with NO_ERROR, which
 * tells the client to stop sending (RFC 9113 §8.1), while the session and
 * its other streams go on. What the client sent before it read the reset
 * is read and dropped: a stream ends only once its readable side has, so
 * a body left unread would keep it, and its session, open.
 * @this {H2Response}
 */
function endStream () {
  if (!this.stream.closed && !this.stream.destroyed) this.stream.close(NGHTTP2_NO_ERROR)
  this.req.resume()
}

/**
 * endStream once the answer is out: on the stream's 'finish' (its writable
 * side ended), as the response's own 'finish' comes only when the stream
 * closes, which this reset is what brings about. Rare (a 413 or 408 with
 * the body unread): a closure is made for it.
 * @param {H2Response} res
 */
function closeAfterAnswer (res) {
  res.stream.once('finish', () => endStream.call(res))
}

/**
 * The writer is done: the core hears of its outcome, and then of the end
 * held back for it.
 * @param {H2Response} res
 * @param {(err: Error | null) => void} done
 * @param {Error | null} err
 */
function writerDone (res, done, err) {
  res.writing = false
  done(err)
  const held = res.afterWriter
  if (held !== null) {
    res.afterWriter = null
    held()
  }
}

/**
 * Holds back the report of a stream's end while a streamed body that
 * failed on this side has not been reported: the core hears of the failure
 * (logged as one) before the end, as node:http's order has it, rather than
 * of a client that left (which is not logged as a failure).
 * @param {H2Response} res
 * @param {() => void} report
 * @returns {boolean} held
 */
export function holdEnd (res, report) {
  if (!res.writing || res.writerFailure === null) return false
  res.afterWriter = report
  return true
}

/**
 * 'close' fires once: after 'finish', or alone when the stream was reset
 * or the session went away first.
 * @this {H2Response}
 */
function onResClose () {
  if (holdEnd(this, () => onResClose.call(this))) return
  reportEnd(this, handedOver(this))
}

/**
 * @typedef {{ endListener: ((arg: any, error: Error | null) => void) | null, endArg: any, endContext: AsyncResource | null }} EndReport
 */

/**
 * The answer is being written: the async context it is written in is the
 * one its end listener runs in (onResponse hooks see the store an onRequest
 * hook entered), as node:http2's 'finish' follows end(). The stream's
 * 'close' comes in the session's context. Kept only when someone listens.
 * @param {EndReport} res
 */
export function keepEndContext (res) {
  if (res.endListener !== null && res.endContext === null) res.endContext = new AsyncResource('hotpath:h2-response')
}

/**
 * Tells the core's end listener, once, how a response ended: handed over
 * whole, or cut short (an abort error).
 * @param {EndReport} res
 * @param {boolean} handed
 */
export function reportEnd (res, handed) {
  const listener = res.endListener
  if (listener === null) return
  const arg = res.endArg
  const context = res.endContext
  res.endListener = null
  res.endArg = null
  res.endContext = null
  if (context === null) listener(arg, handed ? null : abortError())
  else {
    context.runInAsyncScope(listener, null, arg, handed ? null : abortError())
    context.emitDestroy()
  }
}

/**
 * The response ended before its stream closed, and the stream closed
 * without an error code: the compat response emits 'finish' and 'close'
 * on a stream the client reset (RST_STREAM CANCEL) or whose session went
 * away too, so its own writableFinished does not tell.
 * @param {H2Response} res
 */
function handedOver (res) {
  const stream = res.stream
  return !stream.aborted && (stream.rstCode ?? NGHTTP2_NO_ERROR) === NGHTTP2_NO_ERROR && res.writableEnded
}

