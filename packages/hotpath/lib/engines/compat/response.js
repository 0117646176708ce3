// node:http's ServerResponse as the wire and inject engines give it
// (reply.raw, connect middleware), made on first touch. It is node's own
// object: made by ServerResponse's constructor, its headers, head and
// pending output are node's state, and its writeHead/write/end are node's.
// So code that swaps its prototype for another descendant of node's
// (Express's app.handle: `Object.setPrototypeOf(res, app.response)`), or
// calls `http.ServerResponse.prototype` methods on it, has a working
// response, as on node:http.
//
// What node writes reaches the engine where node would hand it to a
// socket: a response whose socket is not its own (`socket._httpMessage`)
// keeps its output in `outputData` and reports each part through
// `_onPendingData`, the hook node:http's server sets on every response it
// makes; here the hook hands the parts to the engine (./response-output.js): the whole response
// at once, with its Content-Length, when end() came in the same turn; else
// a stream, with backpressure. Node frames nothing itself (its chunked
// coding is turned off once the head is made): the engine frames the body.
// What the engine calls, and node calls on the object (`_onPendingData`,
// `_storeHeader`), is an own property or a module function, never only on
// this prototype: it too survives a prototype swap. node's internal
// symbols come from ./node-state.js.
// docs/engines.md lists what node:http has and this object does not.
import { ServerResponse } from '../../node-http.js'
import { acceptAssignments } from '../assignable.js'
import { installExpressResponse } from '../express-helpers.js'
import { lowerCaseName } from '../../reply/header-name.js'
import { guardedEmit } from './guarded-emit.js'
import { checkHeader, headersSentError } from './header-checks.js'
import { kOutHeaders } from './node-state.js'
import { outputPending, emitClose, call } from './response-output.js'

export { kOutHeaders }
export { finishCompat } from './response-output.js'

/** @typedef {import('./guarded-emit.js').Owner} Owner */
/** @typedef {import('node:stream').Readable} Readable */
/** @typedef {import('./request.js').CompatRequest} CompatRequest */
/** @typedef {Record<string, string | number | string[]>} HeaderRecord */

/**
 * node's own state on a ServerResponse, which its methods keep and this
 * module reads (node's declarations leave it out).
 * @typedef {object} NodeOutgoing
 * @property {{ data: string | Uint8Array, encoding?: BufferEncoding | null, callback?: Function | null }[]} outputData  the parts written while no socket is its own
 * @property {number} outputSize
 * @property {string | null} _header  the head as node made it
 * @property {string} _trailer  addTrailers()'s fields, as lines
 * @property {boolean} _closed
 * @property {boolean} chunkedEncoding
 * @property {boolean} destroyed
 */
/** @typedef {CompatResponse & NodeOutgoing & Record<symbol, any>} Outgoing */

/**
 * The engine's response record: a WireResponse, or inject's.
 * @typedef {object} ResponseRecord
 * @property {boolean} headersSent
 * @property {number} state  3 once finished
 * @property {boolean} throughCompat  the reply is on its way through this object
 * @property {Record<string, [string, string | number | string[]]> | null} extraHeaders  node's header table of this object (lower-case name → [name, value]), when the core answers past it
 * @property {(status: number, headers: HeaderRecord, body: Buffer | null) => void} respond
 * @property {(status: number, headers: HeaderRecord, stream: Readable, done: (err: Error | null) => void, trailers?: ((send: (fields: Record<string, string>) => void) => void) | null) => void} respondStream
 * @property {() => void} [flushHead]  the streamed response's head before its first byte (wire)
 */

/** node's own head maker, which the own `_storeHeader` calls first */
const nodeStoreHeader = /** @type {any} */ (ServerResponse.prototype)._storeHeader

/**
 * node's header table, as node makes it (`{ __proto__: null }`): no
 * inherited names, but a fast-properties object (a null-prototype object
 * made by Object.create(null) is a dictionary, each set a hash insert: the
 * dozen headers helmet sets cost about a third more).
 * @constructor
 */
function HeaderTable () {}
HeaderTable.prototype = Object.create(null)

