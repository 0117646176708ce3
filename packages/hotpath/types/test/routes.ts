import hotpath from 'hotpath'
import type { HotpathRequest, HotpathReply, RouteOptions } from 'hotpath'
import { Readable } from 'node:stream'
import { expectTypeOf } from './helpers.js'

const app = hotpath()

// Shorthands, with and without options
app.get('/', () => ({ hello: 'world' }))
app.head('/', (req, reply) => { reply.code(200).send() })
app.options('/', (req, reply) => reply.code(204).send())
app.all('/any', (req) => req.method)
app.delete('/items/:id', async (req, reply) => { reply.code(204).send(null) })
app.put('/items/:id', { schema: { body: { type: 'object' } } }, async (req) => req.body)
app.patch('/items/:id', { bodyLimit: 1024 }, (req) => ({ patched: req.params.id }))
app.get('/file', () => Buffer.from('bytes'))
app.get('/stream', () => Readable.from(['a', 'b']))
app.get('/web', () => new Response('hi', { status: 201 }))
app.get('/empty', () => null)

// Default request types
app.get('/defaults/:id', (req) => {
  expectTypeOf(req.params).toBe<Record<string, string>>()
  expectTypeOf(req.query).toBe<Record<string, string | string[]>>()
  expectTypeOf(req.body).toBe<unknown>()
  expectTypeOf(req.id).toBe<string>()
  expectTypeOf(req.path).toBe<string>()
  expectTypeOf(req.signal).toBe<AbortSignal>()
  expectTypeOf(req.ip).toBe<string | undefined>()
  const wildcard: string | undefined = req.params['*']
  return wildcard
})

// Typed routes
interface Book { id: number, title: string }
app.get<{ Params: { id: string }, Querystring: { fields?: string }, Reply: Book }>(
  '/books/:id',
  { schema: { params: { type: 'object', properties: { id: { type: 'string' } } } } },
  async (req, reply) => {
    expectTypeOf(req.params.id).toBe<string>()
    expectTypeOf(req.query.fields).toBe<string | undefined>()
    // @ts-expect-error only declared params exist
    void req.params.slug
    return { id: Number(req.params.id), title: 'Dune' }
  }
)

app.post<{ Body: { title: string }, Headers: { 'x-api-key': string } }>('/books', async (req, reply) => {
  expectTypeOf(req.body).toBe<{ title: string }>()
  expectTypeOf(req.headers['x-api-key']).toBe<string>()
  // the standard headers are still there
  const ct: string | undefined = req.headers['content-type']
  void ct
  reply.code(201)
  return { id: 1, title: req.body.title }
})

// route()
const routeOptions: RouteOptions<{ Params: { n: string } }> = {
  method: ['GET', 'POST'],
  url: '/n/:n',
  schema: { params: { type: 'object' }, response: { 200: { type: 'object' }, '4xx': { type: 'object' } } },
  onRequest: (req) => { void req.params.n },
  preHandler: [(req, reply) => {}, async (req, reply) => {}],
  onSend: (req, reply, payload) => payload,
  handler: (req) => ({ n: req.params.n })
}
app.route(routeOptions)
app.route({ method: 'get', url: '/lower', handler: () => 'ok' })

// @ts-expect-error an unknown method
app.route({ method: 'FETCH', url: '/', handler: () => 'x' })
// @ts-expect-error route() needs a handler
app.route({ method: 'GET', url: '/' })
// @ts-expect-error a path is a string
app.get(42, () => 'x')
// @ts-expect-error no such route option
app.get('/', { schmea: {} }, () => 'x')
// a route-level hook in Fastify's callback form
app.get('/', { onRequest: (req, reply, done) => { done() } }, () => 'x')
// @ts-expect-error a route-level hook's done takes an Error, not a status
app.get('/', { onRequest: (req, reply, done) => { done(401) } }, () => 'x')
// @ts-expect-error schema.body is a JSON Schema object, not a string
app.post('/', { schema: { body: 'object' } }, () => 'x')

// Handlers receive the request and reply types
function handler (req: HotpathRequest, reply: HotpathReply) {
  return reply.send('ok')
}
app.get('/named', handler)

// logLevel: a route's, a plugin's (a custom level of the app's logger is a string too)
app.get('/health', { logLevel: 'silent' }, () => 'ok')
app.register(async (api) => { api.get('/x', () => 'x') }, { prefix: '/quiet', logLevel: 'warn' })
// @ts-expect-error a level is a name, not pino's number
app.get('/health', { logLevel: 30 }, () => 'ok')

// constraints: host and version
app.get('/admin', { constraints: { host: /^admin\./ } }, () => 'admin')
app.get('/v2', { constraints: { version: '2.0.0', host: 'api.example.com' } }, () => 'v2')
// @ts-expect-error a version is a string
app.get('/v3', { constraints: { version: 3 } }, () => 'v3')
