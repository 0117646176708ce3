// The wire engine's ResponseHandle (../engine.js): the record of one
// response on its connection, in request order, with the members the core
// answers through. ./respond.js does the writing.
import { CompatRequest, adoptRequest, requestLost } from '../compat/request.js'
import { CompatResponse, finishCompat, requestOf } from '../compat/response.js'
import { respondThroughMiddleware, streamThroughMiddleware } from '../compat/through-middleware.js'
import { write, writeStream, writeEarlyHints, flushHead } from './respond.js'
import { UNOWNED } from '../server-emit.js'

/** @typedef {import('./connection.js').Connection} Connection */
/** @typedef {import('./request.js').WireRequest} WireRequest */

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
    /** the last request maxRequestsPerSocket allows: the head says Connection: close, the connection stays for one sent anyway (503) */
    this.lastAllowed = false
    /** @type {((arg: any, err: Error | null) => void) | null} told once when the response ends (onEnd) */
    this.endListener = null
    /** the app's 'request' listener took this response (../server-emit.js): a second call leaves it alone */
    this.routedByApp = false
    /** @type {any} */
    this.endArg = null
    /** node's header table of the compat object (lower-case name → [name, value]) when the core answers past it */
    /** @type {Record<string, [string, string | number | string[]]> | null} */
    this.extraHeaders = null
    /** @type {CompatResponse | null} */
    this.compatRes = null
    /** streaming state */
    /** @type {import('node:stream').Readable | null} */
    this.stream = null
    /** @type {((err: Error | null) => void) | null} */
    this.streamDone = null
    this.streamChunked = false
    /** a chunk was sent whose closing CRLF goes out with the next one */
    this.streamChunkOpen = false
    /** body bytes still owed under a declared Content-Length, -1 without one */
    this.streamLeft = -1
    this.streamHead = ''
    /** @type {import('../engine.js').TrailerSource | null} the trailer fields to send after the last chunk */
    this.streamTrailers = null
    /** the reply is on its way through a middleware's writeHead/write/end */
    this.throughCompat = false
    /** the head goes out when the stream starts, before its first byte (node's flushHeaders()) */
    this.headWanted = false
  }

  // ── ResponseHandle (../engine.js) ─────────────────────────────────────

  /**
   * @param {number} statusCode
   * @param {import('../engine.js').OutgoingHeaders} headers
   * @param {string | Buffer | null} body
   * @param {number} [length]  body's byte length, when the core measured it
   */
  respond (statusCode, headers, body, length = -1) {
    // that request alone takes the slower path: compression, on-headers
    if (respondThroughMiddleware(this, statusCode, headers, body)) return
    write(this.conn, this, statusCode, headers, body, length)
  }

  /**
   * @param {number} statusCode
   * @param {import('../engine.js').OutgoingHeaders} headers
   * @param {import('node:stream').Readable} source
   * @param {(err: Error | null) => void} done
   * @param {import('../engine.js').TrailerSource | null} [trailers]
   */
  respondStream (statusCode, headers, source, done, trailers = null) {
    if (streamThroughMiddleware(this, statusCode, headers, source, done, trailers)) return
    writeStream(this.conn, this, statusCode, headers, source, done, trailers)
  }

  /**
   * The streamed response's head now, before its body's first byte, or as
   * soon as the response is the connection's next to go out (for the
   * compatibility object's flushHeaders(), which an event stream calls to
   * open before its first event).
   */
  flushHead () {
    flushHead(this.conn, this)
  }

  /**
   * A 103 Early Hints ahead of this response, when it can still go first
   * (for the compatibility object's writeEarlyHints).
   * @param {Record<string, string | string[]>} hints
   */
  earlyHints (hints) {
    return writeEarlyHints(this.conn, this, hints)
  }

  /**
   * @template T
   * @param {(arg: T, error: Error | null) => void} listener
   * @param {T} arg
   */
  onEnd (listener, arg) {
    if (this.state === 3) {
      // finished before anyone asked; report it the way it ended, with the
      // error the connection reports to those who asked before
      listener(arg, this.conn.detached && !this.headersSent ? connectionClosed() : null)
      return
    }
    this.endListener = listener
    this.endArg = arg
  }

  /** @param {import('../compat/guarded-emit.js').Owner} owner */
  compat (owner) {
    if (this.compatRes === null) {
      const cres = this.compatRes = new CompatResponse(this, new CompatRequest(this.req, owner))
      // made once the response is written (`reply.send(x)` wrote it at
      // once, then `reply.raw` was read): it finishes now, its 'finish'
      // and 'close' on the next tick, as node:http's come after the write
      if (this.state === 3) finishCompat(cres, this.conn.detached && !this.headersSent ? connectionClosed() : null)
    } else if (requestOf(this.compatRes)._hotpath === UNOWNED) {
      adoptRequest(requestOf(this.compatRes), owner)
    }
    return this.compatRes
  }

  // ── for the connection ──────────────────────────────────────────────

  /**
   * The response ended (err null) or was cut off: tell the one listener
   * and the compatibility object, once.
   * @param {Error | null} err
   */
  ended (err) {
    const compat = this.compatRes
    if (err !== null && compat !== null) {
      // node:http's order when the client leaves: the request's 'aborted',
      // the response's 'close', then what the core does (req.signal)
      requestLost(requestOf(compat))
      finishCompat(compat, err)
    }
    const listener = this.endListener
    if (listener !== null) {
      const arg = this.endArg
      this.endListener = null
      this.endArg = null
      // Written: on the next tick, as node:http's 'finish' comes after the
      // socket write. The code that sent the reply (a handler, the hook
      // whose done() went on to it) has returned when onResponse runs, as
      // on Fastify and on the node engine.
      if (err === null) process.nextTick(listener, arg, null)
      else listener(arg, err)
    }
    if (err === null && compat !== null) finishCompat(compat, err)
  }
}

export function connectionClosed () {
  return Object.assign(new Error('Connection closed before the response was sent'), { code: 'ECONNRESET' })
}
