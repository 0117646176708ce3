import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('setReplySerializer() and reply.serializer()', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {unknown[][]} */
  const calls = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.setReplySerializer((/** @type {any} */ payload, /** @type {number} */ status) => {
        calls.push([payload, status])
        return `root:${status}:${JSON.stringify(payload)}`
      })
      app.get('/', (req, reply) => reply.code(201).send({ a: 1 }))
      app.get('/schema', { schema: { response: { 200: { type: 'object', properties: { kept: { type: 'string' } } } } } }, () => ({ kept: 'k', dropped: 'd' }))
      app.get('/own', (req, reply) => reply.serializer((/** @type {any} */ p) => `own:${p.a}`).send({ a: 2 }))
      app.get('/own-string', (req, reply) => reply.type('text/x-custom').serializer((/** @type {any} */ p) => `own:${p}`).send('str'))
      app.get('/plain-string', () => 'untouched')
      app.get('/error', () => { throw new Error('boom') })
      app.register(async (child) => {
        child.setReplySerializer(() => 'child')
        child.get('/child', () => ({ b: 1 }))
      })
    })
  })
  after(() => s.close())

  test("the context's serializer gets the payload and status, in place of the schema's", async () => {
    calls.length = 0
    const res = await s.request('/')
    assert.equal(res.statusCode, 201)
    assert.equal(res.body, 'root:201:{"a":1}')
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal((await s.request('/schema')).body, 'root:200:{"kept":"k","dropped":"d"}')
    assert.deepEqual(calls, [[{ a: 1 }, 201], [{ kept: 'k', dropped: 'd' }, 200]])
  })

  test("a child plugin's own serializer wins in its routes", async () => {
    assert.equal((await s.request('/child')).body, 'child')
  })

  test("reply.serializer() wins over the context's, and serializes a string sent with a type", async () => {
    assert.equal((await s.request('/own')).body, 'own:2')
    const res = await s.request('/own-string')
    assert.equal(res.body, 'own:str')
    assert.equal(res.headers['content-type'], 'text/x-custom')
    assert.equal((await s.request('/plain-string')).body, 'untouched')
  })

  test('errors and the built-in 404 are answered without it', async () => {
    calls.length = 0
    assert.equal((await s.request('/error')).statusCode, 500)
    assert.equal((await s.request('/nowhere')).statusCode, 404)
    assert.deepEqual(calls, [])
  })
})

test('setReplySerializer() after ready() is refused', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  const app = hotpath()
  await app.ready()
  assert.throws(() => app.setReplySerializer(() => ''), { code: 'HP_ERR_HOOK_AFTER_READY' })
  assert.throws(() => hotpath().setReplySerializer(/** @type {any} */ ('x')), { code: 'HP_ERR_INVALID_OPTION' })
})
