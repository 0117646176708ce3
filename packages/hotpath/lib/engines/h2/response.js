// The h2 engine's ResponseHandle (../engine.js): answers on the stream
// itself (stream.respond, then one end with the body), with no compat
// object (see ./request.js). Once `reply.raw` or middleware has asked for
// node:http2's Http2ServerResponse (compat()), everything after goes
// through it, so the headers they set are merged as node's writeHead
// merges them; a streamed body always goes through it (its writer is the
// node engine's, which speaks node's response API).
import { abortError } from '../node/request.js'
import { checkHeaders } from '../node/response.js'
import { dropConnectionFields, framedBody, holdEnd, keepEndContext, reportEnd, writeInSlices, WRITE_SLICE, NGHTTP2_NO_ERROR } from './compat-response.js'

/** The stream's answer, for its 'close' listener (a module-level function: nothing is bound per request). */
const kResponse = Symbol('hotpath.h2.response')

export class H2StreamResponse {
  /**
   * @param {import('node:http2').ServerHttp2Stream} stream
   * @param {import('./request.js').H2StreamRequest} req
   */
  constructor (stream, req) {
    this.stream = stream
    this.req = req
    /** @type {{ closing: boolean, closeBusy: boolean } | null} the engine's state, set when the request is handed over */
    this.engineState = null
    /** @type {((arg: any, error: Error | null) => void) | null} */
    this.endListener = null
    /** the app's 'request' listener took this response (../server-emit.js): a second call leaves it alone */
    this.routedByApp = false
    /** @type {any} */
    this.endArg = null
    /** @type {import('./compat-response.js').H2Response | null} */
    this.compatRes = null
    /** the status this response went out with, 0 before */
    this.sentStatus = 0
    /** the whole answer was handed to the stream */
    this.ended = false
    /** @type {import('node:async_hooks').AsyncResource | null} the context the answer was written in (keepEndContext) */
    this.endContext = null
  }

  get headersSent () {
    return this.stream.headersSent
  }

  /**
   * @param {number} statusCode
   * @param {import('../engine.js').OutgoingHeaders} headers
   * @param {string | Buffer | null} body
   */
  respond (statusCode, headers, body) {
    if (this.compatRes !== null) {
      keepEndContext(this)
      return this.compatRes.respond(statusCode, headers, body)
    }
    const stream = this.stream
    const close = dropConnectionFields(headers)
    body = framedBody(this.req.method, statusCode, headers, body)
    // node:http2 checks names and values too, but throws its own codes;
    // these are node:http's (ERR_INVALID_CHAR / ERR_INVALID_HTTP_TOKEN), with nothing sent
    checkHeaders(headers)
    // a stream the client reset, or whose session went, takes nothing (as the compat response)
    if (stream.destroyed || stream.closed) return
    const fields = /** @type {any} */ (headers)
    fields[':status'] = statusCode
    stream.respond(fields)
    this.sentStatus = statusCode
    this.ended = true
    keepEndContext(this)
    if (close && !this.req.complete) {
      /** @type {any} */ (stream)[kResponse] = this
      stream.once('finish', endStream)
    }
    // No body: the stream ends in a frame of its own, as node's compat
    // response and Fastify end it, not on the HEADERS frame. A client that
    // waits for 'response' before it reads the body (h2url, common in
    // tests) otherwise finds the stream already ended and closed.
    if (body === null || body.length === 0) return void stream.end()
    if (body.length > WRITE_SLICE) writeInSlices(stream, stream, typeof body === 'string' ? Buffer.from(body) : body, 0)
    else stream.end(body)
  }

  /**
   * @param {number} statusCode
   * @param {import('../engine.js').OutgoingHeaders} headers
   * @param {import('node:stream').Readable} stream
   * @param {(err: Error | null) => void} done
   * @param {import('../engine.js').TrailerSource | null} [trailers]
   */
  respondStream (statusCode, headers, stream, done, trailers = null) {
    this.sentStatus = statusCode
    this.compatResponse().respondStream(statusCode, headers, stream, done, trailers)
  }

  /**
   * @template T
   * @param {(arg: T, error: Error | null) => void} listener
   * @param {T} arg
   */
  onEnd (listener, arg) {
    const stream = this.stream
    if (stream.closed || stream.destroyed) {
      listener(arg, handedOver(this) ? null : abortError())
      return
    }
    this.endListener = listener
    this.endArg = arg
    if (this.ended) keepEndContext(this)
    const owned = /** @type {any} */ (stream)
    owned[kResponse] = this
    stream.once('close', onStreamClose)
  }

  /**
   * node:http2's Http2ServerResponse, for reply.raw and connect middleware.
   * @param {import('../compat/guarded-emit.js').Owner} owner
   */
  compat (owner) {
    return this.compatResponse().compat(owner)
  }

  /** @returns {import('./compat-response.js').H2Response} */
  compatResponse () {
    if (this.compatRes === null) {
      this.req.compatRequest()
      const res = new this.req.kit.Response(this.stream)
      res.engineState = this.engineState
      // asked after the answer went out on the stream (an onResponse hook
      // reading reply.raw): it shows that answer
      if (this.sentStatus !== 0) {
        res.statusCode = this.sentStatus
        res.endedOnStream = this.ended
      }
      this.compatRes = res
    }
    return /** @type {import('./compat-response.js').H2Response} */ (this.compatRes)
  }
}

/**
 * The core asked for Connection: close with the request's body unread
 * (a 413): the answer is out, and the stream is reset with NO_ERROR, which
 * tells the client to stop sending (RFC 9113 §8.1), while the session and
 * its other streams go on. What the client sent before it read the reset
 * is read and dropped: a stream ends only once its readable side has, so
 * a body left unread would keep it, and its session, open.
 * @this {any}
 */
function endStream () {
  if (!this.closed && !this.destroyed) this.close(NGHTTP2_NO_ERROR)
  const compatReq = /** @type {H2StreamResponse} */ (this[kResponse]).req.compatReq
  if (compatReq !== null) compatReq.resume()
  this.resume()
}

/**
 * A stream's 'close' fires once, after its last frame or its reset.
 * @this {any}
 */
function onStreamClose () {
  const res = /** @type {H2StreamResponse} */ (this[kResponse])
  if (res.compatRes !== null && holdEnd(res.compatRes, () => onStreamClose.call(this))) return
  reportEnd(res, handedOver(res))
}

/**
 * The whole answer went to the stream, and the stream closed without an
 * error code (a client's RST_STREAM CANCEL, or the session going away,
 * leaves one).
 * @param {H2StreamResponse} res
 */
function handedOver (res) {
  const stream = res.stream
  if (stream.aborted || (stream.rstCode ?? NGHTTP2_NO_ERROR) !== NGHTTP2_NO_ERROR) return false
  return res.compatRes !== null ? res.compatRes.writableEnded : res.ended
}
