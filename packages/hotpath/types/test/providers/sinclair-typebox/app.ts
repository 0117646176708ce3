// Request types inferred from TypeBox 0.3x schemas (@sinclair/typebox), with no generic written:
// importing hotpath/sinclair-typebox once is all it takes.
import 'hotpath/sinclair-typebox'
import hotpath from 'hotpath'
import { Type } from '@sinclair/typebox'
import { expectTypeOf } from '../../helpers.js'

const app = hotpath()
const Note = Type.Object({ id: Type.Integer(), title: Type.String(), tags: Type.Optional(Type.Array(Type.String())) })
const NoteParams = Type.Object({ id: Type.Integer() })

app.get('/notes/:id', {
  schema: {
    params: NoteParams,
    querystring: Type.Object({ full: Type.Optional(Type.Boolean()) }),
    headers: Type.Object({ 'x-tenant': Type.String() })
  }
}, (req) => {
  // coerced as the validator coerces them: an integer param is a number
  expectTypeOf(req.params.id).toBe<number>()
  expectTypeOf(req.query.full).toBe<boolean | undefined>()
  expectTypeOf(req.headers['x-tenant']).toBe<string>()
  // @ts-expect-error the id is a number, so comparing it with a string is an error
  if (req.params.id === '7') return null
  return { id: req.params.id }
})

app.post('/notes', { schema: { body: Note } }, async (req) => {
  expectTypeOf(req.body.title).toBe<string>()
  expectTypeOf(req.body.tags).toBe<string[] | undefined>()
  // @ts-expect-error the body has no `titel`
  return req.body.titel
})

// route() infers as the shorthands do, and a route's own hooks get the types
app.route({
  method: 'PUT',
  url: '/notes/:id',
  schema: { params: NoteParams, body: Note },
  preHandler: (req) => { expectTypeOf(req.params.id).toBe<number>() },
  handler: (req) => { expectTypeOf(req.params.id).toBe<number>(); return req.body }
})
app.get('/hooked/:id', { schema: { params: NoteParams }, onRequest: async (req) => { expectTypeOf(req.params.id).toBe<number>() } }, () => 'ok')

// without a schema a route keeps its defaults; a generic written wins over the schema
app.get('/plain/:name', (req) => { expectTypeOf(req.params).toBe<Record<string, string>>() })
app.get('/plain2/:name', { config: { public: true } }, (req) => { expectTypeOf(req.params).toBe<Record<string, string>>() })
app.get<{ Params: { slug: string } }>('/written/:slug', { schema: { params: Type.Object({ slug: Type.String() }) } }, (req) => {
  expectTypeOf(req.params.slug).toBe<string>()
})
// ...and is checked against it: the integer schema cannot give a string param
app.get<{ Params: { id: string } }>('/written/:id', {
  // @ts-expect-error NoteParams says id is an integer
  schema: { params: NoteParams }
}, (req) => req.params.id)
app.post<{ Body: { id: number, title: string, tags?: string[] } }>('/written', { schema: { body: Note } }, (req) => req.body.title)
app.post<{ Body: { id: number, title: number } }>('/written2', {
  // @ts-expect-error Note's title is a string
  schema: { body: Note }
}, (req) => req.body.title)

// TypeBox schemas and API metadata need no cast, in routes and in addSchema
app.addSchema(Type.Object({ id: Type.Integer() }, { $id: 'NoteRef' }))
app.get('/meta', {
  schema: {
    tags: ['notes'],
    summary: 'List the notes',
    description: 'Every note, newest first',
    operationId: 'listNotes',
    deprecated: false,
    security: [{ bearer: [] }],
    response: { 200: Type.Array(Note) }
  }
}, () => [])

// @ts-expect-error a schema is an object, not a type name
app.get('/wrong', { schema: { body: 'object' } }, () => 'x')
// @ts-expect-error tags are strings
app.get('/wrong2', { schema: { tags: [1] } }, () => 'x')
