// One client connection: feeds the parser, dispatches requests, writes the
// responses in request order, applies backpressure and timeouts.
//
// Writes made while a read is being processed are collected and go out in
// one socket write at the end of that read: N pipelined requests that came
// in one packet get their N responses in one packet (DESIGN.md §3.7).

import { Parser } from './parser.js'
import { Readable } from 'node:stream'
import { WireResponse, connectionClosed } from './response.js'
import { headerLines, headInfo, statusLine, statusHasNoBody, errorResponse } from './writer.js'
import { LINGER_MS, TIMEOUT_LINGER_MS } from './limits.js'
import { ERRORS } from '../../errors.js'
import { errorAnswer } from '../../reply/error-body.js'

/** @typedef {import('./request.js').WireRequest} WireRequest */
/** @typedef {import('./index.js').WireEngine} WireEngine */

// What the shared timer checks for a connection (see WireEngine#tick).
export const P_HEAD = 0 // waiting for (the rest of) a request head: headersTimeout
export const P_BODY = 1 // waiting for the rest of a body: requestTimeout
export const P_BUSY = 2 // the application has the request: no timeout
export const P_IDLE = 3 // keep-alive, nothing in flight: keepAliveTimeout
export const P_LINGER = 4 // we half-closed; draining what the client still sends

// Why reading is paused (bit flags): every reason must clear before resuming.
const PAUSE_PIPELINE = 1
const PAUSE_WRITE = 2
const PAUSE_BODY = 4

const EMPTY = Buffer.alloc(0)
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'
const OUT_BATCH = 64 * 1024

export class Connection {
  /**
   * @param {WireEngine} engine
   * @param {import('node:net').Socket} socket
   * @param {boolean} encrypted
   */
  constructor (engine, socket, encrypted) {
    this.engine = engine
    this.socket = socket
    this.encrypted = encrypted
    this.remoteAddress = socket.remoteAddress
    this.parser = new Parser(this, this, engine.limits)
    /** ParserSink: parse nothing more for now */
    this.stopped = false
    /** no new request will be read on this connection */
    this.closing = false
    /** incoming bytes are dropped (after a rejected or abandoned request) */
    this.discard = false
    /** the socket is gone or was handed to someone else */
    this.detached = false
    this.ended = false
    /** a response that closes the connection went out: nothing more is written */
    this.closedWrite = false
    /** @type {WireResponse[]} responses not finished yet, in request order */
    this.queue = []
    /** a read is being processed: writes are collected in `out` */
    this.batching = false
    /** @type {(string | Buffer)[]} writes collected during a read (one array per connection) */
    this.out = []
    this.outBytes = 0
    this.endAfterFlush = false
    this.writeBlocked = false
    this.paused = 0
    /** @type {WireRequest | null} the request whose body is being received */
    this.current = null
    /** @type {WireRequest | null} */
    this.upgradeReq = null
    /** @type {WireResponse | null} the response being streamed */
    this.streaming = null
    this.requests = 0
    this.phase = P_HEAD
    this.since = engine.clock
    this.headStarted = false
    this.reqStart = 0
    /** @type {string | null} a rejection waiting for earlier responses */
    this.pendingError = null
    /** ms the socket is drained after we half-close it (P_LINGER) */
    this.linger = LINGER_MS
  }

  // ── reading ──────────────────────────────────────────────────────────

  /** @param {Buffer} chunk */
  onData (chunk) {
    if (this.discard || this.detached) return
    this.batching = true
    this.parser.execute(chunk)
    // a pause lifted while this read was being processed
    while (!this.stopped && this.parser.held && !this.detached) this.parser.execute(EMPTY)
    if (this.upgradeReq !== null) return this.handOff(this.upgradeReq)
    this.flush()
    this.updatePhase()
  }

  /** Ends a read: collected writes go out, then a pending half-close. */
  flush () {
    if (this.out.length > 0) this.drainOut()
    this.batching = false
    if (this.endAfterFlush) this.shutdown()
  }

