// Fastify's own type providers on hotpath's entry (docs/typescript.md):
// hotpath().withTypeProvider<TypeBoxTypeProvider>() types a route's request
// from its TypeBox schema, as Fastify().withTypeProvider does.
import hotpath from 'hotpath'
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { expectTypeOf } from './helpers.js'

const app = hotpath().withTypeProvider<TypeBoxTypeProvider>()

app.get('/notes/:id', { schema: { params: Type.Object({ id: Type.Integer() }) } }, (req) => {
  expectTypeOf(req.params.id).toBe<number>()
  return req.params.id
})

app.post('/notes', { schema: { body: Type.Object({ title: Type.String(), tags: Type.Optional(Type.Array(Type.String())) }) } }, async (req) => {
  expectTypeOf(req.body.title).toBe<string>()
  expectTypeOf(req.body.tags).toBe<string[] | undefined>()
  // @ts-expect-error: the schema has no such property
  return req.body.missing
})
