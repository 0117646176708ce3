import hotpath from 'hotpath'
import type { HotpathReply, HotpathRequest } from 'hotpath'
import { expectTypeOf } from './helpers.js'

const app = hotpath()

app.get('/r', (req, reply) => {
  expectTypeOf(req.method).toBe<string>()
  expectTypeOf(req.url).toBe<string>()
  expectTypeOf(req.hostname).toBe<string>()
  expectTypeOf(req.port).toBe<number | null>()
  expectTypeOf(req.raw.httpVersion).toBe<string>()
  expectTypeOf(req.headers.host).toBe<string | undefined>()
  req.log.info({ id: req.id }, 'hello')
  req.log.child({ a: 1 }).debug('child')

  // Reply methods chain
  expectTypeOf(reply.code(201)).toBe<HotpathReply<{}, 201>>()
  reply.code(201).header('x-a', 'b').header('x-n', 1).header('set-cookie', ['a=1', 'b=2'])
  reply.headers({ 'cache-control': 'no-store', 'x-count': 3 }).type('text/html')
  expectTypeOf(reply.sent).toBe<boolean>()

  // @ts-expect-error a status code is a number
  reply.code('201')
  // @ts-expect-error a header name is a string
  reply.header(42, 'x')
  // @ts-expect-error a header value is a string, number or string[]
  reply.header('x-a', { nested: true })
  // @ts-expect-error sent is read-only
  reply.sent = true
  // @ts-expect-error type() takes a content type string
  reply.type(42)
  // @ts-expect-error request.params is not a function
  req.params()

  return reply.send({ ok: true })
})

app.get('/redirect', (req, reply) => reply.redirect('/elsewhere'))
app.get('/redirect301', (req, reply) => reply.redirect('/elsewhere', 301))
app.get('/hijack', (req, reply) => {
  reply.hijack()
  // node:http's objects on every engine: piping and writing type-check
  expectTypeOf(reply.raw.writeHead(200, { 'content-type': 'text/plain' })).toBe<typeof reply.raw>()
  req.raw.pipe(reply.raw)
  expectTypeOf(reply.raw.req.url).toBe<string | undefined>()
})

// A reply typed by the route's Reply only accepts that payload
app.get<{ Reply: { id: number } }>('/typed', (req, reply) => {
  reply.send({ id: 1 })
  reply.send(new Error('errors are always accepted'))
  // @ts-expect-error the declared Reply has an `id`
  reply.send({ name: 'x' })
})
app.get<{ Reply: { id: number } }>('/typed-return', async () => ({ id: 1 }))
// @ts-expect-error a handler returns the declared Reply
app.get<{ Reply: { id: number } }>('/typed-wrong', async () => ({ id: 'one' }))
app.get<{ Reply: { id: number } }>('/typed-later', (req, reply) => {
  setTimeout(() => reply.send({ id: 2 }), 10)
  return reply
})

// Abort-aware work
app.get('/slow', async (req) => {
  const res = await fetch('http://127.0.0.1:1/', { signal: req.signal }).catch(() => null)
  return { got: res !== null }
})

// Decorators typed by module augmentation
declare module 'hotpath' {
  interface HotpathInstance { config: { name: string } }
  interface HotpathRequest { user?: { id: string } }
  interface HotpathReply { ok(): void }
}
app.decorate('config', { name: 'x' })
app.decorateRequest('user', undefined)
app.decorateReply('ok', function (this: HotpathReply) { this.send({ ok: true }) })
app.get('/me', function (req, reply) {
  expectTypeOf(this.config.name).toBe<string>()
  expectTypeOf(req.user).toBe<{ id: string } | undefined>()
  reply.ok()
})

function takesRequest (req: HotpathRequest<{ Params: { a: string } }>) {
  return req.params.a
}
void takesRequest

// The rest of the reply and request surface
app.get('/more', (req, reply) => {
  expectTypeOf(reply.statusCode).toBe<number>()
  reply.statusCode = 202
  reply.status(201).removeHeader('x-a')
  expectTypeOf(reply.getHeader('x-a')).toBe<string | number | string[] | undefined>()
  expectTypeOf(reply.hasHeader('x-a')).toBe<boolean>()
  expectTypeOf(reply.getHeaders()).toBe<Record<string, string | number | string[]>>()
  expectTypeOf(reply.elapsedTime).toBe<number>()
  expectTypeOf(reply.request).toBe<HotpathRequest<{}>>()
  expectTypeOf(req.routeOptions.url).toBe<string>()
  expectTypeOf(req.routeOptions.prefix).toBe<string>()
  expectTypeOf(req.protocol).toBe<string>()
  expectTypeOf(req.querystring).toBe<string>()
  expectTypeOf(req.routeOptions.config.url).toBe<string>()
  expectTypeOf(req.routeOptions.bodyLimit).toBe<number>()
  // @ts-expect-error signal is read-only
  req.signal = new AbortController().signal
  // @ts-expect-error statusCode is a number
  reply.statusCode = '200'
})

app.get('/readonly', (req) => {
  // @ts-expect-error path is computed from url
  req.path = '/x'
  // @ts-expect-error ip is computed from the socket and trustProxy
  req.ip = '1.2.3.4'
  req.id = 'custom-id'
  return req.id
})

// Fastify's forms: after(), shared schemas, inject with a callback, ready(cb), callNotFound
app.register(async () => {}).after((err) => { if (err) throw err })
app.addSchema({ $id: 'user', type: 'object' })
expectTypeOf(app.getSchemas()).toBe<Record<string, import('hotpath').JSONSchema>>()
app.decorate(Symbol('k'), 1, ['version'])
app.inject({ url: '/' }, (err, res) => { if (!err) expectTypeOf(res?.statusCode).toBe<number | undefined>() })
app.ready((err) => { if (err) throw err })
app.get('/nf', (req, reply) => reply.callNotFound())
