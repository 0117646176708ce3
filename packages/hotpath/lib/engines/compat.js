// The IncomingMessage/ServerResponse subset connect-style middleware needs
// (app.use on the wire and inject engines, whose ResponseHandle.compat()
// returns it): enough for cors, helmet, body-parser and most header
// middleware. docs/engines.md lists what it leaves out. Headers set here are
// merged into the response the core writes later (the core's win), exactly
// as res.setHeader + writeHead merge on node:http.

import { EventEmitter } from 'node:events'
import { Readable } from 'node:stream'
import { validateHeaderName, validateHeaderValue } from 'node:http'

/**
 * The engine's request record: a WireRequest, or inject's.
 * @typedef {object} RawRecord
 * @property {string} method
 * @property {string} url
 * @property {Record<string, any>} headers
 * @property {string[]} rawHeaders
 * @property {string} httpVersion
 * @property {boolean} complete
 * @property {any} socket
 * @property {unknown} body  what a body-parsing middleware parsed
 * @property {() => Readable} bodyStream
 */
/**
 * The engine's response record: a WireResponse, or inject's.
 * @typedef {object} ResponseRecord
 * @property {boolean} headersSent
 * @property {number} state  3 once finished
 * @property {Record<string, string | number | string[]> | null} extraHeaders
 * @property {(status: number, headers: Record<string, string | number | string[]>, body: Buffer | null) => void} respond
 */

/**
 * The request as middleware reads it: a Readable of the body, pulled from
 * the engine's body stream on the first read (body-parser, raw-body), and
 * whatever a middleware sets as `body` is the request's, for the route.
 */
export class CompatRequest extends Readable {
  /** @param {RawRecord} raw */
  constructor (raw) {
    super()
    this.raw = raw
    /** @type {Readable | null} the engine's body stream, taken on the first read */
    this.source = null
    this.method = raw.method
    this.url = raw.url
    this.originalUrl = raw.url
    this.headers = raw.headers
    this.rawHeaders = raw.rawHeaders
    this.httpVersion = raw.httpVersion
    this.httpVersionMajor = 1
    this.httpVersionMinor = raw.httpVersion === '1.1' ? 1 : 0
  }

  get socket () { return this.raw.socket }
  get connection () { return this.raw.socket }
  get complete () { return this.raw.complete }

  get body () { return this.raw.body }
  set body (value) { this.raw.body = value }

  _read () {
    const source = this.source
    if (source !== null) {
      source.resume()
      return
    }
    const body = this.source = this.raw.bodyStream()
    body.on('data', (/** @type {Buffer} */ chunk) => { if (!this.push(chunk)) body.pause() })
    body.on('end', () => this.push(null))
    // As node:http's IncomingMessage does: a client gone mid-body is an
    // 'error' only to someone listening for it; 'close' tells everyone
    // else. An 'error' nobody listens for would end the process.
    body.on('error', (err) => this.destroy(this.listenerCount('error') > 0 ? err : undefined))
  }
}

export class CompatResponse extends EventEmitter {
  /**
   * @param {ResponseRecord} res
   * @param {CompatRequest} req
   * @param {{ error: (obj: object, msg: string) => void }} log  where an error thrown by a middleware callback goes
   */
  constructor (res, req, log) {
    super()
    this.res = res
    this.req = req
    this.statusCode = 200
    /** @type {string | undefined} */
    this.statusMessage = undefined
    /** @type {Buffer[]} */
    this.chunks = []
    this.writableEnded = false
    this.finished = false
    this.locals = Object.create(null)
    this.log = log
    if (res.extraHeaders === null) res.extraHeaders = {}
  }

  get headersSent () { return this.res.headersSent }
  get writableFinished () { return this.res.state === 3 }
  get socket () { return this.req.socket }
  get connection () { return this.req.socket }

  /** @returns {Record<string, string | number | string[]>} */
  get store () { return /** @type {Record<string, string | number | string[]>} */ (this.res.extraHeaders) }

  /**
   * @param {string} name
   * @param {string | number | readonly string[]} value
   */
  setHeader (name, value) {
    if (this.res.headersSent) throw Object.assign(new Error('Cannot set headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' })
    // node:http's own checks, thrown here as ServerResponse.setHeader throws
    // them (ERR_INVALID_HTTP_TOKEN, ERR_INVALID_CHAR): a bad header is the
    // middleware's error now, not one that surfaces when the head is written.
    validateHeaderName(name)
    if (Array.isArray(value)) for (const v of value) validateHeaderValue(name, v)
    else validateHeaderValue(name, /** @type {any} */ (value))
    this.store[String(name).toLowerCase()] = Array.isArray(value) ? value.map(String) : /** @type {string | number} */ (value)
    return this
  }

