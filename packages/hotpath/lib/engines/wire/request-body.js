// Request bodies on a wire connection: the bytes the parser hands over
// (Content-Length or chunked framing, RFC 9112 §6 and §7.1) buffered for
// readBody, pushed to a body stream, or dropped; 100 Continue sent when
// someone asks for the body (RFC 9110 §10.1.1); a body nobody will read
// abandoned, closing the connection after the answer (RFC 9112 §9.6).
import { Readable } from 'node:stream'
import { ERRORS } from '../../errors.js'
import { PAUSE_BODY } from './states.js'
import { send, CONTINUE } from './output.js'

/** @typedef {import('./connection.js').Connection} Connection */
/** @typedef {import('./request.js').WireRequest} WireRequest */

const EMPTY = Buffer.alloc(0)

/**
 * @param {Connection} conn
 * @param {WireRequest} req
 * @param {Buffer} chunk
 */
export function receiveBody (conn, req, chunk) {
  switch (req.sinkKind) {
    case 1:
      req.buffered += chunk.length
      if (req.buffered > req.limit) return bodyTooLarge(conn, req)
      if (req.chunks !== null) req.chunks.push(chunk)
      break
    case 2:
      if (!(/** @type {import('node:stream').Readable} */ (req.stream)).push(chunk)) conn.pause(PAUSE_BODY)
      break
    case 3:
      break
    default:
      if (req.chunks === null) req.chunks = [chunk]
      else req.chunks.push(chunk)
      req.buffered += chunk.length
      if (req.buffered > conn.engine.limits.bodyHighWater) conn.pause(PAUSE_BODY)
  }
}

/**
 * @param {Connection} conn
 * @param {WireRequest} req
 */
export function completeBody (conn, req) {
  if (conn.current === req) conn.current = null
  if (conn.closing) {
    conn.stopped = true
    conn.discard = true
  }
  if (req.sinkKind === 1 || req.sinkKind === 2) req.bodyRead = true
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
  if ((conn.paused & PAUSE_BODY) !== 0) conn.resume(PAUSE_BODY)
}

/**
 * @param {Connection} conn
 * @param {WireRequest} req
 * @param {number} limit
 * @param {(err: any, body?: Buffer) => void} done
 */
export function readBody (conn, req, limit, done) {
  if (req.sinkKind !== 0) return done(engineError('HP_ERR_BODY_CONSUMED'))
  if (req.contentLength > limit || req.buffered > limit) {
    abandonBody(conn, req)
    return done(engineError('HP_ERR_BODY_TOO_LARGE'))
  }
  if (req.complete) {
    const chunks = req.chunks
    req.chunks = null
    req.sinkKind = 3
    req.bodyRead = true
    return done(null, chunks === null ? EMPTY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, req.buffered))
  }
  if (req.aborted) return done(engineError('HP_ERR_REQUEST_ABORTED'))
  req.sinkKind = 1
  req.limit = limit
  req.done = done
  if (req.chunks === null) req.chunks = []
  wantBody(conn, req)
}

/**
 * @param {Connection} conn
 * @param {WireRequest} req
 */
function bodyTooLarge (conn, req) {
  const done = req.done
  abandonBody(conn, req)
  if (done !== null) done(engineError('HP_ERR_BODY_TOO_LARGE'))
}

/**
 * Nobody will read the rest of this body: drop it and close the
 * connection after the response (413 without buffering the rest).
 * @param {Connection} conn
 * @param {WireRequest} req
 */
export function abandonBody (conn, req) {
  req.sinkKind = 3
  req.chunks = null
  req.done = null
  if (!req.complete) {
    conn.closing = true
    conn.stopped = true
    conn.discard = true
    if (req.res !== null) req.res.closeAfter = true
  }
}

/**
 * @param {Connection} conn
 * @param {WireRequest} req
 */
export function bodyStream (conn, req) {
  // One body, one stream: a preParsing hook's payload, a stream parser's
  // and req.raw (../compat/request.js) read the same bytes, as on node:http where
  // all three are the IncomingMessage. A second stream would find the
  // body taken and end early: a pass-through preParsing hook would leave
  // req.raw empty for the multipart reader after it.
  if (req.stream !== null) return req.stream
  const stream = new Readable({
    read () { conn.resume(PAUSE_BODY) },
    destroy (err, cb) {
      if (req.sinkKind === 2 && !req.complete) abandonBody(conn, req)
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
  req.stream = stream
  const chunks = req.chunks
  req.chunks = null
  if (chunks !== null) for (const c of chunks) stream.push(c)
  if (req.complete) {
    req.sinkKind = 3
    req.bodyRead = true
    stream.push(null)
  } else if (req.aborted) {
    stream.destroy(engineError('HP_ERR_REQUEST_ABORTED'))
  } else {
    req.sinkKind = 2
    wantBody(conn, req)
  }
  return stream
}

/**
 * Someone reads the body now: lift the pause, and send 100 Continue to a
 * client that waits for it (RFC 9110 §10.1.1).
 * @param {Connection} conn
 * @param {WireRequest} req
 */
function wantBody (conn, req) {
  if (req.expectContinue) {
    req.expectContinue = false
    if (req.res !== null && conn.queue[0] === req.res) send(conn, CONTINUE)
    else req.continueLater = true
  }
  conn.resume(PAUSE_BODY)
}

/**
 * Fails the body the application is reading (default: the client left).
 * @param {Connection} conn
 * @param {WireRequest} req
 * @param {string} [code]
 * @param {string} [detail]
 */
export function abortBody (conn, req, code = 'HP_ERR_REQUEST_ABORTED', detail) {
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

/**
 * An error as engines report it (../engine.js, readBody): the code, its
 * status from the table, and the reason as message.
 * @param {string} code
 * @param {string} [detail]
 */
export function engineError (code, detail) {
  const entry = ERRORS[code]
  return Object.assign(new Error(detail ?? entry.message), { statusCode: entry.status, code })
}
