// errorFormat 'fastify' (hotpath/fastify's default): the programming errors
// Fastify has its own codes and words for are thrown with them; hotpath's
// own entry keeps its codes.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

test("a duplicate route or decorator and a missing dependency throw Fastify's errors with errorFormat 'fastify'", () => {
  const app = fastify()
  app.get('/a', () => 'a')
  assert.throws(() => app.get('/a', () => 'again'), { code: 'FST_ERR_DUPLICATED_ROUTE', message: "Method 'GET' already declared for route '/a'" })
  app.decorate('x', 1)
  assert.throws(() => app.decorate('x', 2), { code: 'FST_ERR_DEC_ALREADY_PRESENT', message: "The decorator 'x' has already been added!" })
  app.decorateRequest('y', null)
  assert.throws(() => app.decorateRequest('y', null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorateReply('z', null, ['missing']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY', message: "The decorator is missing dependency 'missing'." })
})

test('hotpath keeps its own codes for the same mistakes', () => {
  const app = hotpath()
  app.get('/a', () => 'a')
  assert.throws(() => app.get('/a', () => 'again'), { code: 'HP_ERR_DUPLICATE_ROUTE' })
  app.decorate('x', 1)
  assert.throws(() => app.decorate('x', 2), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorateReply('z', null, ['missing']), { code: 'HP_ERR_DEC_MISSING_DEPENDENCY' })
})
