// The reply writer: picks the body encoding from the payload's type, runs
// preSerialization and onSend, and hands the engine the status, every
// header and the body in one call (one write on the socket).
import { Readable } from 'node:stream'
import { createError } from './errors.js'
import { isThenable } from './hooks.js'
import { park, readParsedStream, WAIT_PAYLOAD_HOOK } from './pipeline.js'
import { handleError, errorBody, errorPayload } from './error-handling.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'
const OCTET_TYPE = 'application/octet-stream'

const KIND_JSON = 0
const KIND_STRING = 1
const KIND_EMPTY = 2
const KIND_BINARY = 3
const KIND_STREAM = 4
const KIND_WEB_STREAM = 5
const KIND_RESPONSE = 6

const STAGE_SERIALIZE = 0
const STAGE_WRITE = 1
export const STAGE_PARSE = 2

/** @param {unknown} p */
function payloadKind (p) {
  if (typeof p === 'string') return KIND_STRING
  if (p === null || p === undefined) return KIND_EMPTY
  if (typeof p !== 'object') return KIND_JSON // numbers, booleans
  // Plain objects and arrays first: one load and compare, no instanceof.
  const C = /** @type {any} */ (p).constructor
  if (C === Object || C === Array || C === undefined) return KIND_JSON
  return objectKind(p)
}

/** @param {object} p */
function objectKind (p) {
  if (p instanceof Uint8Array) return KIND_BINARY
  if (typeof (/** @type {any} */ (p)).pipe === 'function') return KIND_STREAM
  // ReadableStream and Response are lazy globals in Node: read them only
  // for payloads that get this far.
  if (p instanceof globalThis.ReadableStream) return KIND_WEB_STREAM
  if (p instanceof globalThis.Response) return KIND_RESPONSE
  return KIND_JSON
}

/**
 * reply.send(payload), and the value a handler returns.
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} payload
 */
export function sendPayload (reply, payload) {
  if (reply.sent) {
    if (!reply._aborted) reply.request.log.warn('reply was already sent; a second send() was ignored')
    return
  }
  if (payload instanceof Error) {
    // reply.send(err) runs the error handler; inside it, it answers the error.
    if (!reply._erroring) {
      handleError(reply, payload)
      return
    }
    payload = errorPayload(reply, payload)
  }
  reply.sent = true
  if (payloadKind(payload) === KIND_JSON) {
    const hooks = reply.route.preSerialization
    if (hooks !== null) runPayloadHooks(reply, hooks, 0, payload, STAGE_SERIALIZE)
    else serialize(reply, payload)
    return
  }
  onSend(reply, payload)
}

/**
 * After preSerialization hooks, which may have replaced the payload.
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} payload
 */
function afterPreSerialization (reply, payload) {
  if (payloadKind(payload) === KIND_JSON) serialize(reply, payload)
  else onSend(reply, payload)
}

/**
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} payload  known to be a JSON payload
 */
function serialize (reply, payload) {
  const route = reply.route
  let body
  try {
    if (route.serializers === null) {
      body = JSON.stringify(payload)
    } else {
      const status = reply.statusCode
      // The tables built at ready(): no string per request (see serializerTable).
      const fn = status === 200 ? route.serialize200 : route.serializeExact.get(status) ?? route.serializeByClass[(status / 100) | 0] ?? null
      body = fn === null ? JSON.stringify(payload) : fn(payload)
    }
    // JSON.stringify returns undefined for a symbol, a function or a
    // toJSON() that returns nothing: a programming error, not an empty 200.
    if (typeof body !== 'string') throw new TypeError(`the payload (${typeof payload}) has no JSON representation`)
  } catch (err) {
    const e = createError('HP_ERR_SERIALIZATION')
    e.cause = err
    handleError(reply, e)
    return
  }
  if (reply._contentType === null) reply._contentType = JSON_TYPE
  onSend(reply, body)
}

/**
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} payload
 */
function onSend (reply, payload) {
  const hooks = reply.route.onSend
  if (hooks === null) writeReply(reply, payload)
  else runPayloadHooks(reply, hooks, 0, payload, STAGE_WRITE)
}

/**
 * Hooks that see the payload and may return a replacement: preParsing (the
 * body stream), preSerialization (the object), onSend (the serialized body).
 * @param {import('./reply.js').Reply} reply
 * @param {Function[]} hooks
 * @param {number} i
 * @param {unknown} payload
 * @param {number} stage
 */
export function runPayloadHooks (reply, hooks, i, payload, stage) {
  const req = reply.request
  const instance = reply.route.instance
  for (; i < hooks.length; i++) {
    let r
    try {
      r = hooks[i].call(instance, req, reply, payload)
    } catch (err) {
      handleError(reply, err)
      return
    }
    if (reply._done || (stage === STAGE_PARSE && reply.sent)) return
    if (isThenable(r)) {
      reply._wait = WAIT_PAYLOAD_HOOK
      reply._hooks = hooks
      reply._hookIndex = i + 1
      reply._payload = payload
      reply._stage = stage
      park(reply, r)
      return
    }
    if (r !== undefined) payload = r
  }
  if (stage === STAGE_SERIALIZE) afterPreSerialization(reply, payload)
  else if (stage === STAGE_WRITE) writeReply(reply, payload)
  else readParsedStream(reply, /** @type {import('node:stream').Readable} */ (payload))
}

/**
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} value  what the parked payload hook resolved to
 */
