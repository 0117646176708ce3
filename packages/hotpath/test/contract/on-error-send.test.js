// reply.send() in an onError hook throws FST_ERR_SEND_INSIDE_ONERR under
// hotpath/fastify, as in Fastify: the hook observes the error and the
// error handler answers it (before, the hook's send answered an empty
// 200). Compared with Fastify through inject() and over a socket on each
// HTTP/1.1 engine; hotpath's own entry still lets the hook answer.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'
import hotpath from '../../lib/index.js'

/** @param {any} app */
function build (app) {
  /** @type {string[]} */
  const caught = []
  app.addHook('onError', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ error, /** @type {any} */ done) => {
    try {
      reply.send('from the hook')
      caught.push('sent')
    } catch (err) {
      caught.push(/** @type {any} */ (err).code)
    }
    done()
  })
  app.get('/fail', () => { throw new Error('kaboom') })
  app.get('/caught', () => caught)
}

test('reply.send() in an onError hook throws FST_ERR_SEND_INSIDE_ONERR, as on Fastify', async () => {
  const answers = await besideFastify(build, ['/fail', '/caught'])
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
  }
  assert.equal(answers[0].fastify.statusCode, 500)
  assert.deepEqual(JSON.parse(answers[1].fastify.body), ['FST_ERR_SEND_INSIDE_ONERR'])
})

test("hotpath's own entry: an onError hook's send() is the answer", async () => {
  const app = hotpath()
  app.addHook('onError', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.code(503).send({ from: 'hook' }) })
  app.get('/fail', () => { throw new Error('kaboom') })
  const res = await app.inject('/fail')
  assert.deepEqual([res.statusCode, res.json()], [503, { from: 'hook' }])
  await app.close()
})