  /** Writes what was collected so far in one socket write (or one writev). */
  drainOut () {
    const out = this.out
    this.outBytes = 0
    if (this.detached) {
      out.length = 0
      return
    }
    const socket = this.socket
    let ok = true
    if (out.length === 1) {
      // pop, not length = 0: setting an array's length is a runtime call
      ok = socket.write(/** @type {string | Buffer} */ (out.pop()))
    } else if (out.length > 1) {
      let strings = true
      for (let i = 0; i < out.length; i++) if (typeof out[i] !== 'string') { strings = false; break }
      if (strings) {
        const data = out.join('')
        out.length = 0
        ok = socket.write(data)
      } else {
        const list = out.splice(0, out.length)
        socket.cork()
        for (let i = 0; i < list.length; i++) ok = socket.write(list[i])
        socket.uncork()
      }
    }
    if (!ok) this.blocked()
  }

  /** @param {string | Buffer} data */
  send (data) {
    if (this.closedWrite) return
    if (this.batching) {
      this.out.push(data)
      // one read of small pipelined requests can ask for huge responses:
      // past 64 KiB the batch goes out now, so the socket's backpressure
      // (a client that does not read) stops the parsing of this very read
      this.outBytes += data.length
      if (this.outBytes >= OUT_BATCH) this.drainOut()
    } else if (!this.detached) {
      if (!this.socket.write(data)) this.blocked()
    }
  }

  blocked () {
    this.writeBlocked = true
    this.pause(PAUSE_WRITE)
  }

  onDrain () {
    this.writeBlocked = false
    const res = this.streaming
    if (res !== null && res.stream !== null) res.stream.resume()
    this.resume(PAUSE_WRITE)
  }

  /** @param {number} why */
  pause (why) {
    if (this.paused === 0) this.socket.pause()
    this.paused |= why
    this.stopped = true
  }

  /** @param {number} why */
  resume (why) {
    if ((this.paused & why) === 0) return
    this.paused &= ~why
    // closing stops the reading of new requests, not of the body of the
    // current one (Connection: close on a request with a body)
    if (this.paused !== 0 || this.detached || (this.closing && this.current === null)) return
    this.stopped = false
    this.socket.resume()
    // bytes held while paused are parsed now, unless a read is in progress
    // (its loop in onData picks them up)
    if (!this.batching && this.parser.held) {
      this.batching = true
      this.parser.execute(EMPTY)
      if (this.upgradeReq !== null) return this.handOff(this.upgradeReq)
      this.flush()
      this.updatePhase()
    }
  }

  updatePhase () {
    if (this.detached || this.ended) return
    // waiting for the body: only while it is read; a body paused because
    // nobody reads it (or the client does not read our answers) is the
    // application's time, bounded by the core's request timeout
    if (this.parser.inBody && this.paused === 0) {
      if (this.phase !== P_BODY) { this.phase = P_BODY; this.since = this.reqStart }
    } else if (this.stopped || this.queue.length > 0) {
      this.phase = P_BUSY
    } else if (this.headStarted) {
      this.phase = P_HEAD
    } else if (this.phase !== P_IDLE) {
      this.phase = P_IDLE
      this.since = this.engine.clock
    }
  }

  // ── ParserSink ───────────────────────────────────────────────────────

  onHeadStart () {
    if (!this.headStarted) {
      this.headStarted = true
      this.phase = P_HEAD
      this.since = this.engine.clock
    }
  }

  /** @param {WireRequest} req */
  onRequest (req) {
    this.reqStart = this.headStarted ? this.since : this.engine.clock
    this.headStarted = false
    const engine = this.engine
    const res = new WireResponse(this, req)
    req.res = res
    const max = engine.limits.maxRequestsPerSocket
    if (!req.keepAlive || (max > 0 && ++this.requests >= max)) {
      req.keepAlive = false
      this.closing = true
    }
    if (req.upgrade && engine.upgradeHandler !== null) {
      this.upgradeReq = req
      this.stopped = true
      return
    }
    this.queue.push(res)
    if (!req.complete) this.current = req
    if (this.queue.length >= engine.limits.maxPipelined) this.pause(PAUSE_PIPELINE)
    const handler = engine.handler
    if (handler === null) {
      this.writeError(res, 'HP_ERR_NOT_READY', false)
      return
    }
    if (engine.closing) {
      this.writeError(res, 'HP_ERR_SERVER_CLOSING', true)
      return
    }
    try {
      handler(req, res)
    } catch (err) {
      // the core's handler never throws; if it does, the client still gets an answer
      engine.clientError(/** @type {Error} */ (err), this)
      if (res.state === 0) this.writeError(res, 'HP_ERR_INTERNAL', false)
    }
  }

