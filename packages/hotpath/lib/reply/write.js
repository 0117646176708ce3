// Payload to bytes: the body encoding and default Content-Type from the
// payload's kind, every header in one object, and one call to the engine
// (one write on the socket). Streams go to the engine's stream writer.
import { Readable } from 'node:stream'
import { markDone } from '../lifecycle/kernel.js'
import { handleError, headRefused } from '../lifecycle/handle-error.js'
import { writeRefusedHead } from './last-resort.js'
import { trailerHeader, trailerSource } from './trailers.js'
import { payloadKind, KIND_STRING, KIND_EMPTY, KIND_BINARY, KIND_JSON, KIND_RESPONSE, KIND_WEB_STREAM, JSON_TYPE, TEXT_TYPE, OCTET_TYPE } from './payload-kind.js'

/** @typedef {import('./reply.js').Reply} Reply */

/**
 * @param {Reply} reply
 * @param {unknown} payload
 */
export function writeReply (reply, payload) {
  if (reply._done) return
  const status = reply.statusCode
  // RFC 9110 §6.4.1, §15.3.5: a 1xx or 204 has no content, so no
  // Content-Type or Content-Length either, whatever was sent (a stream is
  // read to its end and dropped)
  if ((status === 204 || status < 200) && payload !== null && payload !== undefined) {
    writeNoContent(reply, payload)
    return
  }
  const kind = payloadKind(payload)
  /** @type {string | Buffer | null} */
  let body
  let type = reply._contentType
  switch (kind) {
    case KIND_STRING:
      body = /** @type {string} */ (payload)
      // (a string an onSend hook made of a stream, or reply.serializer()'s
      // text: under replyFormat 'fastify' it goes without a type, as
      // Fastify decides the type in send() alone)
      if (type === null && !reply.route.app.fastifyReplies) type = TEXT_TYPE
      break
    case KIND_EMPTY:
      // HEAD: no Content-Length of its own, as in Fastify: the one the
      // application set stays (that of the body a GET would get), and
      // without one the length is not known (a GET answered by a stream);
      // 0 would be a claim about the GET's body (RFC 9110 §8.6)
      body = reply.request.method === 'HEAD' ? null : ''
      break
    case KIND_BINARY: {
      const u8 = /** @type {ArrayBufferView} */ (payload)
      body = Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength)
      if (type === null && !reply.route.app.fastifyReplies) type = OCTET_TYPE
      break
    }
    case KIND_JSON:
      // an onSend hook returned an object; or, under replyFormat 'fastify',
      // an object sent with a type that is not JSON, which is refused as
      // Fastify refuses it: thrown to the code that called send() (the
      // handler's throw goes to the error path; after an async hook, the
      // kernel hands it there), the reply unsent
      if (reply.route.app.fastifyReplies) {
        reply._sent = false
        throw reply.route.app.error('HP_ERR_REP_INVALID_PAYLOAD_TYPE', typeof payload)
      }
      body = JSON.stringify(payload)
      if (type === null) type = JSON_TYPE
      break
    default:
      writeStreamed(reply, payload, kind)
      return
  }
  // RFC 9110 §6.4.1: 1xx, 204 and 304 responses have no content. A 304
  // under replyFormat 'fastify' still says its payload's length, as
  // Fastify's does (@fastify/etag's 304 from an onSend hook: 0)
  const notModified = status === 304 && kind !== KIND_EMPTY && body !== null && reply.route.app.fastifyReplies ? (typeof body === 'string' ? Buffer.byteLength(body) : body.length) : -1
  if (status === 204 || status === 304 || status < 200) body = null
  // Trailers (RFC 9112 §7.1.2) need the chunked coding: the body goes as a
  // stream of one chunk, the trailers after it.
  if (reply._trailers !== null && body !== null && trailerHeader(reply._trailers) !== '') {
    const headers = buildHeaders(reply, type, null, -1)
    sendStream(reply, headers, Readable.from(body.length === 0 ? [] : [body], { objectMode: false }), payload)
    return
  }
  /** @type {import('../engines/engine.js').OutgoingHeaders} */
  let headers
  // the body's byte length, measured once: the Content-Length header and
  // the engine's framing both take it (a string's is a native call)
  let length = -1
  const declared = reply._headers === null ? undefined : reply._headers['content-length']
  if (declared !== undefined && body !== null && reply.request.method === 'HEAD') {
    // HEAD: the length the app declared (that of the body a GET would
    // have) goes out with no body (RFC 9110 §9.3.2)
    headers = buildHeaders(reply, type, null, -1)
    headers['content-length'] = declared
    body = null
  } else {
    if (body !== null) length = typeof body === 'string' ? Buffer.byteLength(body) : body.length
    headers = buildHeaders(reply, type, body, length)
    if (notModified >= 0) headers['content-length'] = notModified
  }
  markDone(reply)
  try {
    reply._res.respond(status, headers, body, length)
  } catch (err) {
    // e.g. a header value with a CR/LF: refuse it rather than send it.
    reply._done = false
    headRefused(reply, err)
  }
}

/**
 * A 1xx or 204 answer to a payload: the head without Content-Type or
 * Content-Length; a node stream sent is drained, its errors ignored.
 * @param {Reply} reply
 * @param {unknown} payload
 */
function writeNoContent (reply, payload) {
  const p = /** @type {any} */ (payload)
  if (typeof p === 'object' && typeof p.pipe === 'function' && typeof p.resume === 'function') {
    p.on('error', noop)
    p.resume()
  }
  reply._contentType = null
  if (reply._headers !== null) delete reply._headers['content-length']
  const headers = reply._headers ?? {}
  delete headers['content-type']
  markDone(reply)
  try {
    reply._res.respond(reply.statusCode, headers, null)
  } catch (err) {
    reply._done = false
    writeRefusedHead(reply, err)
  }
}