export class CompatResponse extends ServerResponse {
  /**
   * @param {ResponseRecord} res
   * @param {CompatRequest} req
   */
  constructor (res, req) {
    super(/** @type {any} */ (req))
    /** the engine's response record */
    this.res = res
    // node's socket is the connection's (wire) or inject's stand-in: what
    // res.socket gives and destroy() ends. It is not this response's to
    // write to (its `_httpMessage` is not this), so node keeps the output
    // in outputData for `_onPendingData` below.
    this.socket = req.socket
    this.locals = Object.create(null)
    // node calls these on the object itself, whatever its prototype is
    this._onPendingData = outputPending
    this._storeHeader = storeHeader
    /** @type {HeaderRecord | null} the head's fields, as node made the head (writeHead, or the first write) */
    this.engineHead = null
    /** the head announces trailers (a Trailer field): the body is streamed, the trailers after it */
    this.announcesTrailers = false
    /** node made a head without a length (writeHead, or a write, before end()): the body goes chunked, as node sends it */
    this.framedChunked = false
    /** the head left outputData: what comes after it is body */
    this.headTaken = false
    /** 0 nothing queued, 1 a flush is queued for this tick, 2 parts are held to the end of the turn */
    this.flushState = 0
    /** @type {Readable | null} the body on its way to the engine, once parts came before end() */
    this.outlet = null
    /** @type {Function[] | null} node's callbacks for the last parts (its 'finish' among them), called once the engine has written them */
    this.heldCallbacks = null
    /** the engine reported the response written or cut off */
    this.ended = false
    /** @type {HeaderRecord | null} the headers the core answered with, when it answered past this object */
    this.coreHeaders = null
    /** flushHeaders() was called: the head goes out at once, the body after it is streamed */
    this.headFlushed = false
    /** @type {string | undefined} the reason phrase set here for the core's answer, not by the app */
    this.corePhrase = undefined
  }

  /**
   * node's: the head goes out now, before the body (an event stream opens
   * with it); the engine sends it as soon as the response is its next.
   */
  flushHeaders () {
    this.headFlushed = true
    super.flushHeaders()
  }

  /** where what user code throws from an engine callback is logged */
  get log () { return requestOf(this)._hotpath.log }

  /**
   * As CompatRequest.emit: a throwing listener ('finish' in a logger, a
   * 'drain' handler) and an 'error' nobody listens for are logged.
   * @param {string | symbol} event
   * @param {...any} args
   */
  emit (event, ...args) {
    return guardedEmit(this, requestOf(this)._hotpath, event, args)
  }

  /** node's (a head was made), or the core has answered past this object */
  // @ts-expect-error node's declarations make it a property; it is a getter on node's prototype
  get headersSent () { return !!(/** @type {Outgoing} */ (this))._header || this.res.headersSent }

  /**
   * node:http's setHeader, into node's table, with its checks remembered
   * for names and short values seen before (./header-checks.js): helmet
   * sets a dozen constant headers here on every request.
   * @param {string} name
   * @param {string | number | readonly string[]} value
   */
  setHeader (name, value) {
    if (this.headersSent) throw headersSentError('set')
    checkHeader(name, value)
    const self = /** @type {Outgoing} */ (this)
    let table = self[kOutHeaders]
    if (table === null) self[kOutHeaders] = table = new (/** @type {any} */ (HeaderTable))()
    table[lowerCaseName(name)] = [name, value]
    return this
  }

  /** @param {string} name */
  getHeader (name) {
    const core = this.coreHeaders
    // the core's win over those set here, as in the response written
    if (core !== null) {
      const key = lowerCaseName(String(name))
      const value = core[key]
      if (value !== undefined) return typeof value === 'number' && key === 'content-length' ? String(value) : value
    }
    return super.getHeader(name)
  }

  getHeaders () {
    const all = Object.assign(super.getHeaders(), this.coreHeaders)
    // the length the core measured, as the string Fastify sets
    if (typeof all['content-length'] === 'number') all['content-length'] = String(all['content-length'])
    return all
  }

  getHeaderNames () {
    // node's own (its table's keys) until the core answers past this
    // object: no merged copy of every header made to list their names
    return this.coreHeaders === null ? super.getHeaderNames() : Object.keys(this.getHeaders())
  }

  /** @param {string} name */
  hasHeader (name) { return this.getHeader(name) !== undefined }

  /** @param {string} name */
  removeHeader (name) {
    if (this.headersSent) throw headersSentError('remove')
    // helmet removes X-Powered-By on every request, which is seldom set
    const table = /** @type {Outgoing} */ (this)[kOutHeaders]
    if (table !== null && table[lowerCaseName(String(name))] !== undefined) super.removeHeader(name)
  }

  /**
   * node's, refused once the core has answered past this object too
   * @param {number} statusCode
   * @param {any} [reason]
   * @param {any} [headers]
   */
  writeHead (statusCode, reason, headers) {
    if (this.res.headersSent && !this.res.throughCompat) throw headersSentError('write')
    return super.writeHead(statusCode, reason, headers)
  }

  /**
   * @param {number} ms
   * @param {() => void} [callback]
   */
  setTimeout (ms, callback) {
    this.req.setTimeout(ms, callback)
    return this
  }

  /** The 1xx interim responses: the engines send 100 Continue themselves. */
  writeContinue () {}
  writeProcessing () {}

  /**
   * A 103 Early Hints ahead of the response, where the engine sends one
   * (wire, while the response is next on its connection); the callback
   * either way, as node:http calls it.
   * @param {Record<string, string | string[]>} hints
   * @param {() => void} [callback]
   */
  writeEarlyHints (hints, callback) {
    const res = /** @type {any} */ (this.res)
    if (typeof res.earlyHints === 'function') res.earlyHints(hints)
    if (typeof callback === 'function') process.nextTick(() => call(this, callback))
  }