  /**
   * @param {WireRequest} req
   * @param {Buffer} chunk
   */
  onBody (req, chunk) {
    switch (req.sinkKind) {
      case 1:
        req.buffered += chunk.length
        if (req.buffered > req.limit) return this.bodyTooLarge(req)
        if (req.chunks !== null) req.chunks.push(chunk)
        break
      case 2:
        if (!(/** @type {import('node:stream').Readable} */ (req.stream)).push(chunk)) this.pause(PAUSE_BODY)
        break
      case 3:
        break
      default:
        if (req.chunks === null) req.chunks = [chunk]
        else req.chunks.push(chunk)
        req.buffered += chunk.length
        if (req.buffered > this.engine.limits.bodyHighWater) this.pause(PAUSE_BODY)
    }
  }

  /** @param {WireRequest} req */
  onComplete (req) {
    if (this.current === req) this.current = null
    if (this.closing) {
      this.stopped = true
      this.discard = true
    }
    if (req.sinkKind === 1) {
      const done = /** @type {(err: any, body?: Buffer) => void} */ (req.done)
      req.done = null
      req.sinkKind = 3
      const chunks = /** @type {Buffer[]} */ (req.chunks)
      req.chunks = null
      done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, req.buffered))
    } else if (req.sinkKind === 2) {
      const stream = /** @type {import('node:stream').Readable} */ (req.stream)
      stream.push(null)
    }
    // The last bytes of the body may have crossed a high-water mark and
    // paused reading. The body is complete: nothing will lift that pause
    // (readBody takes a complete body at once, an ended stream is not read
    // again), and the next request on this connection would never be read.
    if ((this.paused & PAUSE_BODY) !== 0) this.resume(PAUSE_BODY)
  }

  /**
   * The parser rejected the request: answer and close. The answer waits for
   * earlier pipelined responses, so the order on the wire stays right.
   * @param {string} code  an HP_ERR_* code of the error table
   * @param {string | number} [detail]  the parser's reason, or a limit
   */
  onError (code, detail) {
    this.stopped = true
    this.closing = true
    this.discard = true
    const answer = errorAnswer(code, detail ?? '')
    this.engine.clientError(engineError(code, detail === undefined ? undefined : String(detail)), this)
    const req = this.current
    if (req !== null) {
      // a broken chunked body: the request the application holds fails
      // with the parser's reason, so its answer says what was wrong
      this.current = null
      this.abortBody(req, code, String(detail))
    }
    if (this.queue.length === 0) {
      this.send(errorResponse(answer, this.engine.dateLine))
      this.closedWrite = true
      this.shutdownSoon()
    } else {
      this.pendingError = errorResponse(answer, this.engine.dateLine)
    }
  }

  // ── request bodies ──────────────────────────────────────────────────

  /**
   * @param {WireRequest} req
   * @param {number} limit
   * @param {(err: any, body?: Buffer) => void} done
   */
  readBody (req, limit, done) {
    if (req.sinkKind !== 0) return done(engineError('HP_ERR_BODY_CONSUMED'))
    if (req.contentLength > limit || req.buffered > limit) {
      this.abandonBody(req)
      return done(engineError('HP_ERR_BODY_TOO_LARGE'))
    }
    if (req.complete) {
      const chunks = req.chunks
      req.chunks = null
      req.sinkKind = 3
      return done(null, chunks === null ? EMPTY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, req.buffered))
    }
    if (req.aborted) return done(engineError('HP_ERR_REQUEST_ABORTED'))
    req.sinkKind = 1
    req.limit = limit
    req.done = done
    if (req.chunks === null) req.chunks = []
    this.wantBody(req)
  }

  /** @param {WireRequest} req */
  bodyTooLarge (req) {
    const done = req.done
    this.abandonBody(req)
    if (done !== null) done(engineError('HP_ERR_BODY_TOO_LARGE'))
  }

  /**
   * Nobody will read the rest of this body: drop it and close the
   * connection after the response (413 without buffering the rest).
   * @param {WireRequest} req
   */
  abandonBody (req) {
    req.sinkKind = 3
    req.chunks = null
    req.done = null
    if (!req.complete) {
      this.closing = true
      this.stopped = true
      this.discard = true
      if (req.res !== null) req.res.closeAfter = true
    }
  }

  /** @param {WireRequest} req */
  bodyStream (req) {
    const conn = this
    const stream = new Readable({
      read () { conn.resume(PAUSE_BODY) },
      destroy (err, cb) {
        if (req.sinkKind === 2 && !req.complete) conn.abandonBody(req)
        // As node:http's IncomingMessage does: an abort is reported as
        // 'error' only to someone listening for it. A preParsing hook still
        // awaiting something holds the stream with no listener yet, and an
        // 'error' nobody listens for ends the process; 'close' still tells
        // a late reader that the body is gone.
        cb(stream.listenerCount('error') > 0 ? err : null)
      }
    })
    if (req.sinkKind !== 0) {
      stream.destroy(engineError('HP_ERR_BODY_CONSUMED'))
      return stream
    }
    const chunks = req.chunks
    req.chunks = null
    if (chunks !== null) for (const c of chunks) stream.push(c)
    if (req.complete) {
      req.sinkKind = 3
      stream.push(null)
    } else if (req.aborted) {
      stream.destroy(engineError('HP_ERR_REQUEST_ABORTED'))
    } else {
      req.sinkKind = 2
      req.stream = stream
      this.wantBody(req)
    }
    return stream
  }

  /**
   * Someone reads the body now: lift the pause, and send 100 Continue to a
   * client that waits for it (RFC 9110 §10.1.1).
   * @param {WireRequest} req
   */
  wantBody (req) {
    if (req.expectContinue) {
      req.expectContinue = false
      if (req.res !== null && this.queue[0] === req.res) this.send(CONTINUE)
      else req.continueLater = true
    }
    this.resume(PAUSE_BODY)
  }

  /**
   * Fails the body the application is reading (default: the client left).
   * @param {WireRequest} req
   * @param {string} [code]
   * @param {string} [detail]
   */
  abortBody (req, code = 'HP_ERR_REQUEST_ABORTED', detail) {
    req.aborted = true
    const kind = req.sinkKind
    req.sinkKind = 3
    if (kind === 1) {
      const done = /** @type {(err: any) => void} */ (req.done)
      req.done = null
      req.chunks = null
      done(engineError(code, detail))
    } else if (kind === 2) {
      const stream = /** @type {import('node:stream').Readable} */ (req.stream)
      stream.destroy(engineError(code, detail))
    }
  }

  // ── responses ────────────────────────────────────────────────────────

  /**
   * Decides whether the connection survives this response.
   * @param {WireResponse} res
   */
  prepareClose (res) {
    const req = res.req
    if (!req.complete && req.sinkKind !== 3) {
      // answered before the body was read. A small declared body that the
      // client is already sending is read and dropped (keep-alive survives,
      // as on node:http); anything else closes the connection.
      const left = req.contentLength - req.buffered
      if (req.contentLength >= 0 && left <= this.engine.limits.bodyHighWater && !req.expectContinue && !req.continueLater) {
        req.sinkKind = 3
        req.chunks = null
        this.resume(PAUSE_BODY)
      } else {
        this.abandonBody(req)
      }
    } else if (!req.complete) {
      res.closeAfter = true
    }
    if (!req.keepAlive || this.engine.closing) res.closeAfter = true
  }

  /**
   * @param {WireResponse} res
   * @param {number} status
   * @param {Record<string, string | number | string[]>} headers
   * @param {string | Buffer | null} body
   */
  write (res, status, headers, body) {
    if (res.state !== 0 || this.detached || this.closedWrite) return
    const req = res.req
    this.prepareClose(res)
    let head = statusLine(status) + headerLines(headers, res.extraHeaders)
    if (headInfo.close) res.closeAfter = true
    const noBody = statusHasNoBody(status)
    let length = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length
    if (req.method === 'HEAD' && headInfo.length >= 0 && body === null) length = headInfo.length
    if (!noBody) head += 'content-length: ' + length + '\r\n'
    else if (status === 304 && headInfo.length >= 0) head += 'content-length: ' + headInfo.length + '\r\n'
    head += this.engine.dateLine + (res.closeAfter ? 'Connection: close\r\n\r\n' : this.engine.keepAliveLines)
    /** @type {string | Buffer} */
    let data = head
    /** @type {Buffer | null} */
    let data2 = null
    if (!headInfo.ascii) data = Buffer.from(head, 'latin1')
    if (body !== null && !noBody && req.method !== 'HEAD' && length > 0) {
      if (typeof body === 'string' && typeof data === 'string') data = head + body
      else data2 = typeof body === 'string' ? Buffer.from(body) : body
    }
    this.emitComplete(res, data, data2)
  }

  /**
   * Sends a complete response now, or keeps it until the responses to
   * earlier requests are out.
   * @param {WireResponse} res
   * @param {string | Buffer} data
   * @param {Buffer | null} data2
   */
  emitComplete (res, data, data2) {
    res.headersSent = true
    if (this.queue[0] === res) {
      this.send(data)
      if (data2 !== null) this.send(data2)
      this.finished(res, null)
      this.advance()
    } else {
      res.state = 1
      res.data = data
      res.data2 = data2
    }
  }

  /**
   * An answer of the engine's own, from the error table.
   * @param {WireResponse} res
   * @param {string} code
   * @param {boolean} close  the connection ends after it
   */
  writeError (res, code, close) {
    const answer = errorAnswer(code)
    /** @type {Record<string, string>} */
    const headers = { 'content-type': 'application/json; charset=utf-8' }
    if (close) headers.connection = 'close'
    this.write(res, answer.status, headers, answer.body)
  }


  /** Writes the responses that were waiting for earlier ones. */
  advance () {
    const queue = this.queue
    while (queue.length > 0 && !this.detached && !this.closedWrite) {
      const res = queue[0]
      if (res.state === 1) {
        this.send(/** @type {string | Buffer} */ (res.data))
        if (res.data2 !== null) this.send(res.data2)
        res.data = null
        res.data2 = null
        this.finished(res, null)
        continue
      }
      if (res.req.continueLater && res.state === 0) {
        res.req.continueLater = false
        this.send(CONTINUE)
      }
      if (res.state === 2 && this.streaming === null) this.startStream(res)
      break
    }
    if (queue.length === 0 && this.pendingError !== null) {
      this.send(this.pendingError)
      this.pendingError = null
      this.closedWrite = true
      this.shutdownSoon()
    }
  }

  /**
   * @param {WireResponse} res
   * @param {Error | null} err
   */
  finished (res, err) {
    res.state = 3
    if (this.queue[0] === res) this.queue.shift()
    else {
      const i = this.queue.indexOf(res)
      if (i !== -1) this.queue.splice(i, 1)
    }
    res.ended(err)
    if (err !== null) return
    if (res.closeAfter || (this.closing && this.pendingError === null && this.queue.length === 0 && this.current === null)) {
      this.endAfterWrites()
      return
    }
    if (this.queue.length < this.engine.limits.maxPipelined / 2) this.resume(PAUSE_PIPELINE)
    if (!this.batching) this.updatePhase()
  }

  // ── streams ──────────────────────────────────────────────────────────

  /**
   * @param {WireResponse} res
   * @param {number} status
   * @param {Record<string, string | number | string[]>} headers
   * @param {import('node:stream').Readable} stream
   * @param {(err: Error | null) => void} done
   */
  writeStream (res, status, headers, stream, done) {
    if (res.state !== 0 || this.detached || this.closedWrite) {
      stream.destroy()
      return done(new Error('Response already sent'))
    }
    this.prepareClose(res)
    let head = statusLine(status) + headerLines(headers, res.extraHeaders)
    if (headInfo.close) res.closeAfter = true
    const req = res.req
    if (statusHasNoBody(status) || req.method === 'HEAD') {
      stream.destroy()
      if (headInfo.length >= 0 && status !== 204) head += 'content-length: ' + headInfo.length + '\r\n'
      head += this.engine.dateLine + (res.closeAfter ? 'Connection: close\r\n\r\n' : this.engine.keepAliveLines)
      this.emitComplete(res, headInfo.ascii ? head : Buffer.from(head, 'latin1'), null)
      return done(null)
    }
    if (headInfo.length >= 0) {
      head += 'content-length: ' + headInfo.length + '\r\n'
      res.streamLeft = headInfo.length
    } else if (req.httpVersion === '1.1') {
      head += 'transfer-encoding: chunked\r\n'
      res.streamChunked = true
    } else {
      // HTTP/1.0 has no chunked coding: the end of the body is the end of the connection
      res.closeAfter = true
    }
    head += this.engine.dateLine + (res.closeAfter ? 'Connection: close\r\n\r\n' : this.engine.keepAliveLines)
    res.streamHead = head
    res.streamAscii = headInfo.ascii
    res.stream = stream
    res.streamDone = done
    res.state = 2
    if (this.queue[0] === res && this.streaming === null) this.startStream(res)
  }

  /** @param {WireResponse} res */
  startStream (res) {
    this.streaming = res
    const conn = this
    const stream = /** @type {import('node:stream').Readable} */ (res.stream)
    /** @param {string | Buffer} chunk */
    const onData = (chunk) => {
      if (conn.detached) return
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      if (buf.length === 0) return
      if (res.streamLeft >= 0) {
        // more than the declared length: those bytes would be read as the
        // start of the next response (RFC 9112 §6.3)
        if (buf.length > res.streamLeft) {
          onError(lengthMismatch())
          stream.destroy()
          return
        }
        res.streamLeft -= buf.length
      }
      conn.sendHead(res)
      if (res.streamChunked) {
        conn.send(buf.length.toString(16) + '\r\n')
        conn.send(buf)
        conn.send('\r\n')
      } else {
        conn.send(buf)
      }
      if (conn.writeBlocked) stream.pause()
    }
    const onEnd = () => {
      if (res.streamLeft > 0) return onError(lengthMismatch())
      cleanup()
      conn.sendHead(res)
      if (res.streamChunked) conn.send('0\r\n\r\n')
      conn.endStream(res, null)
    }
    /** @param {Error} err */
    const onError = (err) => {
      cleanup()
      if (!res.headersSent) {
        // nothing written yet: the application can still send an error response
        res.state = 0
        res.stream = null
        conn.streaming = null
        const done = res.streamDone
        res.streamDone = null
        if (done !== null) done(err)
        return
      }
      conn.endStream(res, err)
      conn.endAfterWrites()
    }
    const onClose = () => {
      // a stream destroyed without 'end' or 'error'
      if (conn.streaming === res && !stream.readableEnded) onError(new Error('Stream closed before it ended'))
    }
    const cleanup = () => {
      stream.removeListener('data', onData)
      stream.removeListener('end', onEnd)
      stream.removeListener('error', onError)
      stream.removeListener('close', onClose)
    }
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onError)
    stream.on('close', onClose)
  }

  /** @param {WireResponse} res */
  sendHead (res) {
    if (res.headersSent) return
    res.headersSent = true
    this.send(res.streamAscii ? res.streamHead : Buffer.from(res.streamHead, 'latin1'))
    res.streamHead = ''
  }

  /**
   * @param {WireResponse} res
   * @param {Error | null} err
   */
  endStream (res, err) {
    this.streaming = null
    res.stream = null
    const done = res.streamDone
    res.streamDone = null
    // a failure is reported to the writer first, so that it is logged as
    // the server's failure before finishing reports the response as cut off
    if (err !== null && done !== null) done(err)
    this.finished(res, err)
    if (err === null) {
      if (done !== null) done(null)
      this.advance()
    }
  }

  // ── ends ─────────────────────────────────────────────────────────────

  /** Half-closes once collected writes are out. */
  shutdownSoon () {
    if (this.batching) this.endAfterFlush = true
    else this.shutdown()
  }

  shutdown () {
    this.endAfterFlush = false
    if (this.ended || this.detached) return
    this.ended = true
    this.discard = true
    this.phase = P_LINGER
    this.since = this.engine.clock
    // end() rather than destroy(): a client still sending its body must get
    // to read the answer; a reset would throw the answer away
    this.socket.end()
  }

  destroy () {
    if (!this.detached) this.socket.destroy()
  }

  /**
   * Nothing more is read or written on this connection: what was written
   * still goes out, then it half-closes; requests after this point are
   * never answered, a rejection included. After the last response of a
   * closing connection, and after a streamed response failed past its head:
   * without the last chunk (or short of its length) the client knows that
   * body is incomplete (RFC 9112 §7.1, §8), where destroying at once would
   * also throw away the head and any bytes still queued in the socket. The
   * linger timer bounds a client that does not read.
   */
  endAfterWrites () {
    this.closing = true
    this.stopped = true
    this.discard = true
    this.closedWrite = true
    this.pendingError = null
    this.shutdownSoon()
  }

  /** Timeout fired in `phase` (called by the shared timer). */
  timeout () {
    const q = this.queue
    const res = q.length === 1 ? q[0] : null
    if (this.phase === P_IDLE || this.phase === P_LINGER) return this.destroy()
    if (q.length === 0 || (res !== null && res.req === this.current && res.state === 0)) {
      this.engine.clientError(engineError('HP_ERR_REQUEST_TIMEOUT'), this)
      this.closing = true
      this.stopped = true
      this.discard = true
      if (this.current !== null) {
        const req = this.current
        this.current = null
        this.abortBody(req, 'HP_ERR_REQUEST_TIMEOUT')
      }
      if (res !== null) {
        // the application's response can no longer be sent after this one
        this.queue.length = 0
        res.state = 3
      }
      this.send(errorResponse(errorAnswer('HP_ERR_REQUEST_TIMEOUT'), this.engine.dateLine))
      this.closedWrite = true
      this.linger = TIMEOUT_LINGER_MS
      this.shutdown()
      if (res !== null) {
        res.ended(engineError('HP_ERR_REQUEST_TIMEOUT'))
      }
      return
    }
    this.destroy()
  }

  /**
   * The client sent FIN. Like node:http (without httpAllowHalfOpen), that
   * counts as the client going away: whatever is in flight is aborted
   * (onClose reports it to body readers, streams and onFinish). Half a
   * request head gets the 400 llhttp would give it.
   */
  onEnd () {
    this.closing = true
    this.stopped = true
    this.discard = true
    if (this.ended) return this.destroy()
    if (!this.parser.idle && !this.parser.inBody && this.upgradeReq === null && this.queue.length === 0) {
      this.parser.pending = null
      return this.onError('HP_ERR_BAD_REQUEST', 'Incomplete request')
    }
    if (this.queue.length > 0 || this.current !== null || this.streaming !== null) return this.destroy()
    this.shutdown()
  }

  /** The socket closed: everything still in flight is aborted, once. */
  onClose () {
    if (this.detached) return
    this.detached = true
    this.engine.connections.delete(this)
    const req = this.current
    if (req !== null) {
      this.current = null
      if (!req.complete) this.abortBody(req)
    }
    const err = connectionClosed()
    const queue = this.queue
    this.queue = []
    for (const res of queue) {
      if (res.state === 3) continue
      if (res.stream !== null) {
        res.stream.destroy()
        res.stream = null
      }
      const done = res.streamDone
      res.streamDone = null
      res.state = 3
      res.ended(err)
      if (done !== null) done(err)
      if (!res.req.complete) this.abortBody(res.req)
    }
    this.streaming = null
    this.engine.maybeClosed()
  }

  /**
   * Stops managing the socket (upgrade, hijack).
   * @returns {import('node:net').Socket}
   */
  detach () {
    if (this.out.length > 0) this.drainOut()
    this.batching = false
    // nothing more is parsed or written by the engine on this socket
    this.stopped = true
    this.discard = true
    this.detached = true
    this.engine.connections.delete(this)
    this.engine.unbind(this)
    this.engine.maybeClosed()
    return this.socket
  }

  /** @param {WireRequest} req */
  handOff (req) {
    this.upgradeReq = null
    const head = this.parser.takeRest()
    const socket = this.detach()
    const handler = /** @type {Function} */ (this.engine.upgradeHandler)
    handler(req, socket, head)
  }

  /** True when closing it loses nothing (graceful close). */
  get idle () {
    return this.queue.length === 0 && this.current === null && this.streaming === null
  }
}

function lengthMismatch () {
  return Object.assign(new Error('The response stream does not match its Content-Length'), { code: 'ERR_HTTP_CONTENT_LENGTH_MISMATCH' })
}

/**
 * An error as engines report it (../engine.js, readBody): the code, its
 * status from the table, and the reason as message.
 * @param {string} code
 * @param {string} [detail]
 */
function engineError (code, detail) {
  const entry = ERRORS[code]
  return Object.assign(new Error(detail ?? entry.message), { statusCode: entry.status, code })
}
