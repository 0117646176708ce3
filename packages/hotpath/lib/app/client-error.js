// Fastify's answer to a request the engine refuses before any route sees
// it (malformed, a head too large, too slow): its server's 'clientError'
// listener, which errorFormat 'fastify' puts where an app gives no
// clientErrorHandler of its own. The answer is Fastify's fixed one, written
// on the socket as is, and the socket is destroyed.
import { statusText } from '../status.js'

/** the codes of a timeout and of a head too large, node:http's and wire's */
const TIMEOUT = new Set(['ERR_HTTP_REQUEST_TIMEOUT', 'HP_ERR_REQUEST_TIMEOUT'])
const HEAD_TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW', 'HP_ERR_HEADERS_TOO_LARGE'])

/**
 * @this {{ log: { trace?: (obj: object, msg: string) => void } }}
 * @param {Error & { code?: string }} err
 * @param {import('node:net').Socket} socket
 */
export function fastifyClientErrorHandler (err, socket) {
  // a reset connection has nothing left to answer
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const code = err.code ?? ''
  const [status, message, label] = TIMEOUT.has(code)
    ? [408, 'Client Timeout', 'timeout']
    : HEAD_TOO_LARGE.has(code)
      ? [431, 'Exceeded maximum allowed HTTP header size', 'header_overflow']
      : [400, 'Client Error', 'error']
  const reason = statusText(status)
  const body = `{"error":"${reason}","message":"${message}","statusCode":${status}}`
  if (typeof this.log.trace === 'function') this.log.trace({ err }, `client ${label}`)
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`)
  socket.destroy(err)
}
