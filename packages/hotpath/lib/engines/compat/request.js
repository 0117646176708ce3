// node:http's IncomingMessage as the wire and inject engines give it
// (req.raw, connect middleware): a Readable of the body, pulled from the
// engine's body stream on the first read, built on first touch
// (ResponseHandle.compat()), so a route that never asks pays nothing.
// docs/engines.md lists what node:http has and this object does not.
import { Readable } from 'node:stream'
import { IncomingMessage } from '../../node-http.js'
import { acceptAssignments } from '../assignable.js'
import { installExpressRequest } from '../express-helpers.js'
import { createError } from '../../errors.js'
import { guardedEmit } from './guarded-emit.js'

/** @typedef {import('./guarded-emit.js').Owner} Owner */

/**
 * The engine's request record: a WireRequest, or inject's.
 * @typedef {object} RawRecord
 * @property {string} method
 * @property {string} url
 * @property {string} [originalUrl]  the URL as received, when the app has rewriteUrl
 * @property {Record<string, any>} headers
 * @property {string[]} rawHeaders
 * @property {string} httpVersion
 * @property {boolean} complete
 * @property {any} socket
 * @property {Record<string, string>} [trailers]
 * @property {unknown} body  what a body-parsing middleware parsed
 * @property {() => Readable} bodyStream
 * @property {boolean} [bodyRead]  the core read the whole body (wire)
 */

/**
 * Readable.prototype without Readable's constructor: a CompatRequest's
 * stream state (ReadableState, the listener table) is made the first time
 * anything reads it (a 'data' listener, pipe(), `readable`, `destroyed`),
 * the way the constructor would have made it. The plugins that take the
 * pair for its headers (cors reads req.raw.method, helmet hands req.raw to
 * its middleware) never read the body, and the state was most of what
 * building the object cost (about 1 µs a request under load, with the
 * garbage it leaves). The constructor is the same function for every
 * version hotpath runs on: state and listeners, nothing else without
 * options.
 * @type {typeof Readable}
 */
const LazyReadable = /** @type {any} */ (function LazyReadable () {})
// node:http's IncomingMessage.prototype (a Readable's): `req.raw instanceof
// http.IncomingMessage` holds on every engine, as code that checks it
// (a multipart adapter) expects; CompatRequest defines the members whose
// state lives in the engine's record (headers, socket, _read, _destroy…)
Object.setPrototypeOf(LazyReadable.prototype, IncomingMessage.prototype)
Object.setPrototypeOf(LazyReadable, Readable)
Object.defineProperty(LazyReadable.prototype, '_readableState', {
  configurable: true,
  get () {
    const state = new (/** @type {any} */ (Readable).ReadableState)(undefined, this, false)
    ownState(this, state)
    return state
  },
  set (state) { ownState(this, state) }
})

/**
 * @param {object} stream
 * @param {unknown} state
 */
function ownState (stream, state) {
  Object.defineProperty(stream, '_readableState', { value: state, writable: true, configurable: true, enumerable: true })
}

/**
 * @param {string[]} lines  name, value, name, value…
 * @returns {Record<string, string[]>}
 */
function distinct (lines) {
  /** @type {Record<string, string[]>} */
  const out = Object.create(null)
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i].toLowerCase()
    const list = out[name]
    if (list === undefined) out[name] = [lines[i + 1]]
    else list.push(lines[i + 1])
  }
  return out
}

export class CompatRequest extends LazyReadable {
  /**
   * @param {RawRecord} raw
   * @param {Owner} owner  hotpath's request, whose address, host and log these objects use
   */
  constructor (raw, owner) {
    super()
    /** the engine's request record; not `raw`, which an IncomingMessage does not have */
    this._record = raw
    this._hotpath = owner
    /** @type {Readable | null} the engine's body stream, taken on the first read */
    this.source = null
    this.method = raw.method
    this.url = raw.url
    /** @type {string | undefined} the URL before rewriteUrl; else set by the first middleware, as Express does */
    this.originalUrl = raw.originalUrl
    this.httpVersion = raw.httpVersion
    this.httpVersionMajor = 1
    this.httpVersionMinor = raw.httpVersion === '1.1' ? 1 : 0
    /** the connection went away before the body was complete (IncomingMessage.aborted) */
    this.aborted = false
    /** @type {string[]} */
    this.rawTrailers = []
    /** destroying this object leaves the connection alone: another reader has the body */
    this.keepSocket = false
  }

  /**
   * What a listener throws is that request's error, logged: the events
   * come from the engine's side (a socket's data, a timer) where a throw
   * would end the process. An 'error' nobody listens for is logged too.
   * @param {string | symbol} event
   * @param {...any} args
   */
  emit (event, ...args) {
    return guardedEmit(this, this._hotpath, event, args)
  }

