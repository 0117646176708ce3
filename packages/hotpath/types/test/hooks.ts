import hotpath from 'hotpath'
import type { HotpathInstance, RouteOptions } from 'hotpath'
import type { Readable } from 'node:stream'
import { expectTypeOf } from './helpers.js'

const app = hotpath()

// Request hooks: sync or async, (req, reply), no done callback
app.addHook('onRequest', (req, reply) => { req.log.info('in') })
app.addHook('onRequest', async (req, reply) => { await Promise.resolve() })
app.addHook('preParsing', (req, reply, payload) => {
  expectTypeOf(payload).toBe<Readable>()
  return payload
})
app.addHook('preParsing', async (req, reply, payload) => {})
app.addHook('preValidation', (req) => {})
app.addHook('preHandler', async (req, reply) => {
  if (!req.headers.authorization) reply.code(401).send({ message: 'no' })
})
app.addHook('preSerialization', (req, reply, payload) => ({ wrapped: payload }))
app.addHook('onSend', async (req, reply, payload) => payload)
app.addHook('onResponse', (req, reply) => { req.log.info({ status: 200 }, 'done') })
app.addHook('onError', (req, reply, error) => {
  expectTypeOf(error.statusCode).toBe<number | undefined>()
  req.log.error(error)
})
app.addHook('onTimeout', (req) => {})
app.addHook('onRequestAbort', (req) => { void req.signal.aborted })

// Typed request hooks
app.addHook<{ Headers: { 'x-tenant': string } }>('onRequest', (req) => {
  expectTypeOf(req.headers['x-tenant']).toBe<string>()
})

// App hooks
app.addHook('onRoute', (route) => {
  expectTypeOf(route).toBe<RouteOptions & { prefix: string }>()
  void route.url
})
app.addHook('onRegister', (instance, opts) => { void instance.prefix })
app.addHook('onReady', async function () { expectTypeOf(this).toBe<HotpathInstance>() })
app.addHook('onListen', () => {})
app.addHook('preClose', async () => {})
app.addHook('onClose', async (instance) => { await instance.ready() })

// @ts-expect-error no such hook
app.addHook('onRequset', () => {})
// @ts-expect-error no such hook (Fastify's preReplay is not one)
app.addHook('onRequestDone', () => {})
// Fastify's callback form: `done` after the hook's other arguments
app.addHook('onRequest', (req, reply, done) => { done() })
app.addHook('onSend', (req, reply, payload, done) => { done(null, payload) })
app.addHook('onReady', function (done) { expectTypeOf(this).toBe<HotpathInstance>(); done() })
app.addHook('onClose', (instance, done) => { instance.log.info('closed'); done() })
// @ts-expect-error done takes an Error, not a message
app.addHook('preHandler', (req, reply, done) => { done('denied') })
// @ts-expect-error the hook must be a function
app.addHook('preHandler', 'auth')
// @ts-expect-error preParsing returns a stream (or nothing), not a string
app.addHook('preParsing', (req, reply, payload) => 'body')
// @ts-expect-error a hook name is a string from the list, not any string
app.addHook('' + 'onRequest', () => {})
