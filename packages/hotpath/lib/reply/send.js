// reply.send(payload), and the value a handler returns: the error path for
// an Error, preSerialization and the compiled serializer for JSON payloads,
// then onSend hooks, then the writer (./write.js).
import { createError } from '../errors.js'
import { runPayloadHooks } from '../lifecycle/kernel.js'
import { handleError, errorPayload, answersErrors } from '../lifecycle/handle-error.js'
import { payloadKind, KIND_JSON, KIND_STRING, KIND_BINARY, JSON_TYPE, TEXT_TYPE, OCTET_TYPE } from './payload-kind.js'
import { mediaType, normalizedType } from '../lifecycle/parsers/content-type.js'
import { writeReply } from './write.js'

/** @typedef {import('./reply.js').Reply} Reply */

/**
 * @param {Reply} reply
 * @param {unknown} payload
 */
export function sendPayload (reply, payload) {
  // an onError hook observes the error; the error handler answers it
  if (reply._inOnError) throw reply.route.app.error('HP_ERR_SEND_INSIDE_ONERR')
  if (reply._sent) {
    if (!reply._aborted) {
      const req = reply.request
      // an error that says where: the code the log's readers search for
      const err = reply.route.app.error('HP_ERR_REP_ALREADY_SENT', req.url, req.method)
      req.log.warn({ err }, 'reply was already sent; a second send() was ignored')
    }
    return
  }
  if (payload instanceof Error) {
    // reply.send(err) runs the error handler (from one, the next of the
    // route's chain); from the default handler, it answers the error.
    if (!answersErrors(reply)) {
      handleError(reply, payload)
      return
    }
    const body = errorPayload(reply, payload)
    if (reply.route.app.fastifyErrors) {
      reply._sent = true
      serializeErrorAnswer(reply, payload, /** @type {Record<string, unknown>} */ (body))
      return
    }
    payload = body
  }
  reply._sent = true
  // A type set on node's object (reply.raw.setHeader(), a middleware) is
  // the reply's, as Fastify's send() reads it through reply.getHeader():
  // a string goes out with it, not as text/plain
  if (reply._contentType === null && reply._raw !== null) adoptRawType(reply)
  const kind = payloadKind(payload)
  if (kind === KIND_JSON || (payload === null && reply.route.app.fastifyReplies && isJsonType(reply._contentType))) {
    // (Fastify's null is a JSON value: "null", unless a type that is not JSON was set)
    if (kind === KIND_JSON && reply._contentType !== null && reply._serializer === null && reply.route.app.fastifyReplies && !isJsonType(reply._contentType)) {
      // replyFormat 'fastify': a type that is not JSON gets no JSON; the
      // value goes to onSend as it is, and the writer refuses what is
      // still not a body then (an onSend hook may make it one)
      onSend(reply, payload)
      return
    }
    const hooks = reply.route.preSerialization
    if (hooks !== null) runPayloadHooks(reply, hooks, 0, payload, afterPreSerialization, false, handleError)
    else serialize(reply, payload)
    return
  }
  if (kind === KIND_STRING && reply._contentType !== null) {
    // a string sent with its own type: the reply's serializer makes it the
    // body (reply.serializer()); a JSON type gets its charset (replyFormat 'fastify')
    if (reply._serializer !== null) {
      try {
        payload = reply._serializer(payload)
      } catch (err) {
        handleError(reply, err)
        return
      }
    }
    // (not to what reply.serializer() made: Fastify leaves its type as set)
    else if (reply.route.app.fastifyReplies) addJsonCharset(reply)
  }
  // The type a string or bytes go out with is the reply's from here, as in
  // Fastify: onSend hooks read it (reply.getHeader('content-type'))
  if (reply._contentType === null) {
    if (kind === KIND_STRING) reply._contentType = TEXT_TYPE
    else if (kind === KIND_BINARY) reply._contentType = OCTET_TYPE
  }
  onSend(reply, payload)
}

/**
 * @param {Reply} reply  one whose `raw` was asked for
 */
function adoptRawType (reply) {
  const type = /** @type {any} */ (reply._raw).getHeader('content-type')
  if (type !== undefined) reply._contentType = String(type)
}

/**
 * True for no type yet (the JSON default comes) or a JSON one
 * ('application/json', 'application/problem+json').
 * @param {string | null} type
 */
function isJsonType (type) {
  if (type === null) return true
  const media = mediaType(type)
  return media !== null && media.includes('json')
}

/**
 * As Fastify: a JSON type the app set without a charset goes out
 * normalized, with `charset=utf-8` added.
 * @param {Reply} reply
 */
function addJsonCharset (reply) {
  const type = /** @type {string} */ (reply._contentType)
  const media = mediaType(type)
  if (media === null || !media.includes('json')) return
  const normalized = /** @type {string} */ (normalizedType(type))
  if (!CHARSET.test(normalized)) reply._contentType = normalized + '; charset=utf-8'
}

/** a charset parameter of a normalized type (values quoted, names lower case) */
const CHARSET = /; charset="/

/**
 * After preSerialization hooks, which may have replaced the payload.
 * @param {Reply} reply
 * @param {unknown} payload
 */
function afterPreSerialization (reply, payload) {
  if (payloadKind(payload) === KIND_JSON || (payload === null && reply.route.app.fastifyReplies)) serialize(reply, payload)
  else onSend(reply, payload)
}

