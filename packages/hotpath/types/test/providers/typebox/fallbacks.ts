// A schema typed `any` or `unknown` (Type.Any(), Type.Unknown()) leaves its
// part at the default, as a schema no provider knows does; any other type,
// null and an empty object included, is the part's type. A response schema
// typed `any` still types the replies by status, its own as `unknown`.
import 'hotpath/typebox'
import hotpath from 'hotpath'
import Type from 'typebox'
import type { Static } from 'typebox'
import { expectTypeOf } from '../../helpers.js'

const app = hotpath()
const Empty = Type.Object({})

app.post('/any/:id', { schema: { body: Type.Any(), params: Type.Unknown(), querystring: Type.Any() } }, (req) => {
  expectTypeOf(req.body).toBe<unknown>()
  expectTypeOf(req.params).toBe<Record<string, string>>()
  expectTypeOf(req.query).toBe<Record<string, string | string[]>>()
})
app.post('/null', { schema: { body: Type.Null(), querystring: Empty } }, (req) => {
  expectTypeOf(req.body).toBe<null>()
  expectTypeOf(req.query).toBe<Static<typeof Empty>>()
})
app.post('/union', { schema: { body: Type.Union([Type.String(), Type.Number()]), headers: Type.Object({ 'x-a': Type.Optional(Type.Literal('a')) }) } }, (req) => {
  expectTypeOf(req.body).toBe<string | number>()
  expectTypeOf(req.headers['x-a']).toBe<'a' | undefined>()
})
app.get('/reply-any', { schema: { response: { 200: Type.Any(), 404: Type.Object({ message: Type.String() }) } } }, (_req, reply) => {
  // @ts-expect-error the route declares no 418
  reply.code(418)
  // @ts-expect-error 404's body is { message }
  reply.code(404).send({ error: 'x' })
  return Symbol('anything')
})
app.get('/reply-null', { schema: { response: { 204: Type.Null() } } }, (_req, reply) => {
  reply.code(204).send(null)
  // @ts-expect-error 204's body is null
  reply.code(204).send({})
})
