// Header middleware: cors under /cors (mounted on the app, so that it also
// sees the preflight OPTIONS, which matches no route), cors inside a plugin
// under /cors-plugin (as an express.Router would hold it), helmet under
// /secure.
import cors from 'cors'
import helmet from 'helmet'

export const CORS_ORIGIN = 'https://app.example'

/** @param {import('hotpath').HotpathInstance} app */
export function headers (app) {
  const corsOptions = {
    origin: CORS_ORIGIN,
    credentials: true,
    methods: ['GET', 'PUT'],
    allowedHeaders: ['Content-Type', 'X-Token'],
    exposedHeaders: ['X-Total'],
    maxAge: 600
  }
  app.use('/cors', cors(corsOptions))
  app.get('/cors/items', (_req, reply) => {
    reply.header('x-total', '2')
    return ['a', 'b']
  })
  app.put('/cors/items', () => ({ saved: true }))

  app.register(async (api) => {
    api.use(cors(corsOptions))
    api.get('/items', () => ['a', 'b'])
    api.put('/items', () => ({ saved: true }))
  }, { prefix: '/cors-plugin' })

  app.register(async (api) => {
    api.use(helmet())
    api.get('/', () => ({ secure: true }))
  }, { prefix: '/secure' })
}
