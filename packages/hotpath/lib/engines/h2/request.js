// The h2 engine's RawRequest (../engine.js): what node:http2 hands a
// 'stream' listener, the stream and its header object, and nothing built
// around them. node:http2's compat objects (Http2ServerRequest and
// Http2ServerResponse, subclassed in ./compat-request.js and
// ./compat-response.js) cost about 16 µs a request on a hello (two
// streams, eleven listeners, a trailers round for every response): they
// are built from the stream only when something asks for them, as the
// wire engine builds its node:http-like objects: `req.raw`, `reply.raw`,
// middleware, and a body read (the compat request is the body stream).

/**
 * What the engine shares with each of its requests.
 * @typedef {object} H2Kit
 * @property {any} Request   the Http2ServerRequest subclass
 * @property {any} Response  the Http2ServerResponse subclass
 * @property {{ closing: boolean, closeBusy: boolean }} state
 */

/** The socket of a stream whose session has gone: a request read late finds no peer. */
const NO_SOCKET = Object.freeze({ remoteAddress: undefined, remotePort: undefined, encrypted: false })

export class H2StreamRequest {
  /**
   * @param {import('node:http2').ServerHttp2Stream} stream
   * @param {import('node:http2').IncomingHttpHeaders} headers
   * @param {string[]} rawHeaders
   * @param {H2Kit} kit
   */
  constructor (stream, headers, rawHeaders, kit) {
    this.stream = stream
    /** the header object node:http2 made, pseudo-header fields (':path'…) among them, as the compat request shows it */
    this.headers = headers
    this.rawHeaders = rawHeaders
    this.method = /** @type {string} */ (headers[':method'])
    this.url = /** @type {string} */ (headers[':path'])
    /** @type {string | undefined} */
    this.originalUrl = undefined
    this.kit = kit
    /** @type {import('./compat-request.js').H2Request | null} */
    this.compatReq = null
  }

  get httpVersion () {
    return '2.0'
  }

  /**
   * The session's socket: its peer address, and `encrypted` over TLS. (The
   * compat request's `socket`, `req.raw.socket`, is node's proxy of it.)
   */
  get socket () {
    return this.stream.session?.socket ?? NO_SOCKET
  }

  get complete () {
    if (this.compatReq !== null) return this.compatReq.complete
    const stream = this.stream
    return stream.endAfterHeaders || stream.readableEnded || stream.destroyed
  }

  /**
   * A body follows unless the HEADERS frame ended the stream (RFC 9113
   * §8.1: an HTTP/2 request has no Content-Length or chunked to say so).
   */
  get hasBody () {
    if (this.stream.endAfterHeaders) return false
    return this.headers['content-length'] !== '0'
  }

  /**
   * A middleware read the body stream to its end: the core then reads no
   * body (waiting for one would last until the request timeout).
   */
  get readableEnded () {
    return this.compatReq !== null && this.compatReq.readableEnded
  }

  /** What a body-parsing middleware left on the compat request (express.json() sets it). */
  get body () {
    return this.compatReq === null ? undefined : /** @type {any} */ (this.compatReq).body
  }

  /**
   * @param {number} limit
   * @param {(err: any, body?: Buffer) => void} done
   */
  readBody (limit, done) {
    this.compatRequest().readBody(limit, done)
  }

  /** The compat request is the body stream, as node's IncomingMessage is on HTTP/1.1. */
  bodyStream () {
    return this.compatRequest()
  }

  /**
   * node:http2's Http2ServerRequest for this stream, built on the first ask.
   * Nothing has read the stream before (the body is read through it), so
   * it is the object node:http2's own 'request' event would have given.
   * @returns {import('./compat-request.js').H2Request}
   */
  compatRequest () {
    if (this.compatReq === null) {
      const req = new this.kit.Request(this.stream, this.headers, undefined, this.rawHeaders)
      // rewriteUrl changed the URL: the compat request shows it, as node's
      // does after `req.url = …` (its url is the :path field)
      if (this.originalUrl !== undefined) {
        req.url = this.url
        req.originalUrl = this.originalUrl
      }
      this.compatReq = req
    }
    return /** @type {import('./compat-request.js').H2Request} */ (this.compatReq)
  }
}
