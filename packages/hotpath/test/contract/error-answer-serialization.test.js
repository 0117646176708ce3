// How the default error handler's answer is serialized. Under errorFormat
// 'fastify', as Fastify's: preSerialization hooks do not run for it, the
// route's response schema for the status is applied to the error itself,
// and a schema that cannot encode it answers a 500 naming both failures; a
// serializer that returns what is not a body answers that it did so.
// hotpath's own entry runs the answer through the hooks like any JSON
// payload, and a failure there is the fixed 500.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

/** @param {any} app */
function routes (app) {
  app.register(async (child) => {
    child.addHook('preSerialization', async () => { throw new Error('preSerialization refuses') })
    child.get('/hooked', () => ({ ok: true }))
  })
  const withSchema = {
    schema: {
      response: {
        500: { type: 'object', properties: { message: { type: 'string' }, detail: { type: 'string' } }, required: ['detail'] }
      }
    }
  }
  app.get('/schema', withSchema, () => { throw Object.assign(new Error('with detail'), { detail: 'disk full' }) })
  app.get('/schema-fails', withSchema, () => { throw new Error('no detail') })
  app.get('/not-a-body', {
    schema: { response: { 503: { type: 'object' } } },
    serializerCompiler: () => () => ({ not: 'a string' })
  }, () => { throw Object.assign(new Error('down'), { statusCode: 503 }) })
}

test('errorFormat \'fastify\': the error answer skips preSerialization and takes the response schema for its status', async () => {
  const app = fastify()
  routes(app)
  const hooked = await app.inject('/hooked')
  assert.equal(hooked.statusCode, 500)
  assert.deepEqual(hooked.json(), { statusCode: 500, error: 'Internal Server Error', message: 'preSerialization refuses' })
  const schema = await app.inject('/schema')
  assert.equal(schema.statusCode, 500)
  assert.deepEqual(schema.json(), { message: 'with detail', detail: 'disk full' })
  const fails = await app.inject('/schema-fails')
  assert.equal(fails.statusCode, 500)
  assert.deepEqual(fails.json(), {
    statusCode: 500,
    code: 'FST_ERR_FAILED_ERROR_SERIALIZATION',
    message: 'Failed to serialize an error. Error: "detail" is required!. Original error: no detail'
  })
  const notABody = await app.inject('/not-a-body')
  assert.equal(notABody.statusCode, 503)
  assert.deepEqual(notABody.json(), { statusCode: 503, code: 'FST_ERR_REP_INVALID_PAYLOAD_TYPE', message: "Attempted to send payload of invalid type 'object'. Expected a string or Buffer." })
})

test('hotpath\'s own entry: the error answer is a JSON payload like any other; a failure there is the fixed 500', async () => {
  const app = hotpath()
  routes(app)
  const fixed = { statusCode: 500, code: 'HP_ERR_INTERNAL', error: 'Internal Server Error', message: 'Internal Server Error' }
  assert.deepEqual((await app.inject('/hooked')).json(), fixed)
  assert.deepEqual((await app.inject('/schema-fails')).json(), fixed)
})
