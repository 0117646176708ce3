// Middleware that wraps the response's writeHead/write/end: compression
// (gzip, br) under /gz, response-time under /timed and morgan under /log.
import { Readable } from 'node:stream'
import compression from 'compression'
import responseTime from 'response-time'
import morgan from 'morgan'

/** A JSON reply well over compression's threshold. */
export const BIG = { items: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item number ${i}` })) }

/** The lines /gz/stream sends, one chunk each. */
export const STREAM_LINES = Array.from({ length: 200 }, (_, i) => `line ${i} of a streamed reply\n`)

/**
 * @param {import('hotpath').HotpathInstance} app
 * @param {{ logStream: { write: (line: string) => void } }} settings
 */
export function writers (app, settings) {
  app.register(async (api) => {
    api.use(compression({ threshold: 1024 }))
    api.get('/big', () => BIG)
    api.get('/small', () => ({ ok: true }))
    api.get('/stream', (_req, reply) => {
      reply.type('text/plain; charset=utf-8').send(Readable.from(STREAM_LINES))
    })
  }, { prefix: '/gz' })

  app.register(async (api) => {
    api.use(responseTime())
    api.get('/', () => ({ ok: true }))
  }, { prefix: '/timed' })

  app.register(async (api) => {
    api.use(morgan(':method :url :status :res[content-length] :response-time ms', { stream: settings.logStream }))
    api.get('/hello', () => ({ hello: 'world' }))
  }, { prefix: '/log' })
}
