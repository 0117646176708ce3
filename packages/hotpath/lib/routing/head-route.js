// The onSend hook the HEAD route made from a GET route ends with, as
// Fastify's exposed HEAD routes do. A HEAD answer has no body (RFC 9110
// §9.3.2): a stream the GET handler returned is drained or cancelled
// rather than sent, with its failure logged instead of left unhandled.
// A string or buffer goes on: the writer sends its length without it; no
// payload at all is a length of 0.

/**
 * @param {import('../lifecycle/request.js').Request} _req
 * @param {import('../reply/reply.js').Reply} reply
 * @param {any} payload
 * @returns {null | undefined}  null: the answer has no body
 */
export function headRouteOnSendHandler (_req, reply, payload) {
  // the GET would answer with no body: its length, 0
  if (payload === undefined) {
    reply.header('content-length', '0')
    return null
  }
  if (payload === null || typeof payload !== 'object') return undefined
  // node:stream: read to its end, and nothing of it sent
  if (typeof payload.resume === 'function' && typeof payload.on === 'function') {
    payload.on('error', (/** @type {unknown} */ err) => { reply.log.error({ err }, 'Error on Stream found for HEAD route') })
    payload.resume()
    return null
  }
  // a web ReadableStream: cancelled
  if (typeof payload.getReader === 'function' && typeof payload.cancel === 'function') {
    payload.cancel('Stream cancelled by HEAD route').catch((/** @type {unknown} */ err) => { reply.log.error({ err }, 'Error on Stream found for HEAD route') })
    return null
  }
  return undefined
}
