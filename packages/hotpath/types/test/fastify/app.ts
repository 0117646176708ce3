// A Fastify application in TypeScript, moved to hotpath by changing its
// import: @fastify/cookie's and @fastify/jwt's own .d.ts files import
// 'fastify' (mapped to hotpath/fastify's types in this folder's
// tsconfig.json, as docs/migrating-from-fastify.md shows) and augment its
// FastifyRequest, FastifyReply and FastifyInstance; the augmentations must
// land on what hotpath/fastify's factory returns. Compiled with --strict and
// without skipLibCheck.
import Fastify from 'hotpath/fastify'
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type * as Declared from 'fastify/fastify.js'
import cookie from '@fastify/cookie'
import jwt from '@fastify/jwt'
import { expectTypeOf } from '../helpers.js'

interface Claims { sub: string, scope: 'orders:read' | 'orders:write' }

declare module '@fastify/jwt' {
  interface FastifyJWT { payload: Claims, user: Claims }
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  }
}

// hotpath/fastify's names are Fastify's own declarations (the fastify
// package's), not copies of them, augmented through the 'fastify' mapping.
expectTypeOf<FastifyInstance>(null as unknown as Declared.FastifyInstance).toBe<Declared.FastifyInstance>()
expectTypeOf<FastifyRequest>(null as unknown as Declared.FastifyRequest).toBe<Declared.FastifyRequest>()

const app = Fastify({ logger: false })

await app.register(cookie, { secret: 'a-cookie-secret', parseOptions: { sameSite: 'lax' } })
await app.register(jwt, { secret: 'a-jwt-secret', sign: { expiresIn: '15m' } })

// What the plugins decorate is typed on hotpath's app, request and reply.
expectTypeOf(app.jwt.sign).toBe<typeof app.jwt.sign>()
const signed: string = app.signCookie('value')
expectTypeOf(app.unsignCookie(signed).valid).toBe<boolean>()

app.decorate('authenticate', async function (request: FastifyRequest, reply: FastifyReply) {
  await request.jwtVerify()
  void reply
})

// The shared hook on a route of its own...
app.get('/me', { onRequest: app.authenticate }, async (request) => ({ user: request.user.sub, cart: request.cookies.cart }))

// ...and on a route with its own generic, beside a hook typed for the route.
app.post<{ Body: { sku: string, qty: number }, Reply: { order: string, by: string, cart: string | undefined } }>('/orders', {
  onRequest: app.authenticate,
  preHandler: (request, _reply, done) => { done(request.body.qty > 0 ? undefined : new Error('qty')) },
  schema: { body: { type: 'object', required: ['sku', 'qty'] } }
}, async (request, reply) => {
  expectTypeOf(request.user).toBe<Claims>()
  expectTypeOf(request.cookies.cart).toBe<string | undefined>()
  reply.setCookie('last-order', request.body.sku, { path: '/', httpOnly: true, sameSite: 'lax', signed: true })
  return { order: `${request.body.qty} × ${request.body.sku}`, by: request.user.sub, cart: request.cookies.cart }
})

app.post('/login', async (request, reply) => {
  const token: string = await reply.jwtSign({ sub: 'ada', scope: 'orders:write' })
  return reply.setCookie('token', token, { httpOnly: true }).send({ token })
})

// A plugin written against Fastify's types, in both forms.
const audit: FastifyPluginAsync<{ prefix: string }> = async (instance, opts) => {
  instance.addHook('onRequest', async (request) => { request.log.info({ prefix: opts.prefix, user: request.user }) })
}
const health: FastifyPluginCallback = (instance, _opts, done) => {
  instance.get('/health', () => ({ ok: true }))
  done()
}
await app.register(audit, { prefix: '/audit' })
await app.register(health)

// A hook in Fastify's callback form, typed by Fastify's name for done.
app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
  if (request.cookies.blocked !== undefined) done(new Error('blocked'))
  else done()
})

// Wrong programs are still errors.
app.get('/wrong', (request, reply) => {
  // @ts-expect-error a cookie's value is a string
  reply.setCookie('n', 42)
  // @ts-expect-error sameSite is 'lax' | 'strict' | 'none' | boolean
  reply.setCookie('n', 'v', { sameSite: 'sometimes' })
  // @ts-expect-error the user is the declared Claims: it has no `admin`
  void request.user.admin
  // @ts-expect-error the payload signed must be the declared Claims
  void reply.jwtSign({ sub: 'ada' })
  return 'never'
})
// @ts-expect-error @fastify/jwt's options: `secret` is a string, a Buffer, a key pair or a function
await app.register(jwt, { secret: 42 })
// @ts-expect-error a FastifyPluginAsync takes its declared options
await app.register(audit, { prefix: 1 })

// listen() takes node:net's options, Fastify's listed ones and `fd`.
async function listening () {
  const signal = new AbortController().signal
  expectTypeOf(await app.listen({ path: '/run/app.sock', readableAll: true, writableAll: true, signal })).toBe<string>()
  await app.listen({ fd: 3, backlog: 1024 })
  await app.listen({ port: 3000, host: '::', ipv6Only: true, exclusive: true, listenTextResolver: (address) => `up at ${address}` })
  // @ts-expect-error fd is a number
  await app.listen({ fd: '3' })
  // @ts-expect-error ipv6Only is a boolean
  await app.listen({ host: '::', ipv6Only: 'yes' })
}
void listening

await app.ready()
export { app }