  /**
   * res.destroy() ends the connection while the response is not written,
   * as on node:http; 'close' once.
   * @param {Error} [_err]
   */
  destroy (_err) {
    const self = /** @type {Outgoing} */ (this)
    if (self.destroyed) return this
    self.destroyed = true
    const outlet = this.outlet
    if (outlet !== null && !outlet.destroyed) outlet.destroy()
    if (!this.ended) {
      this.ended = true
      const socket = this.req.socket
      if (typeof socket.destroy === 'function') socket.destroy()
      emitClose(self)
    }
    return this
  }
}

/**
 * The compat request a compat response was made with (node's `req`).
 * @param {CompatResponse} cres
 * @returns {CompatRequest}
 */
export function requestOf (cres) {
  return /** @type {any} */ (cres.req)
}

/**
 * node's `_storeHeader`, then what the engine needs of the head: its
 * fields (as writeHead was given them, or node's table) and whether it
 * announces trailers. Node's chunked coding is turned off: the engine
 * frames the body.
 * @this {Outgoing}
 * @param {string} firstLine
 * @param {any} headers
 */
function storeHeader (firstLine, headers) {
  nodeStoreHeader.call(this, firstLine, headers)
  const fields = headerRecord(this, headers)
  this.engineHead = fields
  this.announcesTrailers = this.chunkedEncoding === true && fields.trailer !== undefined
  this.framedChunked = this.chunkedEncoding === true
  this.chunkedEncoding = false
}

/**
 * The fields node made a head of, by lower-case name.
 * @param {Outgoing} cres
 * @param {any} headers  node's table, writeHead's object, or its array
 * @returns {HeaderRecord}
 */
function headerRecord (cres, headers) {
  /** @type {HeaderRecord} */
  const out = {}
  if (headers == null) return out
  if (headers === cres[kOutHeaders]) {
    for (const key in headers) out[key] = headers[key][1]
  } else if (Array.isArray(headers)) {
    const pairs = headers.length > 0 && Array.isArray(headers[0])
    for (let i = 0; i < headers.length; i += pairs ? 1 : 2) {
      const name = pairs ? headers[i][0] : headers[i]
      const value = pairs ? headers[i][1] : headers[i + 1]
      const key = lowerCaseName(String(name))
      const had = out[key]
      out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [String(had)]), ...(Array.isArray(value) ? value : [String(value)])]
    }
  } else {
    for (const name of Object.keys(headers)) if (headers[name] !== undefined) out[lowerCaseName(name)] = headers[name]
  }
  return out
}

/**
 * True when a middleware put its own writeHead, write or end on this
 * object (on-headers for response-time and morgan, compression): the
 * reply must go through them to be seen and changed.
 * @param {CompatResponse} cres
 */
export function isWrapped (cres) {
  return Object.hasOwn(cres, 'writeHead') || Object.hasOwn(cres, 'write') || Object.hasOwn(cres, 'end')
}

/**
 * hotpath's reply, written through what middleware put in place of
 * writeHead/write/end, as node:http's writeHead + end would be; node's
 * output comes back to the engine's respond() (flushOutput).
 * @param {CompatResponse} cres
 * @param {number} statusCode
 * @param {HeaderRecord} headers
 * @param {string | Buffer | null} body
 */
export function respondThrough (cres, statusCode, headers, body) {
  cres.statusCode = statusCode
  cres.writeHead(statusCode, headers)
  if (body === null) cres.end()
  else cres.end(body)
}

/**
 * hotpath's streamed reply through the middleware's replacements: the
 * head, then the stream piped in (compression compresses it as it goes).
 * @param {CompatResponse} cres
 * @param {number} statusCode
 * @param {HeaderRecord} headers
 * @param {Readable} stream
 * @param {(err: Error | null) => void} done
 * @param {((send: (fields: Record<string, string>) => void) => void) | null} [trailers]
 */
export function streamThrough (cres, statusCode, headers, stream, done, trailers = null) {
  cres.statusCode = statusCode
  cres.writeHead(statusCode, headers)
  let called = false
  /** @param {Error | null} err */
  const once = (err) => {
    if (called) return
    called = true
    done(err)
  }
  stream.once('error', (err) => {
    once(err)
    cres.destroy()
  })
  cres.once('finish', () => once(null))
  cres.once('close', () => once(cres.writableFinished || cres.finished ? null : Object.assign(new Error('Connection closed before the response was sent'), { code: 'ECONNRESET' })))
  if (trailers === null) {
    stream.pipe(cres)
    return
  }
  stream.pipe(cres, { end: false })
  stream.once('end', () => trailers((fields) => {
    cres.addTrailers(fields)
    cres.end()
  }))
}

installExpressResponse(CompatResponse.prototype)
acceptAssignments(CompatResponse.prototype, ServerResponse.prototype)
