// Express and Connect middleware on hotpath, used as an Express app uses
// it: app.use(fn), app.use(path, fn), and app.use inside plugins. Each group
// lives under its own prefix so none affects another. buildApp() does not
// listen: server.js puts it on a socket, the tests drive it in every mode.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import hotpath from 'hotpath'
import { bodies } from './middleware/bodies.js'
import { writers } from './middleware/writers.js'
import { headers } from './middleware/headers.js'
import { cookies, sessions, auth } from './middleware/sessions.js'
import { uploads } from './middleware/uploads.js'
import { staticFiles } from './middleware/static.js'
import { proxy } from './middleware/proxy.js'
import { limits } from './middleware/limits.js'

/**
 * @typedef {object} Settings
 * @property {string} [upstream]  base URL /proxy forwards to; /proxy is left out without one
 * @property {string} [uploadDir]  where multer stores files (a folder under the OS temp dir by default; multer creates it when the app is built)
 * @property {{ write: (line: string) => void }} [logStream]  where morgan writes its lines (stdout by default)
 * @property {string} [secret]  signs cookies and sessions
 * @property {boolean[]} [timedOut]  collects req.timedout as /slow/wait saw it
 */

/**
 * @param {Record<string, any>} [options]  hotpath's options, e.g. `{ engine: 'node' }`
 * @param {Settings} [settings]
 */
export function buildApp (options = {}, settings = {}) {
  const s = {
    uploadDir: join(tmpdir(), 'hotpath-express-middleware-uploads'),
    logStream: process.stdout,
    secret: 'keyboard cat',
    timedOut: [],
    ...settings
  }
  const app = hotpath(options)

  app.get('/', () => ({
    groups: ['/parse', '/gz', '/timed', '/log', '/cors', '/cors-plugin', '/secure', '/cookies', '/session', '/auth', '/upload', '/busboy', '/static', '/slow', '/limited', ...(s.upstream ? ['/proxy'] : [])]
  }))
  app.get('/health', () => ({ ok: true }))

  bodies(app)
  writers(app, s)
  headers(app)
  cookies(app, s)
  sessions(app, s)
  auth(app, s)
  uploads(app, s)
  staticFiles(app)
  limits(app, s)
  if (s.upstream) proxy(app, { upstream: s.upstream })
  return app
}
