'use strict'
const assert = require('node:assert/strict')
const { build } = require('../app')

describe('the application', function () {
  let app
  before(async function () { app = build(); await app.ready() })
  after(async function () { await app.close() })

  it('greets by name', async function () {
    const res = await app.inject('/greet/ada')
    assert.deepEqual(res.json(), { text: 'Hello, ada' })
  })

  it('answers errors through its handler', async function () {
    const res = await app.inject('/boom')
    assert.equal(res.statusCode, 418)
    assert.deepEqual(res.json(), { failed: true, message: 'teapot' })
  })

  it('knows its plugin', async function () {
    const res = await app.inject('/plugins')
    assert.deepEqual(res.json(), { greeter: true })
  })

  describe('over a socket', function () {
    it('greets', async function () {
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const res = await fetch(`${address}/greet/bob`)
      assert.equal(res.status, 200)
      assert.deepEqual(await res.json(), { text: 'Hello, bob' })
    })
  })

  it.skip('a test left for later', function () {})
})
