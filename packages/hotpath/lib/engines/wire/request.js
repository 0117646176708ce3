// The request and response records of the wire engine. Plain classes with
// every field assigned in the constructor, in one order, so that V8 gives
// all instances one shape (DESIGN.md §3.3).

import { headersFromRaw } from './headers.js'

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
    /** @type {WireResponse | null} */
    this.res = null
    /** keep the connection open after this request (RFC 9112 §9.3) */
    this.keepAlive = true
    /** Connection: upgrade with an Upgrade header */
    this.upgrade = false
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
}

export class WireResponse {
  /**
   * @param {Connection} conn
   * @param {WireRequest} req
   */
  constructor (conn, req) {
    this.conn = conn
    this.req = req
    /** 0 pending, 1 queued bytes wait for earlier responses, 2 streaming, 3 finished */
    this.state = 0
    this.headersSent = false
    /** @type {string | Buffer | null} bytes waiting for their turn (state 1) */
    this.data = null
    /** @type {Buffer | null} body bytes waiting for their turn when the head holds non-ASCII */
    this.data2 = null
    /** close the connection once this response is written */
    this.closeAfter = false
    /** @type {((res: any, err: Error | null) => void) | null} */
    this.finishCb = null
    /** headers set through the compatibility object (setHeader) */
    /** @type {Record<string, string | number | string[]> | null} */
    this.extraHeaders = null
    /** @type {import('../compat.js').CompatResponse | null} */
    this.compat = null
    /** streaming state */
    /** @type {import('node:stream').Readable | null} */
    this.stream = null
    /** @type {((err: Error | null) => void) | null} */
    this.streamDone = null
    this.streamChunked = false
    /** body bytes still owed under a declared Content-Length, -1 without one */
    this.streamLeft = -1
    this.streamHead = ''
    this.streamAscii = true
    this.hijacked = false
  }
}
