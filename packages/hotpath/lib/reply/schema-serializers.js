// reply.getSerializationFunction(), compileSerializationSchema() and
// serializeInput(): serializers from the route's response schemas, or
// compiled for a schema with the route's serializer compiler the first time
// a request asks and kept by the route for the next one (Fastify's API).
// Nothing here runs unless a handler calls one of them.

import { compiledSerializer } from '../routing/schema.js'

/** @typedef {import('./reply.js').Reply} Reply */

/**
 * The route's serializer for a status of its response schema (and a content
 * type, where the schema has one per type), or the one
 * compileSerializationSchema() made for a schema; undefined when there is
 * none.
 * @param {Reply} reply
 * @param {object | string | number} schemaOrStatus
 * @param {string} [contentType]
 */
export function getSerializationFunction (reply, schemaOrStatus, contentType) {
  if (typeof schemaOrStatus === 'string' || typeof schemaOrStatus === 'number') return statusSerializer(reply.route, schemaOrStatus, contentType)
  if (schemaOrStatus !== null && typeof schemaOrStatus === 'object') return reply.route.serializerCache?.get(schemaOrStatus)
  return undefined
}

/**
 * @param {Reply} reply
 * @param {object} schema
 * @param {string | number | null} [httpStatus]
 * @param {string | null} [contentType]
 * @returns {Function}
 */
export function compileSerializationSchema (reply, schema, httpStatus = null, contentType = null) {
  const route = reply.route
  const known = route.serializerCache?.get(schema)
  if (known !== undefined) return known
  const compiler = route.serializerCompiler ?? route.context.schemaController.setupSerializer(route.app.serializerOptions)
  const request = reply.request
  const serialize = compiler({ schema, method: request.method, url: request.url, httpStatus, contentType })
  ;(route.serializerCache ??= new WeakMap()).set(schema, serialize)
  return serialize
}

/**
 * serializeInput(input, status[, contentType]) with the route's serializer
 * for that status (an error when it has none), or serializeInput(input,
 * schema) with one compiled for the schema; given a status as well, the
 * route's serializer for the status wins, as in Fastify.
 * @param {Reply} reply
 * @param {unknown} input
 * @param {object | string | number} schema
 * @param {string | number} [httpStatus]
 * @param {string} [contentType]
 */
export function serializeInput (reply, input, schema, httpStatus, contentType) {
  const byStatus = typeof schema === 'string' || typeof schema === 'number'
  // (input, status, contentType?) or (input, schema, status?, contentType?)
  const status = byStatus ? schema : httpStatus
  const type = byStatus && typeof httpStatus === 'string' ? httpStatus : contentType
  if (status === undefined || status === null) return compileSerializationSchema(reply, /** @type {object} */ (schema), null, type ?? null)(input)
  const serialize = statusSerializer(reply.route, status, type)
  if (typeof serialize !== 'function') {
    const app = reply.route.app
    throw typeof type === 'string' ? app.error('HP_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN', String(status), type) : app.error('HP_ERR_MISSING_SERIALIZATION_FN', String(status))
  }
  return serialize(input)
}

/**
 * The response schema's serializer under exactly that key ('200', '2xx',
 * 'default'); with a content type, the one for that type when the key has
 * one per type.
 * @param {import('../routing/route.js').Route} route
 * @param {string | number} status
 * @param {string} [contentType]
 * @returns {any}
 */
function statusSerializer (route, status, contentType) {
  const entry = /** @type {any} */ (route.serializers?.get(String(status).toLowerCase()))
  // (one compiled on first use is compiled now: what is handed out is the compiler's function)
  if (typeof contentType !== 'string') return compiledSerializer(entry)
  // a status given one schema per content type has a serializer per type
  return typeof entry === 'function' ? compiledSerializer(entry.byType?.get(contentType.toLowerCase())) : undefined
}
