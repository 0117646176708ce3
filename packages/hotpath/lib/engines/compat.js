// node:http's IncomingMessage and ServerResponse, as the wire and inject
// engines give them to the code that asks for them: `req.raw`, `reply.raw`
// and connect middleware (app.use). They are built on first touch
// (ResponseHandle.compat()), so a route that never asks pays nothing.
//
// CompatRequest is a Readable of the body, pulled from the engine's body
// stream on the first read. CompatResponse is a Writable: a body ended in
// one end() goes to the engine as one complete response (Content-Length, one
// socket write); a body written in parts, or piped in (serve-static), is
// streamed through the engine with backpressure (chunked unless a
// Content-Length was set), as node:http does. Headers set here are merged
// into the response the core writes later, the core's own winning, exactly
// as res.setHeader + writeHead merge on node:http. docs/engines.md lists
// what node:http has and these objects do not.

import { Readable, Writable } from 'node:stream'
import { errorMonitor } from 'node:events'
import { IncomingMessage, ServerResponse, validateHeaderName, validateHeaderValue } from '../node-http.js'
import { acceptAssignments } from './assignable.js'
import { installExpressRequest, installExpressResponse } from './express-helpers.js'
import { createError } from '../errors.js'
import { lowerCaseName } from '../reply/header-name.js'

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
 * The engine's response record: a WireResponse, or inject's.
 * @typedef {object} ResponseRecord
 * @property {boolean} headersSent
 * @property {number} state  3 once finished
 * @property {boolean} throughCompat  the reply is on its way through this object
 * @property {Record<string, string | number | string[]> | null} extraHeaders
 * @property {(status: number, headers: Record<string, string | number | string[]>, body: Buffer | null) => void} respond
 * @property {(status: number, headers: Record<string, string | number | string[]>, stream: Readable, done: (err: Error | null) => void, trailers?: ((send: (fields: Record<string, string>) => void) => void) | null) => void} respondStream
 */

/**
 * hotpath's request the pair belongs to: Express's req.ip and friends read
 * its address, host and protocol (its trustProxy setting), and what user
 * code throws from an engine callback goes to its log.
 * @typedef {{ log: { error: (obj: object, msg: string) => void }, ip?: string | undefined, ips?: readonly unknown[], hostname?: string | undefined, protocol?: string }} Owner
 */

/**
 * Header names and short values node:http's checks have passed. The
 * plugins that write through this object (helmet: a dozen headers a
 * request) set the same constant names and values on every request, and
 * the checks are a regular expression each (about 60 ns a name, 70 a
 * value); a name or value seen before costs one Set lookup. Validity does
 * not depend on anything else: the name only goes into the error message.
 * Bounded, as the wire writer's caches are: past the bound, every check runs.
 */
const checkedNames = new Set()
const checkedValues = new Set()
const CHECKED_LIMIT = 1024
/**
 * Longer values (a content security policy, 260 characters with helmet's
 * defaults, built anew on each request) are neither looked up nor kept:
 * hashing a new string costs about what checking it does.
 */
const CHECKED_VALUE_LENGTH = 128

/**
 * node:http's validateHeaderName and validateHeaderValue, thrown as
 * ServerResponse.setHeader throws them (ERR_INVALID_HTTP_TOKEN,
 * ERR_HTTP_INVALID_HEADER_VALUE, ERR_INVALID_CHAR).
 * @param {string} name
 * @param {unknown} value
 */
function checkHeader (name, value) {
  if (!checkedNames.has(name)) {
    validateHeaderName(name)
    if (checkedNames.size < CHECKED_LIMIT) checkedNames.add(name)
  }
  if (Array.isArray(value)) {
    for (const v of value) checkValue(name, v)
  } else {
    checkValue(name, value)
  }
}

/**
 * @param {string} name
 * @param {unknown} value
 */
function checkValue (name, value) {
  const short = typeof value === 'string' && value.length <= CHECKED_VALUE_LENGTH
  if (short && checkedValues.has(value)) return
  validateHeaderValue(name, /** @type {any} */ (value))
  if (short && checkedValues.size < CHECKED_LIMIT) checkedValues.add(value)
}

/** What a later write gets when the response has ended (node:http's code and message). */
function writeAfterEnd () {
  return Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' })
}

