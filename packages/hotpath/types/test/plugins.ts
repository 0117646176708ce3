import type { IncomingMessage, ServerResponse } from 'node:http'
import hotpath, { plugin } from 'hotpath'
import type { HotpathInstance, Plugin } from 'hotpath'
import cors from 'cors'
import { expectTypeOf } from './helpers.js'

const app = hotpath()

// An async plugin with options and a prefix
const books: Plugin<{ store: Map<string, string> }> = async (instance, opts) => {
  instance.get('/books', () => [...opts.store.values()])
}
app.register(books, { prefix: '/api/v1', store: new Map() })

// A sync plugin, no options
app.register((instance) => {
  instance.addHook('onRequest', (req) => {})
})

// register is awaitable and chainable
async function load () {
  await app.register(async (instance) => {
    instance.get('/x', () => 'x')
  })
  app
    .register(async () => {})
    .register(async () => {})
}
void load

// plugin(): shared with the parent, named
const auth = plugin(async (instance: HotpathInstance, opts: { secret: string }) => {
  instance.decorateRequest('user', null)
  instance.addHook('preHandler', async (req) => {})
}, { name: 'auth' })
app.register(auth, { secret: 's' })
expectTypeOf(auth).toBe<(instance: HotpathInstance, opts: { secret: string }) => Promise<void>>()

// Connect middleware
app.use(cors())
app.use((req, res, next) => { res.setHeader('x-mw', '1'); next() })
app.use('/api', cors(), [(req, res, next) => { next() }])
// error middleware: its parameters are annotated (a four-parameter lambda
// gets no contextual type from the overloads)
app.use((err: unknown, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => { if (err) res.end('caught ' + req.url); else next() })
app.use('/api', (err: unknown, _req: IncomingMessage, res: ServerResponse, _next: (err?: unknown) => void) => { res.end(String(err)) })
// @ts-expect-error a mount path needs middleware after it
app.use('/api')

// Content-type parsers
app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (req, body) => {
  expectTypeOf(body).toBe<string>()
  return body.split('\n').filter(Boolean).map((line) => JSON.parse(line))
})
app.addContentTypeParser(['application/octet-stream', 'image/png'], { parseAs: 'buffer', bodyLimit: 10_000_000 }, async (req, body) => {
  expectTypeOf(body).toBe<Buffer>()
  return body
})

// @ts-expect-error register's prefix is a string
app.register(async () => {}, { prefix: 1 })
// @ts-expect-error the plugin's own options are checked
app.register(books, { prefix: '/b', store: 'not a map' })
// @ts-expect-error parseAs is 'string' or 'buffer'
app.addContentTypeParser('text/csv', { parseAs: 'stream' }, (req, body) => body)
// @ts-expect-error a buffer parser gets a Buffer, not a string
app.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (req, body: string) => body)
// @ts-expect-error parsers have no done callback
app.addContentTypeParser('text/csv', { parseAs: 'string' }, (req, body, done) => done(null, body))
// @ts-expect-error middleware is (req, res, next)
app.use((a: string) => {})

// The two-argument form parses as a string; '*' catches every other type
app.addContentTypeParser('text/markdown', (req, body) => {
  expectTypeOf(body).toBe<string>()
  return body
})
app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body) => body.length)
expectTypeOf(app.hasRequestDecorator('user')).toBe<boolean>()

// Error handlers see coded errors and their details
app.setErrorHandler((error, req, reply) => {
  expectTypeOf(error.code).toBe<string | undefined>()
  const issues = error.details?.validation ?? []
  for (const issue of issues) void issue.instancePath
  if (error.details?.validationContext === 'body') reply.code(422)
  // @ts-expect-error validationContext is one of the four parts
  if (error.details?.validationContext === 'cookies') reply.code(422)
  // and, as in Fastify, on the error itself
  for (const issue of error.validation ?? []) void issue.keyword
  if (error.validationContext === 'querystring') reply.code(422)
  // @ts-expect-error validationContext is one of the four parts
  if (error.validationContext === 'cookies') reply.code(422)
  return { message: error.message }
})

// Plugins written as one-liners return whatever the last call returns
app.register((api) => api.get('/one', () => 'one'))
app.register(async (api) => api.get('/two', () => 'two'))
// A module namespace whose default export is the plugin
declare const routesModule: { default: Plugin<{ store: Map<string, string> }> }
app.register(routesModule, { store: new Map() })
// Fastify's callback form: loaded when it calls done
app.register((api, opts, done) => { api.get('/three', () => 'three'); done() })
// @ts-expect-error a plugin's done takes an Error, not a message
app.register((api, opts, done) => { done('failed') })

// A plugin with required options must be given them
const needsSecret: Plugin<{ secret: string, ttl?: number }> = async (instance, opts) => { instance.decorate('secret', opts.secret) }
app.register(needsSecret, { secret: 's' })
app.register(needsSecret, { secret: 's', ttl: 60, prefix: '/auth' })
// @ts-expect-error the plugin requires { secret }
app.register(needsSecret)
// @ts-expect-error `secret` is required
app.register(needsSecret, { ttl: 60 })
// a plugin whose options are all optional may be registered without them
const optional: Plugin<{ verbose?: boolean }> = async () => {}
app.register(optional)
