// node:http's ServerResponse as the wire and inject engines give it
// (reply.raw, connect middleware), built on first touch. A Writable: a body
// ended in one end() goes to the engine as one complete response
// (Content-Length, one socket write); a body written in parts, or piped in
// (serve-static), is streamed through the engine with backpressure (chunked
// unless a Content-Length was set), as node:http does. Headers set here are
// merged into the response the core writes later, the core's own winning,
// exactly as res.setHeader + writeHead merge on node:http. docs/engines.md
// lists what node:http has and this object does not.
import { Readable, Writable } from 'node:stream'
import { ServerResponse } from '../../node-http.js'
import { acceptAssignments } from '../assignable.js'
import { installExpressResponse } from '../express-helpers.js'
import { lowerCaseName } from '../../reply/header-name.js'
import { guardedEmit } from './guarded-emit.js'
import { checkHeader, writeAfterEnd, headersSentError } from './header-checks.js'

/** @typedef {import('./guarded-emit.js').Owner} Owner */
/** @typedef {import('./request.js').CompatRequest} CompatRequest */

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

installExpressResponse(CompatResponse.prototype)
acceptAssignments(CompatResponse.prototype, ServerResponse.prototype)
