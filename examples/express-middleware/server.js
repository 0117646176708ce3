// Puts the example on 127.0.0.1:3000 (PORT and HOST change it; ENGINE=node
// runs it on node:http), with a small upstream server for /proxy on a port
// of its own. Ctrl-C closes both.
import { buildApp } from './app.js'
import { startUpstream } from './upstream.js'

const port = Number.parseInt(process.env.PORT ?? '3000', 10)
const host = process.env.HOST ?? '127.0.0.1'
const engine = process.env.ENGINE === 'node' ? 'node' : 'wire'

const upstream = await startUpstream()
const app = buildApp({ engine }, { upstream: upstream.url })

let closing = false
async function shutdown () {
  if (closing) return
  closing = true
  setTimeout(() => process.exit(1), 10_000).unref()
  await app.close()
  await upstream.close()
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)

const address = await app.listen({ port, host })
console.log(`express middleware example on ${address} (engine ${engine}); /proxy forwards to ${upstream.url}`)
