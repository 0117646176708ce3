// Replies typed per status by the route's response schemas: the handler's
// value against the 2xx ones, reply.code(N).send(x) against N's, and a code
// the route declares nothing for is an error. Sync, async and reply.send().
import 'hotpath/typebox'
import hotpath from 'hotpath'
import Type from 'typebox'

const app = hotpath()
const Note = Type.Object({ id: Type.Integer(), title: Type.String() })
const Created = Type.Object({ id: Type.Integer() })
const Problem = Type.Object({ message: Type.String() })
const response = { 200: Note, 201: Created, 404: Problem }

app.get('/notes/:id', { schema: { params: Type.Object({ id: Type.Integer() }), response } }, (req, reply) => {
  if (req.params.id === 0) return reply.code(404).send({ message: 'no such note' })
  return { id: req.params.id, title: 'hello' }
})
app.post('/notes', { schema: { body: Note, response } }, async (req, reply) => {
  reply.code(201).send({ id: req.body.id })
  return reply
})
app.get('/async/:id', { schema: { response } }, async () => ({ id: 1, title: 't' }))
app.get('/send', { schema: { response } }, (_req, reply) => { reply.send({ id: 1, title: 't' }) })

// wrong programs name the field
app.get('/w1', { schema: { response } }, (_req, reply) => {
  // @ts-expect-error 404's body is { message }, not a note
  return reply.code(404).send({ id: 1, title: 't' })
})
app.get('/w2', { schema: { response } }, (_req, reply) => {
  // @ts-expect-error the route declares no 418
  return reply.code(418).send({ message: 'teapot' })
})
// @ts-expect-error the handler's value is one of the 2xx replies; { message } is 404's
app.get('/w3', { schema: { response } }, () => ({ message: 'not found' }))
app.get('/w4', { schema: { response } }, async (_req, reply) => {
  // @ts-expect-error a 201 body has an integer id
  reply.code(201).send({ id: 'one' })
})

// a class key and 'default' cover the codes of their class, or every other code
app.get('/classes', { schema: { response: { 200: Note, '4xx': Problem, default: Type.Object({ error: Type.String() }) } } }, (_req, reply) => {
  reply.code(409).send({ message: 'conflict' })
  reply.code(503).send({ error: 'later' })
  // @ts-expect-error 4xx's body is { message }
  reply.code(400).send({ error: 'x' })
})

// a route without response schemas sends anything, with any code
app.get('/free', (_req, reply) => reply.code(418).send('teapot'))

// only an error reply declared: the handler sends it, and a value of its own is refused
app.get('/only-404', { schema: { response: { 404: Problem } } }, (_req, reply) => reply.code(404).send({ message: 'gone' }))
// @ts-expect-error the route declares no 2xx reply for a value to be
app.get('/only-404-value', { schema: { response: { 404: Problem } } }, () => ({ message: 'gone' }))

// a thenable that is not a Promise is awaited as one: its value is checked as the handler's
declare function later<T> (value: T): PromiseLike<T>
app.get('/thenable', { schema: { response } }, () => later({ id: 1, title: 't' }))
// @ts-expect-error a thenable of 404's body is not one of the 2xx replies
app.get('/thenable-wrong', { schema: { response } }, () => later({ message: 'not found' }))
app.get('/promise', { schema: { response } }, () => Promise.resolve({ id: 1 }))
