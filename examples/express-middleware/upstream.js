// A plain node:http server for /proxy to forward to (http-proxy-middleware):
// it echoes bodies, streams a reply slowly, times a request body's arrival,
// dies on request, and echoes WebSocket messages on /ws.
import http from 'node:http'
import { once } from 'node:events'
import { WebSocketServer } from 'ws'

/** How long /drip waits between its two chunks. */
export const DRIP_MS = 300

/**
 * @param {{ port?: number, host?: string }} [options]
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function startUpstream ({ port = 0, host = '127.0.0.1' } = {}) {
  const server = http.createServer(handle)
  const wss = new WebSocketServer({ server, path: '/ws' })
  wss.on('connection', (ws, req) => {
    ws.on('message', (data, isBinary) => ws.send(isBinary ? data : `echo: ${data}`))
    ws.send(`hello ${req.url}`)
  })
  server.listen(port, host)
  await once(server, 'listening')
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    async close () {
      for (const ws of wss.clients) ws.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function handle (req, res) {
  const url = new URL(req.url ?? '/', 'http://upstream')
  switch (url.pathname) {
    case '/hello':
      res.setHeader('content-type', 'application/json')
      res.setHeader('x-upstream', 'yes')
      res.end(JSON.stringify({ from: 'upstream', method: req.method, url: req.url, host: req.headers.host }))
      return
    case '/echo':
      // streamed back as it arrives, with the request's type
      res.setHeader('content-type', req.headers['content-type'] ?? 'application/octet-stream')
      req.pipe(res)
      return
    case '/drip':
      // the first chunk now, the second later: a proxy that streams lets
      // the client see the first long before the end
      res.setHeader('content-type', 'text/plain')
      res.write('first\n')
      setTimeout(() => res.end('second\n'), DRIP_MS).unref()
      return
    case '/timing': {
      // when the first and the last byte of the body came: a proxy that
      // streams the request body forwards the first before the client sent
      // the last
      const start = Date.now()
      let first = -1
      let bytes = 0
      req.on('data', (/** @type {Buffer} */ chunk) => {
        if (first === -1) first = Date.now() - start
        bytes += chunk.length
      })
      req.on('end', () => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ bytes, firstByteMs: first, lastByteMs: Date.now() - start }))
      })
      return
    }
    case '/die':
      // the upstream goes away mid-request
      req.socket.destroy()
      return
    default:
      res.statusCode = 404
      res.end('not found upstream')
  }
}