/**
 * @param {Reply} reply
 * @param {unknown} payload  known to be a JSON payload
 */
function serialize (reply, payload) {
  const route = reply.route
  let body
  let custom = false
  try {
    // reply.serializer(), else setReplySerializer()'s, else the schema's or
    // JSON.stringify; an error's answer never goes through the first two
    body = reply._erroring
      ? serializeFor(route, reply.statusCode, payload, reply._contentType)
      : reply._serializer !== null
        ? reply._serializer(payload)
        : route.replySerializer !== null ? route.replySerializer(payload, reply.statusCode) : serializeFor(route, reply.statusCode, payload, reply._contentType)
    // replyFormat 'fastify': what reply.serializer() returns is the body,
    // whatever it is (the writer refuses what is not one), and its type the
    // one the app set: no charset added, as Fastify leaves it
    if (reply._serializer !== null && !reply._erroring && route.app.fastifyReplies) custom = true
    // JSON.stringify returns undefined for a symbol, a function or a
    // toJSON() that returns nothing: a programming error, not an empty 200
    // (Fastify sends it empty, as JSON).
    if (!custom && typeof body !== 'string' && !(body === undefined && route.app.fastifyErrors)) throw new TypeError(`the payload (${typeof payload}) has no JSON representation`)
  } catch (err) {
    // Fastify answers the serializer's own error (fast-json-stringify's
    // '"name" is required!'), marked with the route's config as
    // `serialization` for error handlers; hotpath's masks it behind its code
    if (route.app.fastifyErrors) {
      if (err !== null && typeof err === 'object') /** @type {any} */ (err).serialization = route.requestOptions.config
      handleError(reply, err)
      return
    }
    const e = createError('HP_ERR_SERIALIZATION')
    e.cause = err
    handleError(reply, e)
    return
  }
  if (custom) {
    onSend(reply, body)
    return
  }
  if (reply._contentType === null) reply._contentType = JSON_TYPE
  else if (route.app.fastifyReplies) addJsonCharset(reply)
  onSend(reply, body)
}

/**
 * The JSON text of a payload: the route's serializer for the status when its
 * schema has one, else JSON.stringify. Also reply.serialize().
 * @param {import('../routing/route.js').Route} route
 * @param {number} status
 * @param {unknown} payload
 * @param {string | null} [contentType]  the reply's
 * @returns {string | undefined}
 */
export function serializeFor (route, status, payload, contentType = null) {
  const fn = serializerFor(route, status)
  // (a schema given per content type picks by the reply's, JSON's by default)
  return fn === null ? JSON.stringify(payload) : fn(payload, contentType ?? JSON_TYPE)
}

/**
 * The route's response serializer for a status, or null for none.
 * @param {import('../routing/route.js').Route} route
 * @param {number} status
 */
function serializerFor (route, status) {
  if (route.serializers === null) return null
  // The tables built at ready(): no string per request (see serializerTable).
  return status === 200 ? route.serialize200 : route.serializeExact.get(status) ?? route.serializeByClass[(status / 100) | 0] ?? null
}

/**
 * The default handler's answer under errorFormat 'fastify', as Fastify
 * serializes it: no preSerialization hooks; the route's response schema
 * for the status, when it has one, applied to the error itself (its own
 * fields, with the status, reason phrase and message); and when that
 * fails, a 500 that names both failures (FST_ERR_FAILED_ERROR_SERIALIZATION),
 * rather than the fixed one. Then onSend, as for any answer.
 * @param {Reply} reply
 * @param {Error} err
 * @param {Record<string, unknown>} body  the default body (errorPayload)
 */
function serializeErrorAnswer (reply, err, body) {
  const status = reply.statusCode
  // the schema for the answer's type (JSON unless the handler set one), as
  // Fastify picks it; a status given per content type without that type's
  // schema answers the default body
  const type = reply._contentType ?? JSON_TYPE
  let fn = serializerFor(reply.route, status)
  const byType = /** @type {any} */ (fn)?.byType
  if (byType !== undefined && !byType.has(mediaType(type)) && !byType.has('*/*')) fn = null
  /** @type {unknown} */
  let text
  try {
    text = fn === null
      ? JSON.stringify(body)
      : fn(Object.create(err, { error: { value: body.error }, message: { value: body.message }, statusCode: { value: status } }), type)
    if (typeof text !== 'string' && !Buffer.isBuffer(text)) {
      // a serializer that returned what is not a body: the answer says so,
      // with the status it had, as Fastify's fallback answers it
      const invalid = reply.route.app.error('HP_ERR_REP_INVALID_PAYLOAD_TYPE', typeof text)
      text = JSON.stringify({ statusCode: status, code: invalid.code, message: invalid.message })
    }
  } catch (e) {
    reply.request.log.error({ err: e }, 'the error answer could not be serialized')
    reply.statusCode = 500
    const failed = reply.route.app.error('HP_ERR_ERROR_SERIALIZATION', /** @type {any} */ (e)?.message, err.message)
    text = JSON.stringify({ statusCode: 500, code: failed.code, message: failed.message })
  }
  if (reply._contentType === null) reply._contentType = JSON_TYPE
  onSend(reply, text)
}

/**
 * @param {Reply} reply
 * @param {unknown} payload
 */
function onSend (reply, payload) {
  const hooks = reply.route.onSend
  if (hooks === null) writeReply(reply, payload)
  else runPayloadHooks(reply, hooks, 0, payload, writeReply, false, handleError)
}
