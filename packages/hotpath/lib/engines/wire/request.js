// The wire engine's RawRequest (../engine.js): a plain class with every
// field assigned in the constructor, in one order, so that V8 gives all
// instances one shape (docs/architecture.md, "Stable shapes"). The body
// members hand over to the connection, which owns the reading.

import { headersFromRaw } from './headers.js'
import { readBody, bodyStream } from './request-body.js'

/** @typedef {import('./connection.js').Connection} Connection */

export class WireRequest {
  /**
   * @param {Connection} conn
   * @param {string} method
   * @param {string} url
   * @param {string} httpVersion
   * @param {string[]} rawHeaders
   */
  constructor (conn, method, url, httpVersion, rawHeaders) {
    this.method = method
    this.url = url
    /** @type {Record<string, string | string[] | undefined> | null} built on first read */
    this._headers = null
    this.httpVersion = httpVersion
    this.rawHeaders = rawHeaders
    /** @type {Record<string, string> | null} created by the first trailer */
    this._trailers = null
    this.trailerCount = 0
    this.conn = conn
    /** @type {import('./response.js').WireResponse | null} */
    this.res = null
    /** keep the connection open after this request (RFC 9112 §9.3) */
    this.keepAlive = true
    /** Connection: upgrade with an Upgrade header */
    this.upgrade = false
    /** an upgrade without Host: only an 'upgrade' listener may take it */
    this.hostMissing = false
    /** the client sent Expect: 100-continue and waits before sending the body */
    this.expectContinue = false
    /** 100 Continue is owed once earlier responses are out */
    this.continueLater = false
    /** declared Content-Length, -1 when chunked or absent */
    this.contentLength = -1
    this.chunked = false
    /** every byte of the body has been received */
    this.complete = false
    /** the connection went away before the body was complete */
    this.aborted = false
    /** body bytes received before anyone asked for them */
    /** @type {Buffer[] | null} */
    this.chunks = null
    this.buffered = 0
    /** 0 nobody reads the body yet, 1 readBody, 2 bodyStream, 3 discarded */
    this.sinkKind = 0
    /** the whole body went to its reader (readBody's callback, the end of bodyStream) */
    this.bodyRead = false
    /** readBody's state */
    this.limit = 0
    /** @type {((err: any, body?: Buffer) => void) | null} */
    this.done = null
    /** @type {import('node:stream').Readable | null} */
    this.stream = null
  }

  /**
   * As on node:http, the headers object is built from rawHeaders when it is
   * first read: a route that never reads a header never pays for it.
   * @returns {Record<string, string | string[] | undefined>}
   */
  get headers () {
    if (this._headers === null) this._headers = headersFromRaw(this.rawHeaders)
    return this._headers
  }

  set headers (value) { this._headers = value }

  /** @returns {Record<string, string>} */
  get trailers () {
    if (this._trailers === null) this._trailers = {}
    return this._trailers
  }

  set trailers (value) { this._trailers = value }

  /** The connection's socket (remoteAddress, encrypted). */
  get socket () { return this.conn.socket }

  // node:http's IncomingMessage members that code handed this object (an
  // 'upgrade' listener: socket.io reads req.connection.encrypted) reads:
  // the deprecated aliases of `socket`, and the version's two numbers.
  get connection () { return this.conn.socket }
  get client () { return this.conn.socket }
  get httpVersionMajor () { return 1 }
  get httpVersionMinor () { return this.httpVersion === '1.1' ? 1 : 0 }

  /** a body follows: Content-Length > 0 or chunked */
  get hasBody () { return this.chunked || this.contentLength > 0 }

  /**
   * @param {number} limit
   * @param {(err: any, body?: Buffer) => void} done
   */
  readBody (limit, done) { readBody(this.conn, this, limit, done) }

  bodyStream () { return bodyStream(this.conn, this) }
}
