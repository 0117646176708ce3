// Writing responses on a wire connection: a complete response as one head
// string (RFC 9112 §4, RFC 9110 §6.6) joined with its body, so a small
// response is one socket write; a stream with Content-Length or chunked
// transfer coding (RFC 9112 §7.1; HTTP/1.0 has none, so its end is the
// connection's end, §6.3), with backpressure; no body for HEAD, 1xx, 204 and
// 304 (RFC 9110 §6.4.1, §9.3.2). Responses go out in request order through
// ./response-queue.js.
import { errorAnswer } from '../../reply/error-body.js'
import { headerLines, headInfo, statusLine, compatStatusLine, statusHasNoBody, lengthLine, CLOSE_LINES } from './writer.js'
import { send } from './output.js'
import { prepareClose, emitComplete, advance, finished } from './response-queue.js'
import { endSource } from '../source.js'
import { publishRejected } from '../../lifecycle/tracing.js'

/** @typedef {import('./connection.js').Connection} Connection */
/** @typedef {import('./response.js').WireResponse} WireResponse */

/**
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {number} status
 * @param {Record<string, string | number | string[]>} headers
 * @param {string | Buffer | null} body
 * @param {number} [known]  body's byte length when the caller measured it, else -1
 */
export function write (conn, res, status, headers, body, known = -1) {
  if (res.state === 2 && !res.headersSent && res.throughCompat) dropStream(conn, res)
  if (res.state !== 0 || conn.detached || conn.closedWrite) return
  const req = res.req
  prepareClose(conn, res)
  const line = res.compatRes === null ? statusLine(status) : compatStatusLine(status, res.compatRes)
  let head = line + headerLines(headers, res.extraHeaders)
  if (headInfo.close) res.closeAfter = true
  const noBody = statusHasNoBody(status)
  let length = body === null ? 0 : known >= 0 ? known : typeof body === 'string' ? Buffer.byteLength(body) : body.length
  let withLength = !noBody
  // HEAD with no body: the length declared (that of the GET's body), else
  // none, as node:http sends none: 0 would be a claim (RFC 9110 §8.6)
  if (req.method === 'HEAD' && body === null) {
    if (headInfo.length >= 0) length = headInfo.length
    else withLength = false
  }
  if (withLength) head += lengthLine(length)
  else if ((status === 304 && headInfo.length >= 0) || (status === 204 && headInfo.length === 0)) head += lengthLine(headInfo.length)
  head += headEnd(conn, res)
  /** @type {string | Buffer} */
  let data = head
  /** @type {Buffer | null} */
  let data2 = null
  if (body !== null && !noBody && req.method !== 'HEAD' && length > 0) {
    // A string goes out as latin1 (./output.js): a body in ASCII (its UTF-8
    // length its length) joins the head; any other follows the head's
    // bytes as UTF-8 in one buffer, one write as well
    if (typeof body !== 'string') data2 = body
    else if (length === body.length) data = head + body
    else data = headThenUtf8(head, body, length)
  }
  emitComplete(conn, res, data, data2)
}

/**
 * @param {string} head  one byte a character
 * @param {string} body
 * @param {number} length  the body's UTF-8 length
 */
function headThenUtf8 (head, body, length) {
  const bytes = Buffer.allocUnsafe(head.length + length)
  bytes.write(head, 0, 'latin1')
  bytes.write(body, head.length, 'utf8')
  return bytes
}

/**
 * The head's last lines: Date (unless the response brought its own), then
 * Connection, and the blank line. The engine keeps both endings flat, made
 * again once a second (./index.js).
 * @param {Connection} conn
 * @param {WireResponse} res
 */
function headEnd (conn, res) {
  const engine = conn.engine
  const close = res.closeAfter || res.lastAllowed
  if (headInfo.date) return close ? CLOSE_LINES : engine.keepAliveLines
  return close ? engine.closeEnd : engine.keepAliveEnd
}

/**
 * A complete response written through the node:http object (reply.raw.end())
 * while the reply's stream has not produced its first byte: that response
 * is the one sent, as on node:http, and the stream is ended unread.
 * @param {Connection} conn
 * @param {WireResponse} res
 */