function noop () {}

/**
 * @param {Reply} reply
 * @param {string | null} type
 * @param {string | Buffer | null} body
 * @param {number} length  body's byte length (-1 with no body)
 * @returns {import('../engines/engine.js').OutgoingHeaders}
 */
function buildHeaders (reply, type, body, length) {
  const h = reply._headers
  if (h === null) {
    // kept as the reply's: an onResponse hook reads the Content-Length
    // sent (reply.getHeader()), as on Fastify
    if (body === null) return (reply._headers = type === null ? {} : { 'content-type': type })
    return (reply._headers = type === null ? { 'content-length': length } : { 'content-type': type, 'content-length': length })
  }
  if (type !== null) h['content-type'] = type
  if (body !== null) h['content-length'] = length
  // A 204 may keep a Content-Length: 0 the application set (@fastify/cors
  // sends one: some clients wait for a body without it); node:http and
  // Fastify send it too. An empty answer to HEAD keeps the length the
  // application set. Any other length of no body is dropped.
  else if (!(reply.statusCode === 204 && Number(h['content-length']) === 0) && reply.request.method !== 'HEAD') delete h['content-length']
  return h
}

/**
 * @param {Reply} reply
 * @param {any} payload
 * @param {number} kind
 */
function writeStreamed (reply, payload, kind) {
  /** @type {import('node:stream').Readable} */
  let stream
  // A body already read or locked by a reader cannot be sent: refused before
  // anything of the reply changes, so the error handler answers instead.
  const web = kind === KIND_RESPONSE ? /** @type {Response} */ (payload).body : kind === KIND_WEB_STREAM ? payload : null
  if (web !== null && (web.locked || (kind === KIND_RESPONSE && payload.bodyUsed))) {
    handleError(reply, reply.route.app.error(kind === KIND_RESPONSE && payload.bodyUsed ? 'HP_ERR_RESPONSE_BODY_USED' : 'HP_ERR_STREAM_LOCKED'))
    return
  }
  if (kind === KIND_RESPONSE) {
    const response = /** @type {Response} */ (payload)
    reply.statusCode = response.status
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') reply.header(name, value)
    })
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) reply.header('set-cookie', cookies)
    if (response.body === null) {
      writeReply(reply, null)
      return
    }
    stream = Readable.fromWeb(/** @type {any} */ (response.body))
  } else if (kind === KIND_WEB_STREAM) {
    stream = Readable.fromWeb(payload)
  } else {
    stream = payload
  }
  // the head written through reply.raw wins; what the reply set is lost
  if (reply._raw !== null && reply._raw.headersSent) reply.request.log.warn("response will send, but you shouldn't use res.writeHead in stream mode")
  // A length the handler declared is kept: the engine sends the stream with
  // it instead of chunked, and ends the connection if the stream runs short
  // or long of it (RFC 9112 §6.3: a wrong length breaks the framing).
  const declared = reply._headers === null ? undefined : reply._headers['content-length']
  // (replyFormat 'fastify': a stream has no Content-Type unless one is set)
  const headers = buildHeaders(reply, reply._contentType ?? (reply.route.app.fastifyReplies ? null : OCTET_TYPE), null, -1)
  if (declared !== undefined) headers['content-length'] = declared
  sendStream(reply, headers, stream, null)
}

/**
 * Hands a stream to the engine, with the reply's trailers when it declared
 * some (a stream's trailer functions get a null payload).
 * @param {Reply} reply
 * @param {import('../engines/engine.js').OutgoingHeaders} headers
 * @param {import('node:stream').Readable} stream
 * @param {unknown} payload  what the trailer functions get
 */
function sendStream (reply, headers, stream, payload) {
  /** @type {import('../engines/engine.js').TrailerSource | null} */
  let trailers = null
  if (reply._trailers !== null) {
    const names = trailerHeader(reply._trailers)
    if (names !== '') {
      // chunked, whatever length was declared: the trailers follow the last chunk
      delete headers['content-length']
      headers.trailer = names
      trailers = trailerSource(reply, payload)
    }
  }
  markDone(reply)
  reply._payload = stream
  try {
    reply._res.respondStream(reply.statusCode, headers, stream, (err) => streamDone(reply, err), trailers)
  } catch (err) {
    // A header the engine refuses (a CR/LF in a value, a name that is not a
    // token): the same fallback 500 as for a body reply, and nothing of the
    // stream is read.
    reply._payload = undefined
    stream.destroy()
    reply._done = false
    writeRefusedHead(reply, err)
  }
}

/**
 * @param {Reply} reply
 * @param {Error | null} err
 */
function streamDone (reply, err) {
  reply._payload = undefined
  if (err === null) return
  const fastifyLogs = reply.route.app.fastifyLogs
  if (reply._aborted || (/** @type {any} */ (err)).code === 'HP_ERR_REQUEST_ABORTED') {
    // the client left mid-stream: Fastify's line for it (logFormat 'fastify')
    if (fastifyLogs && reply._res.headersSent) reply.request.log.info({ res: reply }, 'stream closed prematurely')
    return
  }
  if (!reply._res.headersSent) {
    // Failed before its first byte: the error handler can still answer.
    reply._done = false
    reply._sent = false
    handleError(reply, err)
    return
  }
  if (fastifyLogs) reply.request.log.warn({ err }, 'response terminated with an error with headers already sent')
  else reply.request.log.error({ err }, 'response stream failed after the headers were sent')
}
