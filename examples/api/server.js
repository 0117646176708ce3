// Puts the API on a socket. PORT and HOST choose where (127.0.0.1:3000 by
// default), ENGINE=node runs it on node:http instead of hotpath's own engine; SIGINT/SIGTERM close
// it gracefully: in-flight requests finish, new ones are refused, then the
// process exits.
import { build } from './app.js'

const port = Number.parseInt(process.env.PORT ?? '3000', 10)
const host = process.env.HOST ?? '127.0.0.1'
// How long a graceful close may take before the process gives up on it.
const CLOSE_GRACE_MS = 10_000

const engine = process.env.ENGINE === 'node' ? 'node' : 'wire'
const app = build({ logger: { level: process.env.LOG_LEVEL ?? 'info' }, apiKey: process.env.API_KEY, engine })

let closing = false
/** @param {NodeJS.Signals} signal */
async function shutdown (signal) {
  if (closing) return
  closing = true
  app.log.info({ signal }, 'closing')
  // unref: the timer alone must not keep the process alive once close() is done
  setTimeout(() => {
    app.log.error('graceful close took too long, exiting')
    process.exit(1)
  }, CLOSE_GRACE_MS).unref()
  try {
    await app.close()
    app.log.info('closed')
  } catch (err) {
    app.log.error({ err }, 'close failed')
    process.exitCode = 1
  }
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)

try {
  const address = await app.listen({ port, host })
  app.log.info({ address }, 'bookstore API listening')
} catch (err) {
  app.log.error({ err }, 'could not start')
  process.exit(1)
}
