// Builds the bookstore API without listening, so tests can drive it with
// app.inject() and server.js can put it on a socket.
import { readFileSync } from 'node:fs'
import hotpath, { HttpError } from 'hotpath'
// Types every route's request and replies from its JSON schemas (a types-
// only module: docs/typescript.md).
import 'hotpath/json-schema-to-ts'
import { BookStore } from './store.js'
import books from './routes/books.js'

export const SEED = [
  { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', year: 1969, tags: ['sf'] },
  { title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin', year: 1968, tags: ['fantasy'] },
  { title: 'Dune', author: 'Frank Herbert', year: 1965, tags: ['sf'] }
]

// this example's README, served at /docs
const README = readFileSync(new URL('./README.md', import.meta.url), 'utf8')

/**
 * @param {object} [options]
 * @param {boolean | object} [options.logger]  hotpath's `logger` option (off by default)
 * @param {string} [options.apiKey]  when set, writes need `Authorization: Bearer <apiKey>`
 * @param {BookStore} [options.store]
 * @param {'node' | 'wire'} [options.engine]  the HTTP engine (hotpath's default, wire, when unset)
 */
export function build ({ logger = false, apiKey, store = new BookStore(SEED), engine } = {}) {
  const app = hotpath({ logger, engine, bodyLimit: 64 * 1024 })

  // A decorator: the app and every plugin context reach the store as
  // `app.store`, set once at start-up.
  app.decorate('store', store)

  // Every answer carries the request id, so a client can quote it and an
  // operator can find the matching log lines.
  app.addHook('onRequest', (req, reply) => {
    reply.header('x-request-id', req.id)
  })

  // Every route as it is declared, for the index at / (an onRoute hook sees
  // each route of each plugin as it is added).
  /** @type {string[]} */
  const routes = []
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push(`${method} ${route.url}`)
  })

  // What a client finds first: what this API offers and where its docs are.
  app.get('/', () => ({ name: 'bookstore API', docs: '/docs', routes }))
  app.get('/docs', (req, reply) => reply.type('text/markdown; charset=utf-8').send(README))
  app.get('/health', () => ({ status: 'ok' }))

  app.register(async (api) => {
    // Encapsulated: this hook, error handler and not-found handler apply
    // to /api/v1 only.
    if (apiKey !== undefined) {
      const expected = `Bearer ${apiKey}`
      api.addHook('onRequest', (req) => {
        if (req.method !== 'GET' && req.method !== 'HEAD' && req.headers.authorization !== expected) {
          throw new HttpError(401, 'Missing or wrong API key', { code: 'UNAUTHORIZED' })
        }
      })
    }

    api.setErrorHandler(errorHandler)
    api.setNotFoundHandler((req, reply) => {
      reply.code(404).send({
        statusCode: 404,
        error: 'Not Found',
        message: `No resource at ${req.method} ${req.path}`,
        code: 'NO_SUCH_RESOURCE'
      })
    })

    await api.register(books)
  }, { prefix: '/api/v1' })

  return app
}

/**
 * Client errors keep their status and message; anything else is logged with
 * its stack and answered with a generic 500 that reveals nothing.
 * @param {import('hotpath').HotpathError} err
 * @param {import('hotpath').HotpathRequest} req
 * @param {import('hotpath').HotpathReply} reply
 */
function errorHandler (err, req, reply) {
  const status = err.statusCode ?? 500
  if (status >= 500) {
    req.log.error({ err }, 'request failed')
    reply.code(500).send({ statusCode: 500, error: 'Internal Server Error', message: 'Something went wrong', code: 'INTERNAL' })
    return
  }
  // Only an HttpError's message (or one marked `expose`) is meant for clients.
  const exposed = err instanceof HttpError || /** @type {any} */ (err).expose === true
  const known = err instanceof HttpError ? err : new HttpError(status, exposed ? err.message : undefined, { code: err.code })
  // `details` carries what a coded error adds to its answer, e.g. the
  // `validation` list of a failed schema check.
  const body = { statusCode: known.statusCode, error: known.error, message: known.message, code: known.code, ...known.details }
  reply.code(known.statusCode).send(body)
}
