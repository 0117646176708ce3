// serve-static under /static, mounted on the app as Express's
// app.use('/static', serveStatic(dir)): the files have no routes, so the
// middleware must run for requests that match none.
import { fileURLToPath } from 'node:url'
import serveStatic from 'serve-static'

export const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url))

/** @param {import('hotpath').HotpathInstance} app */
export function staticFiles (app) {
  app.use('/static', serveStatic(PUBLIC_DIR, { index: ['index.html'] }))
}
