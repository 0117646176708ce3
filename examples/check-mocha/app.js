'use strict'
// A CommonJS Fastify application with a plugin of its own (fastify-plugin),
// a decorator and an error handler.
const Fastify = require('fastify')
const fp = require('fastify-plugin')

const greeter = fp(async function greeter (app, options) {
  app.decorate('greet', (name) => `${options.greeting}, ${name}`)
}, { name: 'greeter' })

function build () {
  const app = Fastify()
  app.register(greeter, { greeting: 'Hello' })
  app.setErrorHandler((err, request, reply) => {
    reply.code(err.statusCode ?? 500).send({ failed: true, message: err.message })
  })
  app.get('/greet/:name', async (request) => ({ text: app.greet(request.params.name) }))
  app.get('/boom', async () => {
    const err = new Error('teapot')
    err.statusCode = 418
    throw err
  })
  app.get('/plugins', async () => ({ greeter: app.hasPlugin('greeter') }))
  return app
}

module.exports = { build }