  /** @param {string} name */
  getHeader (name) { return this.store[String(name).toLowerCase()] }

  getHeaders () { return { ...this.store } }

  getHeaderNames () { return Object.keys(this.store) }

  /** @param {string} name */
  hasHeader (name) { return this.store[String(name).toLowerCase()] !== undefined }

  /** @param {string} name */
  removeHeader (name) {
    if (this.res.headersSent) throw Object.assign(new Error('Cannot remove headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' })
    delete this.store[String(name).toLowerCase()]
  }

  /**
   * @param {number} statusCode
   * @param {any} [reason]
   * @param {any} [headers]
   */
  writeHead (statusCode, reason, headers) {
    if (typeof reason !== 'string') headers = reason
    this.statusCode = statusCode
    if (headers != null) {
      if (Array.isArray(headers)) {
        for (let i = 0; i + 1 < headers.length; i += 2) this.setHeader(headers[i], headers[i + 1])
      } else {
        for (const k of Object.keys(headers)) this.setHeader(k, headers[k])
      }
    }
    return this
  }

  /**
   * Buffers until end(): the response goes out in one write (no streaming
   * through the compat object).
   * @param {string | Buffer | Uint8Array} chunk
   * @param {any} [encoding]
   * @param {any} [cb]
   */
  write (chunk, encoding, cb) {
    if (this.writableEnded) return false
    if (typeof encoding === 'function') cb = encoding
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? /** @type {BufferEncoding} */ (encoding) : 'utf8') : Buffer.from(chunk))
    if (typeof cb === 'function') queueMicrotask(() => this.call(cb))
    return true
  }

  /**
   * @param {any} [chunk]
   * @param {any} [encoding]
   * @param {any} [cb]
   */
  end (chunk, encoding, cb) {
    if (typeof chunk === 'function') { cb = chunk; chunk = undefined }
    if (typeof encoding === 'function') { cb = encoding; encoding = undefined }
    if (this.writableEnded) return this
    if (chunk != null) this.write(chunk, encoding)
    this.writableEnded = true
    if (typeof cb === 'function') this.once('finish', cb)
    const body = this.chunks.length === 0 ? null : this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks)
    this.chunks = []
    this.res.respond(this.statusCode, {}, body)
    return this
  }

  /**
   * True when a middleware put its own writeHead, write or end on this
   * object (on-headers for response-time and morgan, compression): the
   * reply must go through them to be seen and changed.
   */
  get wrapped () {
    return Object.hasOwn(this, 'writeHead') || Object.hasOwn(this, 'write') || Object.hasOwn(this, 'end')
  }

  /**
   * hotpath's reply, written through what middleware put in place of
   * writeHead/write/end, as node:http's writeHead + end would be; the
   * original end() hands the result back to the engine (respond()).
   * @param {number} statusCode
   * @param {Record<string, string | number | string[]>} headers
   * @param {string | Buffer | null} body
   */
  respondThrough (statusCode, headers, body) {
    this.statusCode = statusCode
    this.writeHead(statusCode, headers)
    if (body === null) this.end()
    else this.end(body)
  }

  /** node:http's name for the head written by a first write() or end() */
  _implicitHeader () {
    this.writeHead(this.statusCode)
  }

  /**
   * Called by the engine when the response is done or the connection died.
   * @param {Error | null} err
   */
  finish (err) {
    if (err === null) {
      this.finished = true
      this.call(emitFinish)
    }
    this.call(emitClose)
  }

  /**
   * Runs middleware code from the engine's side (a listener, a write
   * callback): what it throws is that request's error, logged, and never
   * reaches the connection code or the process.
   * @param {(this: CompatResponse) => void} fn
   */
  call (fn) {
    try {
      fn.call(this)
    } catch (err) {
      this.log.error({ err }, 'a middleware callback threw')
    }
  }
}

/**
 * For an engine's respond(): when a middleware replaced the compat
 * response's writeHead/write/end, the reply goes through them (once: the
 * original end() comes back to respond()), and this returns true. A request
 * without such middleware pays one null check.
 * @param {{ compatRes: CompatResponse | null, throughCompat: boolean }} res
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 * @param {string | Buffer | null} body
 */
export function respondThroughMiddleware (res, statusCode, headers, body) {
  const cres = res.compatRes
  if (cres === null || res.throughCompat || !cres.wrapped) return false
  res.throughCompat = true
  cres.respondThrough(statusCode, headers, body)
  return true
}

/** @this {CompatResponse} */
function emitFinish () { this.emit('finish') }
/** @this {CompatResponse} */
function emitClose () { this.emit('close') }
