// The application: a few routes, a schema, a hook, as a Fastify service has.
import Fastify from 'fastify'

export function build (options = {}) {
  const app = Fastify(options)
  const items = new Map([[1, { id: 1, name: 'first' }]])

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-served-by', 'check-example')
    return payload
  })

  app.get('/', async () => ({ hello: 'world' }))
  app.get('/health', async () => ({ status: 'ok' }))

  app.get('/items/:id', {
    schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } }
  }, async (request, reply) => {
    const item = items.get(request.params.id)
    if (item === undefined) return reply.code(404).send({ error: 'no such item' })
    return item
  })

  app.post('/items', {
    schema: {
      body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } }, additionalProperties: false },
      response: { 201: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } }
    }
  }, async (request, reply) => {
    const item = { id: items.size + 1, name: request.body.name }
    items.set(item.id, item)
    return reply.code(201).send(item)
  })

  // which framework answers: read by the test that starts server.js in a
  // child process, to see that the child runs on what its parent runs on
  app.get('/framework', async () => ({ framework: '_core' in app ? 'hotpath' : 'fastify' }))
  return app
}
