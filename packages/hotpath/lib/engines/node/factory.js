// The node engine on a server the application made (Fastify's
// `serverFactory`): serverFactory(handler, options) returns a node:http (or
// node:https) server that calls `handler(req, res)` with node's own
// IncomingMessage and ServerResponse, whatever it does around that. They
// reach the core as a request/response pair made elsewhere do
// (../foreign.js); `req.raw` and `reply.raw` are the objects the server
// made. close() closes the server only if listen() opened it.
import { listenServer } from '../engine.js'
import { errorAnswer, closingAnswer } from '../../reply/error-body.js'
import { foreignRequest, foreignResponse } from '../foreign.js'
import { publishRejected } from '../../lifecycle/tracing.js'

/**
 * @param {import('../engine.js').EngineOptions} options
 * @param {(handler: (req: any, res: any) => void, options: Record<string, any>) => any} factory
 * @param {Record<string, any>} appOptions  what the app was created with, handed to the factory
 * @returns {import('../engine.js').Engine}
 */
export function createFactoryEngine (options, factory, appOptions) {
  /** @type {import('../engine.js').RequestHandler | null} */
  let handler = null
  /** read by every response while it writes: Connection: close once closing */
  const state = { closing: false, closeBusy: false }
  let opened = false
  const return503 = options.return503OnClosing ?? true
  const server = factory((/** @type {any} */ req, /** @type {any} */ res) => {
    const response = /** @type {any} */ (foreignResponse(res))
    response.engineState = state
    if (handler === null || (state.closing && return503)) {
      const answer = handler === null ? errorAnswer('HP_ERR_NOT_READY') : options.closingAnswer ?? closingAnswer(false)
      publishRejected(answer.status, answer.code, req.method, req.url, req.socket?.remoteAddress)
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer.body), connection: 'close' })
      res.end(answer.body)
      return
    }
    handler(foreignRequest(req), response)
  }, appOptions)
  if (server === null || typeof server !== 'object' || typeof server.on !== 'function') {
    throw new TypeError('serverFactory must return a server (an EventEmitter with listen() and close())')
  }
  return {
    server,
    setHandler (h) {
      handler = h
    },
    async listen (opts) {
      const address = await listenServer(server, opts)
      opened = true
      return address
    },
    close () {
      state.closing = true
      state.closeBusy = true
      return new Promise((resolve) => {
        if (!opened || !server.listening) return resolve()
        if (options.forceCloseConnections === true && typeof server.closeAllConnections === 'function') server.closeAllConnections()
        else if (options.forceCloseConnections === 'idle') server.closeIdleConnections()
        const grace = setTimeout(() => { if (typeof server.closeAllConnections === 'function') server.closeAllConnections() }, options.closeGraceTimeout ?? 10_000)
        grace.unref()
        server.close(() => {
          clearTimeout(grace)
          resolve()
        })
      })
    }
  }
}