/** @param {string} what */
function headersSentError (what) {
  return Object.assign(new Error(`Cannot ${what} headers after they are sent to the client`), { code: 'ERR_HTTP_HEADERS_SENT' })
}

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

export class CompatResponse extends Writable {
  /**
   * @param {ResponseRecord} res
   * @param {CompatRequest} req
   */
  constructor (res, req) {
    // decodeStrings: _write gets Buffers, whatever the encoding written
    super({ decodeStrings: true, emitClose: false, autoDestroy: false })
    this.res = res
    this.req = req
    this.statusCode = 200
    /** @type {string | undefined} */
    this.statusMessage = undefined
    this.locals = Object.create(null)
    this.sendDate = true
    /** writeHead() ran (node:http: `_header` is set); headers are frozen from here */
    this.headWritten = false
    /** @type {Readable | null} the body on its way to the engine, once a write() came before end() */
    this.outlet = null
    /** @type {(() => void) | null} a _write callback waiting for the engine to take more */
    this.waiting = null
    /** @type {Buffer[] | null} parts written in this turn, before the outlet opens */
    this.held = null
    this.heldBytes = 0
    /** @type {((err?: Error | null) => void) | null} _final's callback, called when the engine is done */
    this.finalCallback = null
    /** the engine reported the response written (true) or cut off */
    this.ended = false
    /** @type {Record<string, string> | null} */
    this.trailers = null
    /** @type {Record<string, string | number | string[]> | null} the headers the core answered with, when it answered past this object */
    this.coreHeaders = null
    if (res.extraHeaders === null) res.extraHeaders = {}
  }

  /** where what user code throws from an engine callback is logged */
  get log () { return this.req._hotpath.log }

  /**
   * As CompatRequest.emit: a throwing listener ('finish' in a logger, a
   * 'drain' handler) and an 'error' nobody listens for are logged.
   * @param {string | symbol} event
   * @param {...any} args
   */
  emit (event, ...args) {
    const listened = guardedEmit(this, this.req._hotpath, event, args)
    // node:http's 'close' after 'finish' (this Writable's own is off:
    // emitClose false). 'finish' comes only once the engine has reported
    // the response written (_final waits for finish()), so it is the
    // success path's one 'close'; the failure path emits its own.
    if (event === 'finish') this.emit('close')
    return listened
  }

  get headersSent () { return this.headWritten || this.res.headersSent }
  get finished () { return this.writableEnded }
  get socket () { return this.req.socket }
  get connection () { return this.req.socket }
  /** node:http's head string once written; middleware tests it for truth (compression, on-headers) */
  get _header () { return this.headWritten ? 'HTTP/1.1 ' + this.statusCode : null }
  get _headerSent () { return this.res.headersSent }

  /** @returns {Record<string, string | number | string[]>} */
  get store () { return /** @type {Record<string, string | number | string[]>} */ (this.res.extraHeaders) }

  /**
   * @param {string} name
   * @param {string | number | readonly string[]} value
   */
  setHeader (name, value) {
    if (this.headersSent) throw headersSentError('set')
    // node:http's own checks, thrown here as ServerResponse.setHeader throws
    // them (ERR_INVALID_HTTP_TOKEN, ERR_INVALID_CHAR): a bad header is the
    // caller's error now, not one that surfaces when the head is written.
    checkHeader(name, value)
    this.store[lowerCaseName(name)] = Array.isArray(value) ? value.map(String) : /** @type {string | number} */ (value)
    return this
  }

  /**
   * Adds to a header instead of replacing it (node:http 18.3).
   * @param {string} name
   * @param {string | readonly string[]} value
   */
  appendHeader (name, value) {
    const key = lowerCaseName(String(name))
    const had = this.store[key]
    if (had === undefined) return this.setHeader(name, value)
    const list = Array.isArray(had) ? had.slice() : [String(had)]
    if (Array.isArray(value)) list.push(...value.map(String))
    else list.push(String(value))
    return this.setHeader(name, list)
  }

  /** @param {string} name */
  getHeader (name) {
    const key = lowerCaseName(String(name))
    const core = this.coreHeaders
    // the core's win over those set here, as in the response written
    if (core !== null && core[key] !== undefined) return core[key]
    return this.store[key]
  }

  getHeaders () { return Object.assign(Object.create(null), this.store, this.coreHeaders) }

  getHeaderNames () { return Object.keys(this.getHeaders()) }

