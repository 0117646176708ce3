// One client connection of the wire engine: the socket's events, the
// parser and the requests it produces (reading and parsing), flow control,
// and the connection's end (half-close, close, hand-off). The other roles
// live beside it, as functions of the connection:
//
//   ./request-body.js    request bodies, 100-continue
//   ./response-queue.js  responses in request order (pipelining), keep-alive
//   ./respond.js         response heads, bodies and streams
//   ./output.js          bytes out, one socket write per read
//   ./timers.js          the shared timer and what each phase allows
//
// Requests are read until the connection closes or pauses: a client may
// pipeline (RFC 9112 §9.3.2); reading stops while too many responses are
// owed, while the socket does not take our writes, or while a body nobody
// reads is over its buffer (./states.js).

import { Parser } from './parser.js'
import { WireResponse, connectionClosed } from './response.js'
import { errorResponse } from './writer.js'
import { LINGER_MS, DEFAULTS } from './limits.js'
import { errorAnswer } from '../../reply/error-body.js'
import { P_HEAD, P_BUSY, P_LINGER, PAUSE_PIPELINE, PAUSE_WRITE } from './states.js'
import { send, flush, drainOut, handOffClientError } from './output.js'
import { receiveBody, completeBody, abortBody, engineError } from './request-body.js'
import { writeError, startStream, writeAnswer } from './respond.js'
import { updatePhase } from './timers.js'
import { endSource } from '../source.js'
import { publishRejected } from '../../lifecycle/tracing.js'
import { originalEmit, listenersAreOnly } from '../server-emit.js'
import { connectionTimedOut } from '../engine.js'

/** @typedef {import('./request.js').WireRequest} WireRequest */
/** @typedef {import('./index.js').WireEngine} WireEngine */

const EMPTY = Buffer.alloc(0)

/**
 * The parser of every sleeping connection (Connection#sleep): idle, with no
 * bytes and no request of anyone's, so reading its state (idle, inBody,
 * held) tells the truth about any of them. It is never run: a read wakes
 * its connection, which gets a parser of its own first (Connection#onData).
 */
const SLEEPING = new Parser(/** @type {any} */ (null), null, DEFAULTS, true)
/**
 * The response queue and the collected writes of every sleeping
 * connection: empty, and frozen, so that a write to a sleeping connection
 * (there is none: it has no request) would throw rather than reach another
 * connection's bytes. A read gives the connection arrays of its own again.
 */