function dropStream (conn, res) {
  const stream = res.stream
  const done = res.streamDone
  res.stream = null
  res.streamDone = null
  res.streamTrailers = null
  res.streamChunked = false
  res.streamLeft = -1
  res.streamHead = ''
  res.state = 0
  // its listeners, if it had started, now find it is not the connection's
  if (conn.streaming === res) conn.streaming = null
  if (stream !== null) endSource(stream)
  if (done !== null) done(null)
}

/**
 * A 103 Early Hints interim response (RFC 8297) ahead of the final one: sent
 * only while this response is the connection's next to go out and nothing
 * of it has, to an HTTP/1.1 client (RFC 9110 §15.2: none to HTTP/1.0).
 * Returns whether it was sent.
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {Record<string, string | string[]>} hints
 */
export function writeEarlyHints (conn, res, hints) {
  if (res.state !== 0 || res.headersSent || conn.detached || conn.closedWrite || conn.queue[0] !== res || res.req.httpVersion !== '1.1') return false
  const lines = headerLines(hints, null)
  send(conn, 'HTTP/1.1 103 Early Hints\r\n' + lines + '\r\n')
  return true
}

/**
 * An answer of the engine's own, from the error table.
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {string} code
 * @param {boolean} close  the connection ends after it
 */
export function writeError (conn, res, code, close) {
  writeAnswer(conn, res, errorAnswer(code), close)
}

/**
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {{ status: number, code: string, body: string, type?: string }} answer
 * @param {boolean} close
 */
export function writeAnswer (conn, res, answer, close) {
  publishRejected(answer.status, answer.code, res.req.method, res.req.url, conn.remoteAddress)
  /** @type {Record<string, string>} */
  const headers = { 'content-type': answer.type ?? 'application/json; charset=utf-8' }
  if (close) headers.connection = 'close'
  write(conn, res, answer.status, headers, answer.body)
}

/**
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {number} status
 * @param {Record<string, string | number | string[]>} headers
 * @param {import('node:stream').Readable} stream
 * @param {(err: Error | null) => void} done
 * @param {import('../engine.js').TrailerSource | null} [trailers]
 */
export function writeStream (conn, res, status, headers, stream, done, trailers = null) {
  if (res.state !== 0 || conn.detached || conn.closedWrite) {
    endSource(stream)
    return done(new Error('Response already sent'))
  }
  prepareClose(conn, res)
  const req = res.req
  if (trailers !== null && req.httpVersion !== '1.1') {
    // no chunked coding, so no trailer section, for HTTP/1.0 (RFC 9112 §7.1)
    delete headers.trailer
    trailers = null
  }
  const line = res.compatRes === null ? statusLine(status) : compatStatusLine(status, res.compatRes)
  let head = line + headerLines(headers, res.extraHeaders)
  if (headInfo.close) res.closeAfter = true
  if (statusHasNoBody(status) || req.method === 'HEAD') {
    endSource(stream)
    if (headInfo.length > 0 ? status !== 204 : headInfo.length === 0) head += 'content-length: ' + headInfo.length + '\r\n'
    head += headEnd(conn, res)
    emitComplete(conn, res, head, null)
    return done(null)
  }
  if (trailers !== null) {
    // the trailer section follows the last chunk (RFC 9112 §7.1.2)
    head += 'transfer-encoding: chunked\r\n'
    res.streamChunked = true
    res.streamTrailers = trailers
  } else if (headInfo.length >= 0) {
    head += 'content-length: ' + headInfo.length + '\r\n'
    res.streamLeft = headInfo.length
  } else if (req.httpVersion === '1.1') {
    head += 'transfer-encoding: chunked\r\n'
    res.streamChunked = true
  } else {
    // HTTP/1.0 has no chunked coding: the end of the body is the end of the connection
    res.closeAfter = true
  }
  head += headEnd(conn, res)
  res.streamHead = head
  res.stream = stream
  res.streamDone = done
  res.state = 2
  if (conn.queue[0] === res && conn.streaming === null) startStream(conn, res)
}

/**
 * @param {Connection} conn
 * @param {WireResponse} res
 */