  /** @param {string} name */
  hasHeader (name) { return this.getHeader(name) !== undefined }

  /** @param {string} name */
  removeHeader (name) {
    if (this.headersSent) throw headersSentError('remove')
    const key = lowerCaseName(String(name))
    // helmet removes X-Powered-By on every request, which is seldom set: a
    // delete is a runtime call even for a name that is not there
    if (this.store[key] !== undefined) delete this.store[key]
  }

  /**
   * @param {number} statusCode
   * @param {any} [reason]
   * @param {any} [headers]
   */
  writeHead (statusCode, reason, headers) {
    if (this.headWritten || this.res.headersSent) throw headersSentError('write')
    if (typeof reason === 'string') this.statusMessage = reason
    else headers = reason
    const code = statusCode | 0
    if (code < 100 || code > 999) throw Object.assign(new RangeError(`Invalid status code: ${statusCode}`), { code: 'ERR_HTTP_INVALID_STATUS_CODE' })
    this.statusCode = code
    // writeHead's headers win over setHeader's, as on node:http; they are
    // set before the head is frozen
    this.headWritten = false
    if (headers != null) {
      if (Array.isArray(headers)) {
        if (headers.length > 0 && Array.isArray(headers[0])) for (const [k, v] of headers) this.setHeader(k, v)
        else for (let i = 0; i + 1 < headers.length; i += 2) this.appendHeader(headers[i], headers[i + 1])
      } else {
        for (const k of Object.keys(headers)) if (headers[k] !== undefined) this.setHeader(k, headers[k])
      }
    }
    this.headWritten = true
    return this
  }

  /** node:http's name for the head written by a first write() or end() */
  _implicitHeader () {
    this.writeHead(this.statusCode)
  }

  /** Starts the response now: the head goes out with the first body bytes. */
  flushHeaders () {
    if (!this.headWritten) this._implicitHeader()
    if (this.outlet === null && !this.writableEnded) this.openOutlet()
  }

  /** @param {Record<string, string> | [string, string][]} headers */
  addTrailers (headers) {
    // sent after the last chunk when the head announced them (a Trailer
    // header), as node:http does; kept for code that reads them back
    this.trailers = Object.assign(this.trailers ?? {}, Array.isArray(headers) ? Object.fromEntries(headers) : headers)
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
    if (typeof callback === 'function') process.nextTick(() => this.call(callback))
  }

  /**
   * @param {any} chunk
   * @param {any} [encoding]
   * @param {any} [callback]
   */
  write (chunk, encoding, callback) {
    if (typeof encoding === 'function') { callback = encoding; encoding = undefined }
    if (this.writableEnded) {
      this.failLate(callback)
      return false
    }
    if (!this.headWritten) this._implicitHeader()
    return super.write(chunk, encoding, callback)
  }

  /**
   * @param {any} [chunk]
   * @param {any} [encoding]
   * @param {any} [callback]
   */
  end (chunk, encoding, callback) {
    if (typeof chunk === 'function') { callback = chunk; chunk = undefined }
    if (typeof encoding === 'function') { callback = encoding; encoding = undefined }
    if (this.writableEnded) {
      if (typeof callback === 'function') {
        if (this.writableFinished) queueMicrotask(() => this.call(() => callback(Object.assign(new Error('Cannot call end after a stream was finished'), { code: 'ERR_STREAM_ALREADY_FINISHED' }))))
        else this.once('finish', callback)
      }
      return this
    }
    if (!this.headWritten) this._implicitHeader()
    if (this.outlet === null && this.writableLength === 0 && !this.destroyed && this.store.trailer === undefined) {
      // Nothing sent before (at most parts written in this same turn): the
      // whole response goes to the engine at once, with its
      // Content-Length, as one socket write.
      let body = chunk == null ? null : typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      const held = this.held
      if (held !== null) {
        this.held = null
        if (body !== null) held.push(body)
        body = held.length === 1 ? held[0] : Buffer.concat(held)
      }
      // ended first: the engine may report the response written at once
      // (inject), and finish() then finds the Writable ending
      super.end(callback)
      this.res.throughCompat = true
      this.res.respond(this.statusCode, {}, body)
      return this
    }
    super.end(chunk, encoding, callback)
    return this
  }

