// What a payload is, decided once per reply from its type: the writer picks
// the body encoding and default Content-Type from it.

export const KIND_JSON = 0
export const KIND_STRING = 1
export const KIND_EMPTY = 2
export const KIND_BINARY = 3
const KIND_STREAM = 4
export const KIND_WEB_STREAM = 5
export const KIND_RESPONSE = 6

export const JSON_TYPE = 'application/json; charset=utf-8'
export const TEXT_TYPE = 'text/plain; charset=utf-8'
export const OCTET_TYPE = 'application/octet-stream'

/** @param {unknown} p */
export function payloadKind (p) {
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
  // a Buffer, any typed array or a DataView: its bytes as they are
  if (ArrayBuffer.isView(p)) return KIND_BINARY
  if (typeof (/** @type {any} */ (p)).pipe === 'function') return KIND_STREAM
  // ReadableStream and Response are lazy globals in Node: read them only
  // for payloads that get this far.
  if (p instanceof globalThis.ReadableStream) return KIND_WEB_STREAM
  if (p instanceof globalThis.Response) return KIND_RESPONSE
  // another fetch implementation's (the undici package's Response is its
  // own class): known by its tag, as Fastify knows it
  const tag = Object.prototype.toString.call(p)
  if (tag === '[object Response]') return KIND_RESPONSE
  if (tag === '[object ReadableStream]') return KIND_WEB_STREAM
  return KIND_JSON
}
