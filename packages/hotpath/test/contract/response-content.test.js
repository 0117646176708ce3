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
  assert.deepEqual(seen, [compile, undefined])
})
