// Fastify's default request ids number every request the app routes, in
// the order they come, whether or not anything reads the id: the third
// request is req-3 even when the first two (a route, a 404) never looked at
// theirs. Compared with Fastify through inject() and over a socket on each
// HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'

/** @param {any} app */
function build (app) {
  app.get('/quiet', () => 'no id read')
  app.get('/id', (/** @type {any} */ req) => ({ id: req.id }))
  app.register(async (/** @type {any} */ child) => {
    child.get('/child-id', (/** @type {any} */ req) => ({ id: req.id }))
  }, { prefix: '/p' })
}

test('default request ids count every request, read or not, as Fastify numbers them', async () => {
  const answers = await besideFastify(build, ['/quiet', '/missing', '/id', '/quiet', '/p/child-id', '/id'])
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    if (fastify.statusCode === 200 && what.includes('id')) assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
  }
  const ids = answers.filter((a) => a.mode === 'inject' && a.what.includes('id')).map((a) => JSON.parse(a.fastify.body).id)
  assert.deepEqual(ids, ['req-3', 'req-5', 'req-6'])
})
