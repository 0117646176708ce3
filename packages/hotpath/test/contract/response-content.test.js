import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

const onlyName = { type: 'object', properties: { name: { type: 'string' } } }
const onlyId = { type: 'object', properties: { id: { type: 'number' } } }

eachMode('response schemas given per content type', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', {
        schema: {
          response: {
            200: { content: { 'application/json': { schema: onlyName }, 'application/vnd.ids+json': { schema: onlyId } } },
            '4xx': { content: { '*/*': { schema: onlyId } } }
          }
        }
      }, (req, reply) => {
        const type = /** @type {string | undefined} */ (req.query.type)
        if (type !== undefined) reply.type(type)
        if (req.query.fail) reply.code(404)
        return { id: 7, name: 'n', extra: true }
      })
    })
  })
  after(() => s.close())

  test('the reply\'s media type picks the schema, parameters and spacing aside', async () => {
    assert.deepEqual((await s.request('/')).json(), { name: 'n' })
    assert.deepEqual((await s.request('/?type=' + encodeURIComponent('application/vnd.ids+json ; charset=utf-8'))).json(), { id: 7 })
    assert.deepEqual((await s.request('/?type=' + encodeURIComponent('Application/JSON;charset=utf-8'))).json(), { name: 'n' })
  })

  test('no schema for the type: the one for every type, else JSON as it is', async () => {
    assert.deepEqual((await s.request('/?type=application/other%2Bjson')).json(), { id: 7, name: 'n', extra: true })
    assert.deepEqual((await s.request('/?fail=1&type=application/other%2Bjson')).json(), { id: 7 })
  })
})

test('a content type without its schema is refused at ready()', async () => {
  const app = hotpath()
  app.get('/', { schema: { response: { 200: { content: { 'application/json': { example: {} } } } } } }, () => ({}))
  await assert.rejects(app.ready(), { code: 'HP_ERR_SCHEMA_CONTENT_MISSING' })
})

test("a plugin sees its parent's compilers as serializerCompiler and validatorCompiler", async () => {
  const app = hotpath()
  const compile = () => () => '{}'
  app.setSerializerCompiler(compile)
  /** @type {unknown[]} */
  const seen = []
  app.register(async (child) => { seen.push(child.serializerCompiler, child.validatorCompiler) })
  await app.ready()
  // hotpath's own validator compiler is built at ready(): none yet while plugins load
  assert.deepEqual(seen, [compile, undefined])
})

eachMode('reply.compileSerializationSchema(), getSerializationFunction(), serializeInput()', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const adhoc = { type: 'object', properties: { kept: { type: 'string' } } }
  /** @type {unknown[]} */
  const compiled = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', {
        schema: {
          response: {
            201: onlyName,
            '3xx': { content: { 'application/json': { schema: onlyId } } }
          }
        }
      }, (req, reply) => {
        const fn = reply.compileSerializationSchema(adhoc)
        compiled.push(fn)
        return {
          adhoc: fn({ kept: 'k', dropped: 'd' }),
          same: reply.getSerializationFunction(adhoc) === fn,
          byStatus: reply.serializeInput({ name: 'n', id: 1 }, 201),
          byType: reply.serializeInput({ name: 'n', id: 1 }, '3xx', 'application/json'),
          bySchema: reply.serializeInput({ kept: 'x', other: 1 }, adhoc),
          none: reply.getSerializationFunction(404) === undefined
        }
      })
      app.get('/missing', (req, reply) => reply.serializeInput({}, 201))
    }, { exposeErrorMessages: true })
  })
  after(() => s.close())

  test('serialize with the route\'s serializers or one compiled once per route', async () => {
    assert.deepEqual((await s.request('/')).json(), {
      adhoc: '{"kept":"k"}', same: true, byStatus: '{"name":"n"}', byType: '{"id":1}', bySchema: '{"kept":"x"}', none: true
    })
    await s.request('/')
    assert.equal(compiled.length, 2)
    assert.equal(compiled[0], compiled[1])
  })

  test('a status without a serializer throws HP_ERR_MISSING_SERIALIZATION_FN', async () => {
    const res = await s.request('/missing')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'HP_ERR_MISSING_SERIALIZATION_FN')
  })
})
