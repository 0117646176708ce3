import { test } from 'node:test'
import assert from 'node:assert/strict'
import { build } from '../app.js'

test('GET / answers hello', async () => {
  const app = build()
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { hello: 'world' })
  assert.equal(res.headers['x-served-by'], 'check-example')
})

test('items', async (t) => {
  const app = build()
  t.after(() => app.close())
  await t.test('an existing item', async () => {
    const res = await app.inject('/items/1')
    assert.deepEqual(res.json(), { id: 1, name: 'first' })
  })
  await t.test('a missing item is 404', async () => {
    const res = await app.inject('/items/9')
    assert.equal(res.statusCode, 404)
  })
  await t.test('a bad id is 400', async () => {
    const res = await app.inject('/items/abc')
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().code, 'FST_ERR_VALIDATION')
  })
  await t.test('a new item is 201', async () => {
    const res = await app.inject({ method: 'POST', url: '/items', payload: { name: 'second' } })
    assert.equal(res.statusCode, 201)
    assert.deepEqual(res.json(), { id: 2, name: 'second' })
  })
  await t.test('a body the schema refuses is 400', async () => {
    const res = await app.inject({ method: 'POST', url: '/items', payload: { name: '' } })
    assert.equal(res.statusCode, 400)
    assert.match(res.json().message, /body\/name must NOT have fewer than 1 characters/)
  })
})

test('over a socket', async () => {
  const app = build()
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const res = await fetch(`${address}/health`)
    assert.equal(res.status, 200)
    assert.deepEqual(await res.json(), { status: 'ok' })
  } finally {
    await app.close()
  }
})
