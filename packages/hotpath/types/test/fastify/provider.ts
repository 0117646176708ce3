// A Fastify application typed by Fastify's own TypeBox provider
// (@fastify/type-provider-typebox, whose .d.ts imports 'fastify', mapped to
// hotpath's types here): `withTypeProvider<TypeBoxTypeProvider>()` types its
// routes from their schemas, with no hotpath provider imported in this
// program.
import Fastify from 'hotpath/fastify'
import type { FastifyInstance, FastifyPluginAsync, FastifyTypeProviderDefault, RawServerDefault } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type FastifyPluginCallbackTypebox, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { expectTypeOf } from '../helpers.js'

const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
const Note = Type.Object({ id: Type.Integer(), title: Type.String() })

app.get('/notes/:id', {
  schema: {
    params: Type.Object({ id: Type.Integer() }),
    querystring: Type.Object({ full: Type.Optional(Type.Boolean()) }),
    response: { 200: Note, 404: Type.Object({ message: Type.String() }) }
  }
}, async (req, reply) => {
  expectTypeOf(req.params.id).toBe<number>()
  expectTypeOf(req.query.full).toBe<boolean | undefined>()
  // @ts-expect-error an integer param is a number: this comparison is always false
  if (req.params.id === '7') return reply.code(404).send({ message: 'never' })
  if (req.params.id < 0) return reply.code(404).send({ message: 'no such note' })
  // @ts-expect-error 404's reply has no id
  if (req.params.id > 1e9) return reply.code(404).send({ id: 1 })
  return { id: req.params.id, title: 'Dune' }
})

// chained route methods keep the provider; so do route() and the route's own hooks
app
  .post('/notes', { schema: { body: Note } }, async (req) => { expectTypeOf(req.body.title).toBe<string>(); return req.body })
  .route({
    method: 'PUT',
    url: '/notes/:id',
    schema: { params: Type.Object({ id: Type.Integer() }), body: Note },
    preHandler: (req) => { expectTypeOf(req.params.id).toBe<number>() },
    handler: (req) => { expectTypeOf(req.body.id).toBe<number>(); return req.body }
  })

// a plugin takes the provider the way Fastify's plugins do
async function notes (instance: FastifyInstance) {
  const typed = instance.withTypeProvider<TypeBoxTypeProvider>()
  typed.get('/mine/:id', { schema: { params: Type.Object({ id: Type.Integer() }) } }, (req) => {
    expectTypeOf(req.params.id).toBe<number>()
    return req.params.id
  })
  // the instance as given is not typed by a provider: params are unknown
  instance.get('/raw/:id', { schema: { params: Type.Object({ id: Type.Integer() }) } }, (req) => {
    expectTypeOf(req.params).toBe<unknown>()
  })
}
app.register(notes)

// and so do the plugin types of @fastify/type-provider-typebox
const asyncPlugin: FastifyPluginAsyncTypebox<{ prefix: string }> = async (instance, opts) => {
  expectTypeOf(opts.prefix).toBe<string>()
  instance.get('/p/:id', { schema: { params: Type.Object({ id: Type.Integer() }) } }, (req) => {
    expectTypeOf(req.params.id).toBe<number>()
  })
}
const callbackPlugin: FastifyPluginCallbackTypebox = (instance, opts, done) => {
  instance.post('/c', { schema: { body: Note } }, (req) => { expectTypeOf(req.body.id).toBe<number>() })
  done()
}
app.register(asyncPlugin, { prefix: '/p' })
app.register(callbackPlugin)
// @ts-expect-error the plugin requires its options
app.register(asyncPlugin)

// TypeBox 1.x reads plain JSON Schema literals too, on Fastify as here
app.get('/plain/:slug', { schema: { params: { type: 'object', properties: { slug: { type: 'string' } } } } }, (req) => {
  expectTypeOf(req.params).toBe<{ slug?: string }>()
})

// withTypeProvider() without a provider, or with Fastify's default one, is the app as it is
const same: FastifyInstance = Fastify().withTypeProvider()
const alsoSame: FastifyInstance = Fastify().withTypeProvider<FastifyTypeProviderDefault>()
expectTypeOf(alsoSame.withTypeProvider<FastifyTypeProviderDefault>()).toBe<FastifyInstance>()
const defaultPlugin: FastifyPluginAsync<{}, RawServerDefault, FastifyTypeProviderDefault> = async (instance) => {
  expectTypeOf(instance).toBe<FastifyInstance>()
}
app.register(defaultPlugin)
void same
