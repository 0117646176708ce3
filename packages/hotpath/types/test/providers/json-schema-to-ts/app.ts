// Request types inferred from plain JSON Schema literals (json-schema-to-ts),
// written inline: no `as const`, no generic.
import 'hotpath/json-schema-to-ts'
import hotpath from 'hotpath'
import { expectTypeOf } from '../../helpers.js'

const app = hotpath()

app.get('/notes/:id', {
  schema: {
    params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    querystring: { type: 'object', properties: { full: { type: 'boolean' }, sort: { enum: ['asc', 'desc'] } } }
  }
}, (req) => {
  expectTypeOf(req.params.id).toBe<number>()
  expectTypeOf(req.query.full).toBe<boolean | undefined>()
  expectTypeOf(req.query.sort).toBe<'asc' | 'desc' | undefined>()
  // @ts-expect-error the id is a number
  return req.params.id.toUpperCase()
})

// a schema kept in a variable is a literal with `as const`
const noteBody = {
  type: 'object',
  properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['title'],
  additionalProperties: false
} as const
app.post('/notes', { schema: { body: noteBody } }, async (req) => {
  expectTypeOf(req.body.title).toBe<string>()
  expectTypeOf(req.body.tags).toBe<string[] | undefined>()
  // @ts-expect-error no such field
  return req.body.titel
})

// a route without schema keeps its defaults
app.get('/plain/:name', (req) => { expectTypeOf(req.params).toBe<Record<string, string>>() })

// replies per status from inline response schemas
app.get('/status/:id', {
  schema: {
    response: {
      200: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      404: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }
    }
  }
}, (req, reply) => {
  if (req.params.id === '0') return reply.code(404).send({ message: 'gone' })
  // @ts-expect-error 404's body needs a message
  if (req.params.id === '1') return reply.code(404).send({ ok: false })
  return { ok: true }
})
