import hotpath from 'hotpath'
import type { HotpathInstance, HotpathRequest, HotpathReply, JSONSchema, RouteOptions } from 'hotpath'
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

// A written generic is checked against the route's schema: each part's
// schema must be able to describe the written type, and the error names the field
app.get<{ Params: { id: string } }>('/w/:id', {
  schema: { params: { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'], additionalProperties: false } }
}, (req) => req.params.id)
app.get<{ Params: { id: string } }>('/w2/:id', {
  // @ts-expect-error an integer schema under a string param
  schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } }
}, (req) => req.params.id)
app.post<{ Body: { title: string, year?: number } }>('/w3', {
  // @ts-expect-error a number schema under a string field
  schema: { body: { type: 'object', properties: { title: { type: 'number' }, year: { type: 'integer' } } } }
}, (req) => req.body.title)
app.get<{ Querystring: { tags: string[] } }>('/w4', {
  // @ts-expect-error the items of a string[] are strings
  schema: { querystring: { type: 'object', properties: { tags: { type: 'array', items: { type: 'integer' } } } } }
}, (req) => req.query.tags)
app.get<{ Querystring: { tags: string[] } }>('/w5', {
  // @ts-expect-error `query` is checked as `querystring` is
  schema: { query: { type: 'object', properties: { tags: { type: 'string' } } } }
}, (req) => req.query.tags)
app.get<{ Params: { kind: 'book' | 'film' } }>('/w6/:kind', {
  // @ts-expect-error the schema allows a value the type does not
  schema: { params: { type: 'object', properties: { kind: { enum: ['book', 'game'] } } } }
}, (req) => req.params.kind)
app.get<{ Params: { kind: 'book' | 'film' } }>('/w7/:kind', {
  schema: { params: { type: 'object', properties: { kind: { type: 'string', enum: ['book', 'film'] } } } }
}, (req) => req.params.kind)
app.get<{ Headers: { 'x-count': number } }>('/w8', {
  // @ts-expect-error a string header schema under a number
  schema: { headers: { type: 'object', properties: { 'x-count': { type: 'string' } } } }
}, (req) => req.headers['x-count'])
app.get<{ Reply: Book }>('/w9', {
  // @ts-expect-error the 200 schema says id is a string, the written Reply a number
  schema: { response: { 200: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } } } } }
}, () => ({ id: 1, title: 'Dune' }))
app.get<{ Reply: Book }>('/w10', {
  // the Reply is the 2xx answer: a 404 schema of another shape is not checked against it
  schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } }, 404: { type: 'object', properties: { message: { type: 'string' } } } } }
}, () => ({ id: 1, title: 'Dune' }))
app.get<{ Params: { id: string | number }, Body: any }>('/w11/:id', {
  // unions take each of their types' schemas; `any` takes any schema; a schema may list more than the type
  schema: { params: { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, extra: { type: 'boolean' } } }, body: { type: 'string' } }
}, (req) => req.params.id)
app.route<{ Params: { id: string } }>({
  method: 'GET',
  url: '/w12/:id',
  // @ts-expect-error route() checks a written generic too
  schema: { params: { type: 'object', properties: { id: { type: 'boolean' } } } },
  handler: (req) => req.params.id
})

// A schema typed only as a schema (JSONSchema, boolean) passes, in a function
// generic over the route's types too; a `type` widened to string cannot be checked
export function crudRoute<T>(app: HotpathInstance, body: JSONSchema) {
  app.post<{ Body: T }>('/crud', { schema: { body } }, (req) => { const item: T = req.body; return 'ok' })
}
const loaded = { type: 'object', properties: { title: { type: 'string' } } }
// @ts-expect-error `type` is a string here, not the literal 'object'
app.post<{ Body: { title: string } }>('/w13', { schema: { body: loaded } }, (req) => req.body.title)
app.post<{ Body: { title: string } }>('/w14', { schema: { body: loaded as JSONSchema } }, (req) => req.body.title)

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
