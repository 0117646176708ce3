// hotpath/fastify: the same app, with Fastify 5's defaults where hotpath's
// own differ.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fastify from 'hotpath/fastify'
import hotpath from 'hotpath'

test('hotpath/fastify closes idle connections at once; hotpath keeps a just-used one 500 ms', () => {
  assert.equal(fastify().initialConfig.forceCloseConnections, 'idle')
  assert.equal(hotpath().initialConfig.forceCloseConnections, false)
})

test('options given to hotpath/fastify win over its defaults', () => {
  assert.equal(fastify({ forceCloseConnections: false }).initialConfig.forceCloseConnections, false)
})

test('hotpath/fastify makes the same app as hotpath', async () => {
  const app = fastify()
  app.get('/', async () => ({ hello: 'world' }))
  const res = await app.inject('/')
  assert.deepEqual(res.json(), { hello: 'world' })
  assert.equal(Object.getPrototypeOf(app), Object.getPrototypeOf(hotpath()))
})
