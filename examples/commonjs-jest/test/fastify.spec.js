'use strict'
// A spec written for Fastify: it requires `fastify` itself. Run as it is,
// that is Fastify; run by `hotpath check`, Jest's resolver gives it
// hotpath/fastify's CommonJS build.
const { test, expect } = require('@jest/globals')
const Fastify = require('fastify')

test('an app made with require("fastify") declares its routes', async () => {
  const app = Fastify()
  app.get('/items/:id', async (request) => ({ id: request.params.id }))
  await app.ready()
  expect(app.hasRoute({ method: 'GET', url: '/items/:id' })).toBe(true)
  expect('_core' in app).toBe(Boolean(process.env.HOTPATH_ENGINE))
  await app.close()
})