  /**
   * @param {Buffer} chunk
   * @param {BufferEncoding} _encoding
   * @param {() => void} callback
   */
  _write (chunk, _encoding, callback) {
    if (this.outlet === null) {
      // Held until the end of this turn: a body written in parts and ended
      // at once (compression's output, a write() then end()) still goes out
      // whole, with its length, in one write. What comes later, or past
      // 64 KiB, is streamed.
      if (this.held === null) {
        this.held = []
        this.heldBytes = 0
        setImmediate(openHeld, this)
      }
      this.held.push(chunk)
      this.heldBytes += chunk.length
      if (this.heldBytes >= HELD_LIMIT) this.openOutlet()
      callback()
      return
    }
    const outlet = this.outlet
    // a destroyed outlet (HEAD, 204, a client gone) takes the bytes nowhere
    if (outlet.destroyed || outlet.push(chunk)) callback()
    else this.waiting = callback
  }

  /** @param {(err?: Error | null) => void} callback */
  _final (callback) {
    // a head that announces trailers is streamed (chunked), even empty
    if (this.outlet === null && (this.held !== null || this.store.trailer !== undefined)) this.openOutlet()
    if (this.outlet !== null) this.outlet.push(null)
    if (this.ended) callback()
    else this.finalCallback = callback
  }

  /**
   * res.destroy() ends the connection, as on node:http.
   * @param {Error | null} err
   * @param {(err: Error | null) => void} callback
   */
  _destroy (err, callback) {
    if (this.outlet !== null && !this.outlet.destroyed) this.outlet.destroy()
    if (!this.ended) {
      const socket = this.req.socket
      if (typeof socket.destroy === 'function') socket.destroy()
    }
    // As ServerResponse.destroy(err) does: the error goes with the socket,
    // and the response only closes (an 'error' nobody listens for would
    // end the process).
    callback(null)
    // 'close' once, here or in finish()
    if (!this.ended) {
      this.ended = true
      this.emit('close')
    }
  }

  /** The body is written in parts: the engine streams it from here on. */
  openOutlet () {
    const outlet = this.outlet = new Readable({
      read: () => {
        const waiting = this.waiting
        if (waiting !== null) {
          this.waiting = null
          waiting()
        }
      }
    })
    this.res.throughCompat = true
    // a head that announces trailers: they go after the last chunk
    const trailers = this.store.trailer === undefined ? null : (/** @type {(fields: Record<string, string>) => void} */ send) => send(this.trailers ?? {})
    this.res.respondStream(this.statusCode, {}, outlet, (err) => {
      const waiting = this.waiting
      this.waiting = null
      if (waiting !== null) waiting()
      if (err !== null && !this.ended) this.destroy()
    }, trailers)
    const held = this.held
    this.held = null
    if (held !== null) for (const chunk of held) outlet.push(chunk)
  }

