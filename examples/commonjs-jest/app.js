'use strict'
// A CommonJS application on hotpath/fastify, written as for Fastify: the
// factory from require(), a plugin, a hook, routes with schemas.
const fastify = require('hotpath/fastify')

/**
 * A plugin: its own decorator and routes, registered under a prefix.
 * @param {import('hotpath/fastify').FastifyInstance} app
 * @param {{ greeting: string }} opts
 */
async function greetings (app, opts) {
  app.decorate('greeting', opts.greeting)
  app.get('/hello/:name', {
    schema: {
      params: { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] }
    }
  }, async (req) => ({ message: `${app.greeting}, ${req.params.name}!` }))
}

/** @param {Record<string, any>} [options]  fastify()'s options */
function build (options = {}) {
  const app = fastify(options)

  // every answer says how many requests the app has seen
  let seen = 0
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-count', String(++seen))
  })

  app.register(greetings, { prefix: '/api', greeting: 'Hello' })

  app.post('/sum', {
    schema: {
      body: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b']
      },
      response: {
        200: { type: 'object', properties: { sum: { type: 'integer' } } }
      }
    }
  }, async (req) => ({ sum: req.body.a + req.body.b, ignored: 'not in the schema' }))

  return app
}

module.exports = { build }