const NONE = /** @type {any[]} */ (/** @type {unknown} */ (Object.freeze([])))

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
    /** its own while awake, the shared SLEEPING one while asleep (sleep(), wake()) */
    this.parser = new Parser(this, this, engine.limits, engine.requireHostHeader)
    /** ParserSink: parse nothing more for now */
    this.stopped = false
    /** no new request will be read on this connection */
    this.closing = false
    /** accepted from the listener's queue after close() began: its request is served (Connection: close), not refused */
    this.queued = false
    /** incoming bytes are dropped (after a rejected or abandoned request) */
    this.discard = false
    /** the socket is gone or was handed to someone else */
    this.detached = false
    this.ended = false
    /** the idle timeout (connectionTimeout) ended it: what is in flight is told so (onTimeout) */
    this.timedOut = false
    /** a response that closes the connection went out: nothing more is written */
    this.closedWrite = false
    /** @type {WireResponse[]} responses not finished yet, in request order (the shared empty one while asleep) */
    this.queue = []
    /** a read is being processed: writes are collected in `out` */
    this.batching = false
    /** @type {(string | Buffer)[]} writes collected during a read (one array per connection; the shared empty one while asleep) */
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
    /** @type {string | Buffer | null} a rejection waiting for earlier responses */
    this.pendingError = null
    /** ms the socket is drained after we half-close it (P_LINGER) */
    this.linger = LINGER_MS
  }

  // ── reading and flow control ─────────────────────────────────────────

  /** @param {Buffer} chunk */
  onData (chunk) {
    if (this.discard || this.detached) return
    if (this.parser === SLEEPING) this.wake()
    this.batching = true
    this.parser.execute(chunk)
    // a pause lifted while this read was being processed
    while (!this.stopped && this.parser.held && !this.detached) this.parser.execute(EMPTY)
    if (this.upgradeReq !== null) return this.handOff(this.upgradeReq)
    flush(this)
    updatePhase(this)
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
      flush(this)
      updatePhase(this)
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
    // a head that arrived whole in one read never passed through P_HEAD:
    // without this the connection would stay P_IDLE with the time it first
    // went idle, and be closed keepAliveTimeout after it, however busy
    this.phase = P_BUSY
    const engine = this.engine
    const res = new WireResponse(this, req)
    req.res = res
    // maxRequestsPerSocket as node:http applies it: the answer to the last
    // request allowed says Connection: close; a request the client sends
    // on the connection anyway is answered 503 + Connection: close, not
    // dropped unanswered, and the connection then closes.
    const max = engine.limits.maxRequestsPerSocket
    let over = false
    if (!req.keepAlive) {
      this.closing = true
    } else if (max > 0 && ++this.requests >= max) {
      if (this.requests === max) {
        res.lastAllowed = true
      } else {
        req.keepAlive = false
        this.closing = true
        over = true
      }
    }
    // RFC 9110 §7.8: the server's 'upgrade' listeners take the socket, as
    // on node:http; without one, the request goes to the routes
    if (req.upgrade && engine.appServer.listenerCount('upgrade') > 0) {
      this.upgradeReq = req
      this.stopped = true
      return
    }
    if (req.hostMissing) {
      this.parser.fail('HP_ERR_BAD_REQUEST', 'Missing Host header')
      return
    }
    this.queue.push(res)
    if (!req.complete) this.current = req
    if (this.queue.length >= engine.limits.maxPipelined) this.pause(PAUSE_PIPELINE)
    const handler = engine.handler
    if (handler === null) {
      writeError(this, res, 'HP_ERR_NOT_READY', false)
      return
    }
    if (over) {
      writeError(this, res, 'HP_ERR_CONNECTION_EXHAUSTED', true)
      return
    }
    // a request that arrives once close() has begun is the connection's
    // last: answered 503, or served, with Connection: close (those in
    // flight before keep theirs, as on node:http)
    if (engine.closing) {
      if (engine.return503OnClosing && !this.queued) {
        writeAnswer(this, res, engine.closingAnswer, true)
        if (engine.onClosingRefusal !== null) engine.onClosingRefusal()
        return
      }
      req.keepAlive = false
      this.closing = true
    }
    try {
      // app.server's 'request' listeners are not the app's alone (socket.io
      // wrapped it), or an instrumentation wrapped node:http's emit: they
      // see the request, as node:http's objects
      if (listenersAreOnly(engine.appServer, engine.requestListener) && engine.emitPrototype.emit === originalEmit) handler(req, res)
      else engine.emitRequest(res)
    } catch (err) {
      // the core's handler never throws; if it does, the client still gets an answer
      engine.clientError(/** @type {Error} */ (err), this)
      if (res.state === 0) writeError(this, res, 'HP_ERR_INTERNAL', false)
    }
  }

  /**
   * @param {WireRequest} req
   * @param {Buffer} chunk
   */
  onBody (req, chunk) { receiveBody(this, req, chunk) }

  /** @param {WireRequest} req */
  onComplete (req) { completeBody(this, req) }

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
    const err = engineError(code, detail === undefined ? undefined : String(detail))
    this.engine.clientError(err, this)
    publishRejected(answer.status, code, this.current?.method, this.current?.url, this.remoteAddress)
    const req = this.current
    if (req !== null) {
      // a broken chunked body: the request the application holds fails
      // with the parser's reason, so its answer says what was wrong
      this.current = null
      abortBody(this, req, code, String(detail))
    }
    if (this.queue.length === 0 && this.engine.clientErrorHandler !== null) {
      handOffClientError(this, err)
    } else if (this.queue.length === 0) {
      send(this, errorResponse(answer, this.engine.dateLine))
      this.closedWrite = true
      this.shutdownSoon()
    } else {
      this.pendingError = errorResponse(answer, this.engine.dateLine)
    }
  }

  /**
   * A queued stream's turn came (./response-queue.js calls it here, so the
   * queue and the writers do not import each other).
   * @param {import('./response.js').WireResponse} res
   */
  startStream (res) { startStream(this, res) }

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
      if (!req.complete) abortBody(this, req)
    }
    const err = this.timedOut ? connectionTimedOut() : connectionClosed()
    const queue = this.queue
    this.queue = []
    for (const res of queue) {
      if (res.state === 3) continue
      if (res.stream !== null) {
        endSource(res.stream)
        res.stream = null
      }
      const done = res.streamDone
      res.streamDone = null
      res.state = 3
      res.ended(err)
      if (done !== null) done(err)
      if (!res.req.complete) abortBody(this, res.req)
    }
    this.streaming = null
    this.engine.maybeClosed()
  }

  /**
   * Stops managing the socket (an upgrade).
   * @returns {import('node:net').Socket}
   */
  detach () {
    if (this.out.length > 0) drainOut(this)
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

  /**
   * Hands an upgrade request, its socket and the bytes read past its head
   * to the server's 'upgrade' listeners (ws's handleUpgrade takes these
   * three). A listener that throws costs its own connection, not the
   * process: the error goes to onClientError and the socket is destroyed.
   * @param {WireRequest} req
   */
  handOff (req) {
    this.upgradeReq = null
    const head = this.parser.takeRest()
    const socket = this.detach()
    try {
      this.engine.appServer.emit('upgrade', req, socket, head)
    } catch (err) {
      this.engine.clientError(/** @type {Error} */ (err), this)
      socket.destroy()
    }
  }

  /**
   * The peer's address, read from the socket when someone asks (an error
   * report, a rejected request, req.ip): node caches it on the socket
   * then, and a connection nobody asks about does not hold it (an object
   * and a string, 88 bytes). Once the socket is gone it is undefined
   * unless it was read before, as on node:http's socket.
   * @returns {string | undefined}
   */
  get remoteAddress () {
    return this.socket.remoteAddress
  }

  /**
   * Between requests a connection needs none of what reading and answering
   * one takes: its parser, its response queue and its collected writes
   * (each array grown to 17 slots by its first push) are let go, for
   * shared empty ones. The shared timer calls this for a connection that
   * has been idle through a whole tick (./timers.js), so a connection with
   * requests back to back never pays for it, and one that waits holds
   * about 500 bytes fewer (docs/engines.md, "Idle connections"). The next
   * read wakes it (onData).
   */
  sleep () {
    if (this.parser === SLEEPING || !this.parser.idle || this.batching || this.queue.length !== 0 || this.out.length !== 0 ||
      this.current !== null || this.streaming !== null || this.upgradeReq !== null || this.paused !== 0) return
    this.parser = SLEEPING
    this.queue = NONE
    this.out = NONE
  }

  /** A read came to a sleeping connection: what a request needs, anew. */
  wake () {
    this.parser = new Parser(this, this, this.engine.limits, this.engine.requireHostHeader)
    this.queue = []
    this.out = []
  }

  /** Sleeping (see sleep()): until the next read, no parser of its own. */
  get asleep () {
    return this.parser === SLEEPING
  }

  /** True when closing it loses nothing (graceful close). */
  get idle () {
    return this.queue.length === 0 && this.current === null && this.streaming === null
  }
}
