import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('schemas', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/items/:id', {
        schema: {
          params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
          querystring: { type: 'object', properties: { full: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } } },
          headers: { type: 'object', properties: { 'X-Version': { type: 'integer' } }, required: ['X-Version'] },
          response: {
            200: { type: 'object', properties: { id: { type: 'integer' }, full: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } }, version: { type: 'integer' } } },
            '4xx': { type: 'object', properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, code: { type: 'string' } } }
          }
        }
      }, (req) => ({ id: req.params.id, full: req.query.full, tags: req.query.tags, version: req.headers['x-version'], secret: 'never sent' }))
      app.post('/users', {
        schema: {
          body: {
            type: 'object',
            required: ['name', 'age'],
            properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer' }, email: { type: 'string', format: 'email' } },
            additionalProperties: false
          },
          response: { 201: { type: 'object', properties: { name: { type: 'string' } } } }
        }
      }, (req, reply) => reply.code(201).send({ ...(/** @type {any} */ (req.body)), password: 'x' }))
    })
  })
  after(() => s.close())

  test('params, query and headers are coerced; response schema drops fields', async () => {
    const res = await s.request({ url: '/items/7?full=true&tags=a', headers: { 'x-version': '2' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { id: 7, full: true, tags: ['a'], version: 2 })
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  })

  test('failed validation → 400 naming the field', async () => {
    const p = await s.request({ url: '/items/0', headers: { 'x-version': '2' } })
    assert.equal(p.statusCode, 400)
    // the 4xx response schema applies to errors too
    assert.deepEqual(p.json(), { statusCode: 400, message: 'params/id must be >= 1', code: 'HP_ERR_VALIDATION' })
    const h = await s.request({ url: '/items/3' })
    assert.equal(h.statusCode, 400)
    assert.match(h.json().message, /x-version/)
    const b = await s.request({ method: 'POST', url: '/users', payload: { name: 'ann' } })
    assert.equal(b.statusCode, 400)
    const body = b.json()
    assert.equal(body.code, 'HP_ERR_VALIDATION')
    assert.equal(body.error, 'Bad Request')
    assert.match(body.message, /^body must have required property 'age'$/)
    assert.ok(Array.isArray(body.validation) && body.validation.length > 0)
    const t = await s.request({ method: 'POST', url: '/users', payload: { name: 'ann', age: '12' } })
    assert.equal(t.statusCode, 400, 'the body is not coerced')
    assert.match(t.json().message, /body\/age must be integer/)
    const f = await s.request({ method: 'POST', url: '/users', payload: { name: 'ann', age: 1, email: 'nope' } })
    assert.match(f.json().message, /body\/email must match format "email"/)
  })

  test('valid body passes; response schema drops fields', async () => {
    const res = await s.request({ method: 'POST', url: '/users', payload: { name: 'ann', age: 3 } })
    assert.equal(res.statusCode, 201)
    assert.deepEqual(res.json(), { name: 'ann' })
  })
})

test('schemas compile at ready(): a bad schema fails ready, not a request', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  const app = hotpath()
  app.post('/x', { schema: { body: { type: 'nonsense' } } }, () => 'x')
  await assert.rejects(app.ready(), { code: 'HP_ERR_INVALID_SCHEMA' })
})
