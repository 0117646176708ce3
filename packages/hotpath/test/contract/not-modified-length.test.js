// A 304 answered with a payload (an onSend hook that turns the answer into
// a 304, as @fastify/etag's does, or reply.code(304).send(x)): under
// replyFormat 'fastify' its head says the payload's length, as Fastify's
// does, and carries no body; compared with Fastify's through inject() and over a socket, then on
// every engine, where the connection goes on after it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'
import { MODES, setup } from '../helpers/engines.js'

/** @param {any} app */
function build (app) {
  app.get('/empty-string', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(304).send('') })
  app.get('/string', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(304).send('abc') })
  app.get('/nothing', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(304).send() })
  app.get('/object', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(304).send({ a: 1 }) })
  app.get('/ok', () => 'ok')
  app.register(async (/** @type {any} */ child) => {
    child.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply) => {
      reply.code(304)
      return ''
    })
    child.get('/on-send', () => ({ a: 1 }))
  })
}

const PATHS = ['/empty-string', '/string', '/nothing', '/object', '/on-send']

test("a 304's Content-Length is Fastify's (inject, and over a socket on wire and node)", async () => {
  for (const { what, fastify, hotpath } of await besideFastify(build, PATHS)) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.equal(hotpath.headers['content-length'], fastify.headers['content-length'], what)
    assert.equal(hotpath.body, '', what)
  }
})

for (const mode of MODES) {
  test(`a 304 with a length and no body, then the next answer [${mode}]`, async () => {
    const s = await setup(mode, build, { replyFormat: 'fastify' })
    try {
      for (const url of PATHS) {
        const res = await s.request(url)
        assert.equal(res.statusCode, 304, url)
        assert.equal(res.body, '', url)
        const next = await s.request('/ok')
        assert.equal(next.body, 'ok', url)
      }
      assert.equal((await s.request('/on-send')).headers['content-length'], '0')
    } finally {
      await s.close()
    }
  })
}