export function resumePayloadHook (reply, value) {
  const payload = value === undefined ? reply._payload : value
  reply._payload = undefined
  runPayloadHooks(reply, /** @type {Function[]} */ (reply._hooks), reply._hookIndex, payload, reply._stage)
}

/**
 * The reply is settled: nothing more will be written by the pipeline.
 * @param {import('./reply.js').Reply} reply
 */
export function markDone (reply) {
  reply._done = true
  reply.sent = true
  if (reply._tracked) reply.route.app.untrack(reply)
}

/**
 * @param {import('./reply.js').Reply} reply
 * @param {unknown} payload
 */
function writeReply (reply, payload) {
  if (reply._done) return
  const kind = payloadKind(payload)
  /** @type {string | Buffer | null} */
  let body
  let type = reply._contentType
  switch (kind) {
    case KIND_STRING:
      body = /** @type {string} */ (payload)
      if (type === null) type = TEXT_TYPE
      break
    case KIND_EMPTY:
      body = ''
      break
    case KIND_BINARY: {
      const u8 = /** @type {Uint8Array} */ (payload)
      body = Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength)
      if (type === null) type = OCTET_TYPE
      break
    }
    case KIND_JSON:
      // an onSend hook returned an object
      body = JSON.stringify(payload)
      if (type === null) type = JSON_TYPE
      break
    default:
      writeStreamed(reply, payload, kind)
      return
  }
  const status = reply.statusCode
  // RFC 9110 §6.4.1: 1xx, 204 and 304 responses have no content.
  if (status === 204 || status === 304 || status < 200) body = null
  const headers = buildHeaders(reply, type, body)
  markDone(reply)
  const engine = reply.engine
  try {
    engine.write(reply.raw, status, headers, body)
  } catch (err) {
    // e.g. a header value with a CR/LF: refuse it rather than send it.
    reply._done = false
    writeError(engine, reply.raw, createError('HP_ERR_INTERNAL'), false, reply, err)
  }
}

/**
 * @param {import('./reply.js').Reply} reply
 * @param {string | null} type
 * @param {string | Buffer | null} body
 * @returns {import('./engines/engine.js').OutgoingHeaders}
 */
function buildHeaders (reply, type, body) {
  const h = reply._headers
  if (h === null) {
    if (body === null) return type === null ? {} : { 'content-type': type }
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length
    return type === null ? { 'content-length': length } : { 'content-type': type, 'content-length': length }
  }
  if (type !== null) h['content-type'] = type
  if (body !== null) h['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  else delete h['content-length']
  return h
}

/**
 * @param {import('./reply.js').Reply} reply
 * @param {any} payload
 * @param {number} kind
 */
function writeStreamed (reply, payload, kind) {
  /** @type {import('node:stream').Readable} */
  let stream
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
  // A length the handler declared is kept: the engine sends the stream with
  // it instead of chunked, and ends the connection if the stream runs short
  // or long of it (RFC 9112 §6.3: a wrong length breaks the framing).
  const declared = reply._headers === null ? undefined : reply._headers['content-length']
  const headers = buildHeaders(reply, reply._contentType ?? OCTET_TYPE, null)
  if (declared !== undefined) headers['content-length'] = declared
  markDone(reply)
  reply._payload = stream
  try {
    reply.engine.writeStream(reply.raw, reply.statusCode, headers, stream, (err) => streamDone(reply, err))
  } catch (err) {
    // A header the engine refuses (a CR/LF in a value, a name that is not a
    // token): the same fallback 500 as for a body reply, and nothing of the
    // stream is read.
    reply._payload = undefined
    stream.destroy()
    reply._done = false
    writeError(reply.engine, reply.raw, createError('HP_ERR_INTERNAL'), false, reply, err)
  }
}

/**
 * @param {import('./reply.js').Reply} reply
 * @param {Error | null} err
 */
function streamDone (reply, err) {
  reply._payload = undefined
  if (err === null) return
  if (reply._aborted || (/** @type {any} */ (err)).code === 'HP_ERR_REQUEST_ABORTED') return
  if (!reply.engine.headersSent(reply.raw)) {
    // Failed before its first byte: the error handler can still answer.
    reply._done = false
    reply.sent = false
    handleError(reply, err)
    return
  }
  reply.request.log.error({ err }, 'response stream failed after the headers were sent')
}

/**
 * The last-resort answer: no hooks, no handler, a fixed JSON body. Used for
 * 503 while closing and when the error path itself fails.
 * @param {import('./engines/engine.js').Engine} engine
 * @param {import('./engines/engine.js').RawResponse} res
 * @param {import('./errors.js').HttpError} err
 * @param {boolean} close  add Connection: close
 * @param {import('./reply.js').Reply} [reply]
 * @param {unknown} [cause]  logged
 */
export function writeError (engine, res, err, close, reply, cause) {
  if (reply !== undefined) {
    if (reply._done) return
    markDone(reply)
    // the answer it replaces ended the connection (a 413 whose body was
    // never read): so does this one, or the unread body would be taken
    // for the next request
    const h = reply._headers
    if (h !== null && typeof h.connection === 'string' && h.connection.toLowerCase() === 'close') close = true
    reply.statusCode = err.statusCode
    reply.request.log.error({ err: cause ?? err }, 'request failed')
  }
  if (engine.headersSent(res)) return
  const body = JSON.stringify(errorBody(err, err.statusCode))
  /** @type {import('./engines/engine.js').OutgoingHeaders} */
  const headers = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) }
  if (close) headers.connection = 'close'
  try {
    engine.write(res, err.statusCode, headers, body)
  } catch {
    // nothing sensible is left to send
  }
}