  /**
   * A write after end(): node:http calls back with the error and emits it;
   * here it is emitted only to a listener, so it cannot end the process.
   * @param {any} callback
   */
  failLate (callback) {
    const err = writeAfterEnd()
    process.nextTick(() => {
      if (typeof callback === 'function') this.call(() => callback(err))
      this.emit('error', err)
    })
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

  /**
   * hotpath's streamed reply through the middleware's replacements: the
   * head, then the stream piped in (compression compresses it as it goes).
   * @param {number} statusCode
   * @param {Record<string, string | number | string[]>} headers
   * @param {Readable} stream
   * @param {(err: Error | null) => void} done
   * @param {((send: (fields: Record<string, string>) => void) => void) | null} [trailers]
   */
  streamThrough (statusCode, headers, stream, done, trailers = null) {
    this.statusCode = statusCode
    this.writeHead(statusCode, headers)
    let called = false
    /** @param {Error | null} err */
    const once = (err) => {
      if (called) return
      called = true
      done(err)
    }
    stream.once('error', (err) => {
      once(err)
      this.destroy()
    })
    this.once('finish', () => once(null))
    this.once('close', () => once(this.writableFinished ? null : Object.assign(new Error('Connection closed before the response was sent'), { code: 'ECONNRESET' })))
    if (trailers === null) {
      stream.pipe(this)
      return
    }
    stream.pipe(this, { end: false })
    stream.once('end', () => trailers((fields) => {
      this.addTrailers(fields)
      this.end()
    }))
  }

  /**
   * Called by the engine when the response is done (err null) or the
   * connection died.
   * @param {Error | null} err
   */
  finish (err) {
    if (this.ended) return
    this.ended = true
    if (err === null) {
      // 'finish' (and after it 'close', see emit) comes from the Writable
      // once _final is done; a response the core wrote without this object
      // ends it here
      const callback = this.finalCallback
      if (callback !== null) {
        this.finalCallback = null
        callback()
      } else if (!this.writableEnded) {
        /** @type {any} */ (Writable.prototype.end).call(this)
      }
    } else {
      this.destroy()
      this.emit('close')
    }
  }

  /**
   * Runs user code from the engine's side (a listener, a write callback):
   * what it throws is that request's error, logged, and never reaches the
   * connection code or the process.
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

installExpressRequest(CompatRequest.prototype)
installExpressResponse(CompatResponse.prototype)
acceptAssignments(CompatRequest.prototype, IncomingMessage.prototype)
acceptAssignments(CompatResponse.prototype, ServerResponse.prototype)

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
  if (cres === null) return false
  if (res.throughCompat || !cres.wrapped) {
    answeredPast(res, cres, statusCode, headers)
    return false
  }
  res.throughCompat = true
  cres.respondThrough(statusCode, headers, body)
  return true
}

/**
 * The same for respondStream().
 * @param {{ compatRes: CompatResponse | null, throughCompat: boolean }} res
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 * @param {Readable} stream
 * @param {(err: Error | null) => void} done
 * @param {((send: (fields: Record<string, string>) => void) => void) | null} [trailers]
 */
export function streamThroughMiddleware (res, statusCode, headers, stream, done, trailers = null) {
  const cres = res.compatRes
  if (cres === null) return false
  if (res.throughCompat || !cres.wrapped) {
    answeredPast(res, cres, statusCode, headers)
    return false
  }
  res.throughCompat = true
  cres.streamThrough(statusCode, headers, stream, done, trailers)
  return true
}

/**
 * The core answers through the engine, not through the compat response:
 * what it answers shows on the compat response (its statusCode and
 * getHeader()), as on node:http's ServerResponse, for code that reads them
 * at its 'finish' or 'close' (an instrumentation's span, a logger).
 * @param {{ throughCompat: boolean }} res
 * @param {CompatResponse} cres
 * @param {number} statusCode
 * @param {Record<string, string | number | string[]>} headers
 */
function answeredPast (res, cres, statusCode, headers) {
  if (res.throughCompat) return
  cres.statusCode = statusCode
  cres.coreHeaders = headers
}

/** Past this many bytes written in one turn, the body is streamed at once. */
const HELD_LIMIT = 64 * 1024

/**
 * The turn in which parts were written has ended without end(): stream
 * them, and what follows.
 * @param {CompatResponse} res
 */
function openHeld (res) {
  if (res.held !== null && res.outlet === null && !res.destroyed) res.openOutlet()
}

/**
 * @param {import('node:events').EventEmitter} target
 * @param {Owner} owner
 * @param {string | symbol} event
 * @param {any[]} args
 */
function guardedEmit (target, owner, event, args) {
  // the Writable's own events ('prefinish', 'finish') and 'close' on a
  // response nobody listens to: no copy of an empty listener list
  if (event !== 'error' && target.listenerCount(event) === 0) return false
  // as EventEmitter.emit: an 'error' goes to the errorMonitor listeners
  // first (instrumentations watch a response's failure there)
  if (event === 'error') for (const listener of target.rawListeners(errorMonitor)) callGuarded(target, owner, event, listener, args)
  const listeners = target.rawListeners(event)
  if (listeners.length === 0) {
    if (event === 'error') owner.log.error({ err: args[0] }, 'an error on the request or response objects, with no listener')
    return false
  }
  // each listener on its own: one that throws does not keep the others
  // (the 'close' after 'finish') from running
  for (const listener of listeners) callGuarded(target, owner, event, listener, args)
  return true
}

/**
 * @param {import('node:events').EventEmitter} target
 * @param {Owner} owner
 * @param {string | symbol} event
 * @param {unknown} listener
 * @param {any[]} args
 */
function callGuarded (target, owner, event, listener, args) {
  try {
    Reflect.apply(/** @type {Function} */ (listener), target, args)
  } catch (err) {
    owner.log.error({ err }, `a '${String(event)}' listener threw`)
  }
}
