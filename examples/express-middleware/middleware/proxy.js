// http-proxy-middleware under /proxy, forwarding to `upstream`, with
// WebSocket upgrades under /proxy/ws. Mounted on the app: the proxied paths
// have no routes here.
import { createProxyMiddleware } from 'http-proxy-middleware'

/**
 * @param {import('hotpath').HotpathInstance} app
 * @param {{ upstream: string }} settings  the base URL to forward to
 */
export function proxy (app, settings) {
  // As in Express, the mount path is cut off: /proxy/echo goes to /echo.
  app.use('/proxy', createProxyMiddleware({ target: settings.upstream }))
  // Upgrades reach the server's 'upgrade' event, not the middleware; their
  // URL is the whole one, hence the filter and the rewrite.
  const ws = createProxyMiddleware({ target: settings.upstream, ws: true, pathFilter: '/proxy/ws', pathRewrite: { '^/proxy': '' } })
  app.server.on('upgrade', /** @type {any} */ (ws).upgrade)
}