export function startStream (conn, res) {
  conn.streaming = res
  const stream = /** @type {import('node:stream').Readable} */ (res.stream)
  /** @param {string | Buffer} chunk */
  const onData = (chunk) => {
    if (conn.detached || conn.streaming !== res) return
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    if (buf.length === 0) return
    if (res.streamLeft >= 0) {
      // more than the declared length: those bytes would be read as the
      // start of the next response (RFC 9112 §6.3)
      if (buf.length > res.streamLeft) {
        onError(lengthMismatch())
        endSource(stream)
        return
      }
      res.streamLeft -= buf.length
    }
    // A chunk's bytes go out in one writev (head, size line and data): a
    // stream's data comes outside a read's batch, where each send() would
    // be a syscall of its own. The CRLF that closes a chunk goes with the
    // next size line or the last chunk (RFC 9112 §7.1).
    const corked = !conn.batching && !conn.detached
    if (corked) conn.socket.cork()
    sendHead(conn, res)
    if (res.streamChunked) {
      send(conn, (res.streamChunkOpen ? '\r\n' : '') + buf.length.toString(16) + '\r\n')
      send(conn, buf)
      res.streamChunkOpen = true
    } else {
      send(conn, buf)
    }
    if (corked) conn.socket.uncork()
    if (conn.writeBlocked) stream.pause()
  }
  const onEnd = () => {
    if (conn.streaming !== res) return cleanup()
    if (res.streamLeft > 0) return onError(lengthMismatch())
    cleanup()
    const trailers = res.streamTrailers
    if (trailers !== null) {
      res.streamTrailers = null
      trailers((fields) => {
        // the connection may have gone while they were computed
        if (conn.detached || conn.streaming !== res) return
        const corked = !conn.batching
        if (corked) conn.socket.cork()
        sendHead(conn, res)
        send(conn, (res.streamChunkOpen ? '\r\n0\r\n' : '0\r\n') + trailerLines(fields) + '\r\n')
        if (corked) conn.socket.uncork()
        endStream(conn, res, null)
      })
      return
    }
    const corked = !conn.batching && !conn.detached && !res.headersSent
    if (corked) conn.socket.cork()
    sendHead(conn, res)
    if (res.streamChunked) send(conn, res.streamChunkOpen ? '\r\n0\r\n\r\n' : '0\r\n\r\n')
    if (corked) conn.socket.uncork()
    endStream(conn, res, null)
  }
  /** @param {Error} err */
  const onError = (err) => {
    cleanup()
    // dropped for a response written through the node:http object
    if (conn.streaming !== res && !conn.detached) return
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
    // the last chunk whole, then no terminating chunk: the client sees the
    // body cut off, not a broken chunk
    if (res.streamChunkOpen) send(conn, '\r\n')
    endStream(conn, res, err)
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
  if (res.headWanted) sendHead(conn, res)
}

/**
 * A streamed response's head before its first byte: now if it is being
 * streamed, else when its turn comes (startStream).
 * @param {Connection} conn
 * @param {WireResponse} res
 */
export function flushHead (conn, res) {
  if (res.state !== 2 || res.headersSent || conn.detached) return
  res.headWanted = true
  if (conn.streaming === res) sendHead(conn, res)
}

/**
 * @param {Connection} conn
 * @param {WireResponse} res
 */
function sendHead (conn, res) {
  if (res.headersSent) return
  res.headersSent = true
  send(conn, res.streamHead)
  res.streamHead = ''
}

/**
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {Error | null} err
 */
function endStream (conn, res, err) {
  conn.streaming = null
  res.stream = null
  const done = res.streamDone
  res.streamDone = null
  // a failure is reported to the writer first, so that it is logged as
  // the server's failure before finishing reports the response as cut off
  if (err !== null && done !== null) done(err)
  finished(conn, res, err)
  if (err === null) {
    if (done !== null) done(null)
    advance(conn)
  }
}

/**
 * The trailer section's field lines; a field the head's rules refuse (a
 * name that is not a token, a CR/LF in a value) is left out.
 * @param {Record<string, string>} fields
 */
function trailerLines (fields) {
  let out = ''
  for (const name of Object.keys(fields)) {
    try {
      out += headerLines({ [name]: fields[name] }, null)
    } catch {}
  }
  return out
}

function lengthMismatch () {
  return Object.assign(new Error('The response stream does not match its Content-Length'), { code: 'ERR_HTTP_CONTENT_LENGTH_MISMATCH' })
}
