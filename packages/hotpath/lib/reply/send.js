// reply.send(payload), and the value a handler returns: the error path for
// an Error, preSerialization and the compiled serializer for JSON payloads,
// then onSend hooks, then the writer (./write.js).
import { createError } from '../errors.js'
import { runPayloadHooks } from '../lifecycle/kernel.js'
import { handleError, errorPayload } from '../lifecycle/handle-error.js'
import { payloadKind, KIND_JSON, KIND_STRING, JSON_TYPE } from './payload-kind.js'
import { mediaType, normalizedType } from '../lifecycle/parsers/content-type.js'
import { writeReply } from './write.js'

/** @typedef {import('./reply.js').Reply} Reply */

/**
 * @param {Reply} reply
 * @param {unknown} payload
 */
export function sendPayload (reply, payload) {
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
    // reply.send(err) runs the error handler; inside it, it answers the error.
    if (!reply._erroring) {
      handleError(reply, payload)
      return
    }
    payload = errorPayload(reply, payload)
  }
  reply._sent = true
  const kind = payloadKind(payload)
  if (kind === KIND_JSON || (payload === null && reply.route.app.fastifyReplies && isJsonType(reply._contentType))) {
    // (Fastify's null is a JSON value: "null", unless a type that is not JSON was set)
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
    if (reply.route.app.fastifyReplies) addJsonCharset(reply)
  }
  onSend(reply, payload)
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
  try {
    // reply.serializer(), else setReplySerializer()'s, else the schema's or
    // JSON.stringify; an error's answer never goes through the first two
    body = reply._erroring
      ? serializeFor(route, reply.statusCode, payload, reply._contentType)
      : reply._serializer !== null
        ? reply._serializer(payload)
        : route.replySerializer !== null ? route.replySerializer(payload, reply.statusCode) : serializeFor(route, reply.statusCode, payload, reply._contentType)
    // JSON.stringify returns undefined for a symbol, a function or a
    // toJSON() that returns nothing: a programming error, not an empty 200.
    if (typeof body !== 'string') throw new TypeError(`the payload (${typeof payload}) has no JSON representation`)
  } catch (err) {
    // Fastify answers the serializer's own error (fast-json-stringify's
    // '"name" is required!'); hotpath's masks it behind its code
    if (route.app.fastifyErrors) {
      handleError(reply, err)
      return
    }
    const e = createError('HP_ERR_SERIALIZATION')
    e.cause = err
    handleError(reply, e)
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
  if (route.serializers === null) return JSON.stringify(payload)
  // The tables built at ready(): no string per request (see serializerTable).
  const fn = status === 200 ? route.serialize200 : route.serializeExact.get(status) ?? route.serializeByClass[(status / 100) | 0] ?? null
  // (a schema given per content type picks by the reply's, JSON's by default)
  return fn === null ? JSON.stringify(payload) : fn(payload, contentType ?? JSON_TYPE)
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
