// Route schemas are made plain once, in place, before they are compiled, as
// Fastify does: `query` is `querystring`'s other name, and schemas written
// with a builder (fluent-json-schema's objects, told by their marks) become
// the JSON Schema they stand for, on the route and in addSchema. What an
// onRoute hook kept (an API description) reads the plain schema afterwards.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

/** A stand-in for a builder object: methods, a mark, and valueOf() giving the schema. */
function built (/** @type {object} */ schema, mark = 'isFluentSchema') {
  return { [mark]: true, prop () { return this }, valueOf: () => schema }
}
const fluentMark = Symbol.for('fluent-schema-object')

eachMode('route schemas made plain', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} what an onRoute hook kept */
  const kept = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.addHook('onRoute', (/** @type {any} */ r) => { if (r.schema !== undefined && r.method === 'POST') kept.push(r.schema) })
      app.addSchema(built({ $id: 'Item', type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } }, 'isFluentJSONSchema'))
      app.post('/items', {
        schema: {
          query: { type: 'object', properties: { dry: { type: 'boolean' } } },
          body: built({ $ref: 'Item#' }),
          response: { 201: { ...built({ type: 'object', properties: { sku: { type: 'string' }, dry: { type: 'boolean' } } }), [fluentMark]: true } }
        }
      }, (req, reply) => reply.code(201).send({ sku: req.body.sku, dry: req.query.dry, secret: 'not in the schema' }))
    })
  })
  after(() => s.close())

  test('the builder schemas validate and serialize; `query` validates and coerces the query string', async () => {
    const ok = await s.request({ method: 'POST', url: '/items?dry=true', payload: { sku: 'A-1' } })
    assert.equal(ok.statusCode, 201)
    assert.deepEqual(ok.json(), { sku: 'A-1', dry: true })
    const bad = await s.request({ method: 'POST', url: '/items', payload: { name: 'no sku' } })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().code, 'HP_ERR_VALIDATION')
    const badQuery = await s.request({ method: 'POST', url: '/items?dry=perhaps', payload: { sku: 'A-1' } })
    assert.equal(badQuery.statusCode, 400)
  })

  test('what the onRoute hook kept is the plain schema, querystring included', () => {
    const schema = kept.at(-1)
    assert.deepEqual(schema.querystring, { type: 'object', properties: { dry: { type: 'boolean' } } })
    assert.equal(schema.querystring, schema.query)
    assert.deepEqual(schema.body, { $ref: 'Item#' })
    assert.deepEqual(schema.response[201], { type: 'object', properties: { sku: { type: 'string' }, dry: { type: 'boolean' } } })
  })
})

test('both querystring and query on a route is refused at ready()', async () => {
  const app = hotpath()
  app.get('/', { schema: { query: { type: 'object' }, querystring: { type: 'object' } } }, () => 'x')
  await assert.rejects(app.ready(), { code: 'HP_ERR_SCHEMA_DUPLICATE', message: /Both querystring and query/ })
})
