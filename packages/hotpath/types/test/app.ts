import hotpath, { HttpError, plugin } from 'hotpath'
import type { HotpathInstance, HotpathOptions, InjectResponse } from 'hotpath'
import { expectTypeOf } from './helpers.js'

// Options
const app = hotpath({
  logger: true,
  bodyLimit: 1024 * 1024,
  trustProxy: true,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
  maxParamLength: 100,
  caseSensitive: true,
  ignoreTrailingSlash: false,
  genReqId: (raw) => `${raw.method}-${Date.now()}`,
  engine: 'wire'
})
expectTypeOf(app).toBe<HotpathInstance>()
hotpath()
hotpath({ logger: { level: 'warn' } })
hotpath({ trustProxy: ['10.0.0.0/8', '127.0.0.1'] })
hotpath({ trustProxy: 1 })
hotpath({ https: { key: 'k', cert: 'c' } })

// @ts-expect-error bodyLimit is a number of bytes
hotpath({ bodyLimit: '1mb' })
// @ts-expect-error engine is 'node' or 'wire'
hotpath({ engine: 'uws' })
// @ts-expect-error caseSensitive is a boolean
hotpath({ caseSensitive: 'yes' })
// @ts-expect-error unknown option
hotpath({ bodylimit: 10 })
// @ts-expect-error genReqId returns a string
hotpath({ genReqId: () => 42 })

// Fastify's options: those implemented, and those accepted with hotpath's own behaviour
hotpath({ requestIdHeader: 'x-request-id', requestIdLogLabel: 'requestId', disableRequestLogging: true, maxRequestsPerSocket: 100 })
hotpath({ ignoreDuplicateSlashes: true, routerOptions: { ignoreTrailingSlash: true }, ajv: { customOptions: { allErrors: true }, plugins: [(ajv) => ajv] } })
hotpath({ http2: false, pluginTimeout: 0, return503OnClosing: true, onProtoPoisoning: 'error' })
// HTTP/2 on the h2 engine
hotpath({ http2: true, http2SessionTimeout: 30_000 })
// @ts-expect-error http2 is a boolean
hotpath({ http2: 'yes' })
hotpath({ pluginTimeout: 10_000 })
// @ts-expect-error pluginTimeout is a number of ms
hotpath({ pluginTimeout: '10s' })
hotpath({ rewriteUrl: (raw) => raw.url.replace(/^\/v1\//, '/v2/') })
// @ts-expect-error rewriteUrl returns the URL
hotpath({ rewriteUrl: () => 1 })
hotpath({ frameworkErrors: (err, req, reply) => { reply.code(err.statusCode).send(req.url) } })
hotpath().addConstraintStrategy({ name: 'tenant', storage: () => ({ get: () => null, set: () => {} }), deriveConstraint: (req) => req.headers['x-tenant'] }).hasConstraintStrategy('tenant')

hotpath({ load: { maxEventLoopDelay: 200, maxEventLoopUtilization: 0.98, maxHeapUsedBytes: 1e9, maxRssBytes: 2e9, sampleInterval: 500, retryAfter: 5 } })
// @ts-expect-error load limits are numbers
hotpath({ load: { maxEventLoopDelay: '200ms' } })
// @ts-expect-error unknown load option
hotpath({ load: { maxCpu: 1 } })
expectTypeOf(app.load.overloaded).toBe<boolean>()
expectTypeOf(app.load.eventLoopDelay).toBe<number>()

const options: HotpathOptions = { requestTimeout: 1000 }
hotpath(options)

// Chaining: every configuration method returns the app
app
  .decorate('db', {})
  .decorateRequest('user', null)
  .decorateReply('render', function () {})
  .setErrorHandler((error, req, reply) => reply.code(error.statusCode ?? 500).send({ message: error.message }))
  .setNotFoundHandler((req, reply) => reply.code(404).send({ missing: req.url }))
  .get('/', () => 'ok')
  .post('/x', async () => ({ ok: true }))

// Lifecycle
async function lifecycle () {
  const ready: HotpathInstance = await app.ready()
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  expectTypeOf(address).toBe<string>()
  app.server.address()
  await app.close()
  expectTypeOf(await app.inject('/')).toBe<InjectResponse>()
  void ready
}
void lifecycle

// node:net's listen options
async function listenOptions () {
  expectTypeOf(await app.listen({ path: '/run/app.sock', readableAll: true, writableAll: true, signal: AbortSignal.timeout(1000) })).toBe<string>()
  await app.listen({ fd: 3, backlog: 1024 })
  await app.listen({ port: 3000, host: '::', ipv6Only: true, exclusive: true, listenTextResolver: (address) => `up at ${address}` })
  // @ts-expect-error fd is a number
  await app.listen({ fd: '3' })
  // @ts-expect-error exclusive is a boolean
  await app.listen({ port: 0, exclusive: 1 })
}
void listenOptions

// @ts-expect-error listen takes an options object, not a bare port
app.listen(3000)
// @ts-expect-error port is a number
app.listen({ port: '3000' })

// HttpError
const e = new HttpError(404, 'no such book')
expectTypeOf(e.statusCode).toBe<number>()
const asError: Error = e
void asError
// @ts-expect-error status first, as a number
new HttpError('not found', 404)

// plugin() keeps the function's type
const p = plugin(async (instance, opts: { greeting: string }) => {
  instance.decorate('greeting', opts.greeting)
}, { name: 'greeting' })
app.register(p, { greeting: 'hi' })
// @ts-expect-error plugin meta has a name, nothing else
plugin(async () => {}, { nmae: 'x' })
const coded = new HttpError(409, 'taken', { code: 'BOOK_EXISTS', cause: new Error('dup') })
expectTypeOf(coded.code).toBe<string | undefined>()
expectTypeOf(coded.error).toBe<string>()
// @ts-expect-error the reason phrase is derived from the status
coded.error = 'Conflict'
