// node:http's IncomingMessage as the wire and inject engines give it
// (req.raw, connect middleware): a Readable of the body, pulled from the
// engine's body stream on the first read, built on first touch
// (ResponseHandle.compat()), so a route that never asks pays nothing.
// What node's own IncomingMessage keeps as fields (socket, rawHeaders, the
// stream's state) is an own field here too, and what the stream machinery
// calls (_read, _destroy) is an own property, as Readable's options make
// them: code that swaps the object's prototype for another descendant of
// node's (Express's app.handle) still has a working request whose body it
// can read. docs/engines.md lists what node:http has and this object does not.
import { Readable } from 'node:stream'
import { IncomingMessage } from '../../node-http.js'
import { acceptAssignments } from '../assignable.js'
import { installExpressRequest } from '../express-helpers.js'
import { createError } from '../../errors.js'
import { guardedEmit } from './guarded-emit.js'
import { kHeadersCount } from './node-state.js'

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
 * @property {() => Readable} bodyStream
 * @property {boolean} [bodyRead]  the core read the whole body (wire)
 */

/**
 * Readable.prototype without Readable's constructor, whose options
 * handling and listener table a CompatRequest does not need (the table is
 * made by the first listener). node:http's IncomingMessage.prototype is
 * on its chain: `req.raw instanceof http.IncomingMessage` holds on every
 * engine, as code that checks it (a multipart adapter) expects.
 * @type {typeof Readable}
 */
const BareReadable = /** @type {any} */ (function BareReadable () {})
Object.setPrototypeOf(BareReadable.prototype, IncomingMessage.prototype)
Object.setPrototypeOf(BareReadable, Readable)
const ReadableState = /** @type {any} */ (Readable).ReadableState

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

export class CompatRequest extends BareReadable {
  /**
   * @param {RawRecord} raw
   * @param {Owner} owner  hotpath's request, whose address, host and log these objects use
   */
  constructor (raw, owner) {
    super()
    // the stream's state, as Readable's constructor makes it
    this._readableState = new ReadableState(undefined, this, false)
    this._read = readBody
    this._destroy = destroyRequest
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
    /** an upgrade goes to the server's 'upgrade' listeners, never here */
    this.upgrade = false
    this.socket = raw.socket
    /** node's other (undocumented) alias of `socket` */
    this.client = raw.socket
    this.rawHeaders = raw.rawHeaders
    // node's `headers` getter, reached once the prototype is swapped, makes
    // the headers from the raw lines, as many as this says
    if (kHeadersCount !== undefined) /** @type {any} */ (this)[kHeadersCount] = raw.rawHeaders.length
    /** @type {unknown} what a body-parsing middleware parsed (express.json() sets it), which the core takes as the body */
    this.body = undefined
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

  get headers () { return this._record.headers }
  set headers (value) { this._record.headers = value }
  get trailers () { return this._record.trailers ?? {} }
  /** node:http's headersDistinct: every field's values, by lower-case name, from the raw lines */
  get headersDistinct () { return distinct(this._record.rawHeaders) }
  get trailersDistinct () { return distinct(this.rawTrailers) }
  get complete () { return this._record.complete }

  /**
   * @param {number} ms
   * @param {() => void} [callback]
   */
  setTimeout (ms, callback) {
    const socket = this._record.socket
    if (typeof socket.setTimeout === 'function') socket.setTimeout(ms, callback)
    return this
  }
}

const readableEndedOf = /** @type {() => unknown} */ (Object.getOwnPropertyDescriptor(Readable.prototype, 'readableEnded')?.get)
const readableDescriptor = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(Readable.prototype, 'readable'))
const readableOf = /** @type {() => unknown} */ (readableDescriptor.get)
const setReadable = /** @type {(value: boolean) => void} */ (readableDescriptor.set)

/**
 * The core read the whole body (the route's parser) and this object has
 * not begun reading it: a reader here finds it ended.
 * @param {CompatRequest} creq
 */
function bodyTaken (creq) {
  const record = creq._record
  return creq.source === null && record.bodyRead === true && record.complete
}

// node's IncomingMessage has ended once the route's parser read its body
// whole (on-finished, which Express middleware uses, counts a request
// complete and not readable as done): so has this one when the core read
// the body before anyone read it here. (Defined on the prototype rather
// than as class accessors: Readable declares them as fields.)
Object.defineProperties(CompatRequest.prototype, {
  readableEnded: {
    /** @this {CompatRequest} */
    get () { return /** @type {boolean} */ (readableEndedOf.call(this)) || bodyTaken(this) },
    configurable: true
  },
  readable: {
    /** @this {CompatRequest} */
    get () { return !bodyTaken(this) && /** @type {boolean} */ (readableOf.call(this)) },
    /** @this {CompatRequest} @param {boolean} value */
    set (value) { setReadable.call(this, value) },
    configurable: true
  }
})

installExpressRequest(CompatRequest.prototype)
acceptAssignments(CompatRequest.prototype, IncomingMessage.prototype)

/**
 * The stream's _read: the engine's body stream, taken on the first read.
 * @this {CompatRequest}
 */
function readBody () {
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
    // node:http's request ends a turn of microtasks after its last data
    // (its 'end' comes from a later tick): what a 'data' listener set off
    // (an async iterator's read of a part, busboy's file) runs first.
    queueMicrotask(() => this.push(null))
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
 * @param {CompatRequest} creq
 */
export function requestLost (creq) {
  if (creq.destroyed) return
  // a body the route's parser read whole has ended, as node:http's
  // IncomingMessage has once its parser consumed it: 'close' alone
  if (creq.readableEnded || creq._record.bodyRead === true) {
    creq.destroy()
    return
  }
  creq.aborted = true
  creq.emit('aborted')
  creq.destroy(creq.listenerCount('error') > 0 ? Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) : undefined)
}

/**
 * The app's IncomingMessage.destroy() ends the connection too, unless the
 * request's body had come whole and been read to its end (node:http's
 * rule: only an aborted request takes its socket down). A GET nobody read
 * counts as not read, as on node:http. A request found aborted already
 * (the client went, the body stream failed) leaves the connection to the
 * engine, which knows of it: under inject, a simulated body error is not
 * a reset connection, as in light-my-request.
 * @this {CompatRequest}
 * @param {Error | null} err
 * @param {(err: Error | null) => void} callback
 */
function destroyRequest (err, callback) {
  if (this.source !== null && !this.source.destroyed) this.source.destroy()
  const record = this._record
  const readWhole = record.complete && (record.bodyRead === true || this.readableEnded)
  if (!readWhole && !this.aborted && !this.keepSocket && typeof record.socket.destroy === 'function') record.socket.destroy()
  callback(err)
}

/**
 * Made before the core took the request (an instrumentation's emit, see
 * ../server-emit.js), the request now belongs to `owner`, and shows the
 * URL the core routes by (rewriteUrl), as it would had it been made now.
 * @param {CompatRequest} creq
 * @param {Owner} owner
 */
export function adoptRequest (creq, owner) {
  creq._hotpath = owner
  creq.url = creq._record.url
  creq.originalUrl = creq._record.originalUrl
}