  /**
   * Made before the core took the request (an instrumentation's emit, see
   * ./server-emit.js), this object now belongs to `owner`, and shows the
   * URL the core routes by (rewriteUrl), as it would had it been made now.
   * @param {Owner} owner
   */
  adopt (owner) {
    this._hotpath = owner
    this.url = this._record.url
    this.originalUrl = this._record.originalUrl
  }

  get headers () { return this._record.headers }
  set headers (value) { this._record.headers = value }
  get rawHeaders () { return this._record.rawHeaders }
  get trailers () { return this._record.trailers ?? {} }
  /** node:http's headersDistinct: every field's values, by lower-case name, from the raw lines */
  get headersDistinct () { return distinct(this._record.rawHeaders) }
  get trailersDistinct () { return distinct(this.rawTrailers) }
  get socket () { return this._record.socket }
  get connection () { return this._record.socket }
  /** node's other (undocumented) alias of `socket` */
  get client () { return this._record.socket }
  get complete () { return this._record.complete }

  get body () { return this._record.body }
  set body (value) { this._record.body = value }

  /**
   * @param {number} ms
   * @param {() => void} [callback]
   */
  setTimeout (ms, callback) {
    const socket = this._record.socket
    if (typeof socket.setTimeout === 'function') socket.setTimeout(ms, callback)
    return this
  }

  _read () {
    const source = this.source
    if (source !== null) {
      source.resume()
      return
    }
    const body = this.source = this._record.bodyStream()
    // The engine hands out one stream per body (a preParsing hook's
    // payload is the same one). Read to its end by someone else (the
    // route's parser): ended for a late reader, as on node:http. Read in
    // part: the rest would be a truncated body, so this reader fails
    // with an error that says the body was taken.
    if (body.readableDidRead) {
      if (body.readableEnded) {
        this.push(null)
        return
      }
      if (!body.destroyed) {
        // the other reader keeps the stream and the connection
        this.source = null
        this.keepSocket = true
        process.nextTick(() => this.destroy(createError('HP_ERR_BODY_CONSUMED')))
        return
      }
    }
    // closed before this reader came (a preParsing hook held it while the
    // client went away): its events are past, its end is known
    if (body.closed) {
      if (/** @type {any} */ (this._record).aborted === true) {
        this.aborted = true
        this.destroy()
      } else {
        this.push(null)
      }
      return
    }
    let settled = false
    body.on('data', (/** @type {Buffer} */ chunk) => { if (!this.push(chunk)) body.pause() })
    body.on('end', () => {
      settled = true
      this.push(null)
    })
    body.on('error', (/** @type {any} */ err) => {
      settled = true
      // The core read the body already (the route's parser): as on
      // node:http, the stream has ended for a late reader.
      if (err?.code === 'HP_ERR_BODY_CONSUMED') return this.push(null)
      if (this.aborted || this.destroyed) return
      this.aborted = true
      this.emit('aborted')
      // As node:http's IncomingMessage does: a client gone mid-body is an
      // 'error' only to someone listening for it; 'close' tells everyone
      // else. An 'error' nobody listens for would end the process.
      this.destroy(this.listenerCount('error') > 0 ? err : undefined)
    })
    // A body stream the engine closed before anyone listened (the body
    // was consumed, or the client had gone): ended, or aborted.
    body.on('close', () => {
      if (settled) return
      if (/** @type {any} */ (this._record).aborted === true) {
        this.aborted = true
        this.destroy()
      } else {
        this.push(null)
      }
    })
  }

  /**
   * The connection went away before the response was written: what
   * node:http's IncomingMessage does then, in its order. 'aborted' when
   * the body was not read to its end (a GET nobody read counts), 'error'
   * (ECONNRESET, "aborted") only to a listener, then 'close': the clean-up
   * of an SSE or long-poll route (`req.raw.on('close', …)`) runs.
   */
  connectionLost () {
    if (this.destroyed) return
    // a body the route's parser read whole has ended, as node:http's
    // IncomingMessage has once its parser consumed it: 'close' alone
    if (this.readableEnded || this._record.bodyRead === true) {
      this.destroy()
      return
    }
    this.aborted = true
    this.emit('aborted')
    this.destroy(this.listenerCount('error') > 0 ? Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) : undefined)
  }

  /**
   * IncomingMessage.destroy() ends the connection too.
   * @param {Error | null} err
   * @param {(err: Error | null) => void} callback
   */
  _destroy (err, callback) {
    if (this.source !== null && !this.source.destroyed) this.source.destroy()
    if (!this._record.complete && !this.keepSocket && typeof this._record.socket.destroy === 'function') this._record.socket.destroy()
    callback(err)
  }
}

installExpressRequest(CompatRequest.prototype)
acceptAssignments(CompatRequest.prototype, IncomingMessage.prototype)
