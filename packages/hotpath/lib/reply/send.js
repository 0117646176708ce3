// reply.send(payload), and the value a handler returns: the error path for
// an Error, preSerialization and the compiled serializer for JSON payloads,
// then onSend hooks, then the writer (./write.js).
import { createError } from '../errors.js'
import { runPayloadHooks } from '../lifecycle/kernel.js'
import { handleError, errorPayload, answersErrors } from '../lifecycle/handle-error.js'
import { payloadKind, KIND_JSON, JSON_TYPE } from './payload-kind.js'
import { writeReply } from './write.js'

/** @typedef {import('./reply.js').Reply} Reply */

/**
 * @param {Reply} reply
 * @param {unknown} payload
 */
export function sendPayload (reply, payload) {
  if (reply.sent) {
    if (!reply._aborted) reply.request.log.warn('reply was already sent; a second send() was ignored')
    return
  }
  if (payload instanceof Error) {
    // reply.send(err) runs the error handler (from one, the next of the
    // route's chain); from the default handler, it answers the error.
    if (!answersErrors(reply)) {
      handleError(reply, payload)
      return
    }
    payload = errorPayload(reply, payload)
  }
  reply.sent = true
  if (payloadKind(payload) === KIND_JSON) {
    const hooks = reply.route.preSerialization
    if (hooks !== null) runPayloadHooks(reply, hooks, 0, payload, afterPreSerialization, false, handleError)
    else serialize(reply, payload)
    return
  }
  onSend(reply, payload)
}

/**
 * After preSerialization hooks, which may have replaced the payload.
 * @param {Reply} reply
 * @param {unknown} payload
 */
function afterPreSerialization (reply, payload) {
  if (payloadKind(payload) === KIND_JSON) serialize(reply, payload)
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
    body = serializeFor(route, reply.statusCode, payload)
    // JSON.stringify returns undefined for a symbol, a function or a
    // toJSON() that returns nothing: a programming error, not an empty 200
    // (Fastify sends it empty, as JSON).
    if (typeof body !== 'string' && !(body === undefined && route.app.fastifyErrors)) throw new TypeError(`the payload (${typeof payload}) has no JSON representation`)
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
  onSend(reply, body)
}

/**
 * The JSON text of a payload: the route's serializer for the status when its
 * schema has one, else JSON.stringify. Also reply.serialize().
 * @param {import('../routing/route.js').Route} route
 * @param {number} status
 * @param {unknown} payload
 * @returns {string | undefined}
 */
export function serializeFor (route, status, payload) {
  if (route.serializers === null) return JSON.stringify(payload)
  // The tables built at ready(): no string per request (see serializerTable).
  const fn = status === 200 ? route.serialize200 : route.serializeExact.get(status) ?? route.serializeByClass[(status / 100) | 0] ?? null
  return fn === null ? JSON.stringify(payload) : fn(payload)
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
