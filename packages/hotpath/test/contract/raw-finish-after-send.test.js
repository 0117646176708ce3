// reply.raw's 'finish' comes after the write, on a later tick, as
// node:http's does: code that sends the reply and then waits for it
// (`reply.send(x); await once(reply.raw, 'finish')`, @fastify/multipart's
// clean-up test does) hears it, whether reply.raw was made before the send
// or only after it (on wire a small reply is written within send()).
// A differential test: the same app on Fastify and on hotpath/fastify,
// what each route heard read back by a later request, through inject and
// over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { besideFastify } from '../helpers/beside-fastify.js'

/** @param {any} app */
function build (app) {
  /** @type {string[]} */
  const heard = []
  const wait = (/** @type {any} */ raw, /** @type {string} */ what) => Promise.race([
    once(raw, 'finish').then(() => `${what}: finish, finished=${raw.finished}, headersSent=${raw.headersSent}`),
    new Promise((resolve) => setTimeout(resolve, 1000, `${what}: no finish within 1 s`))
  ])
  app.post('/raw-after-send', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.send('ok')
    heard.push(await wait(reply.raw, 'raw after send'))
    return reply
  })
  app.post('/raw-before-send', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    const raw = reply.raw
    reply.send('ok')
    heard.push(await wait(raw, 'raw before send'))
    return reply
  })
  app.get('/heard', async () => heard.splice(0))
}

test("reply.raw's 'finish' after reply.send(): heard as on Fastify, on every engine and under inject", async () => {
  const asks = [
    { method: 'POST', url: '/raw-after-send', headers: { 'content-type': 'text/plain' }, payload: 'x' },
    { method: 'POST', url: '/raw-before-send', headers: { 'content-type': 'text/plain' }, payload: 'x' },
    // the handlers have heard (or waited out) their 'finish' by now
    { url: '/heard' }
  ]
  const answers = await besideFastify(async (app) => {
    build(app)
    app.addHook('onRequest', async (/** @type {any} */ req) => {
      if (req.url === '/heard') await new Promise((resolve) => setTimeout(resolve, 50))
    })
  }, asks)
  assert.equal(answers.length, asks.length * 3)
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.equal(hotpath.body, fastify.body, what)
  }
  // what Fastify hears, so the comparison is of something
  const heard = answers.find((a) => a.what.startsWith('GET /heard [wire]'))
  assert.deepEqual(JSON.parse(heard?.fastify.body ?? '[]'), [
    'raw after send: finish, finished=true, headersSent=true',
    'raw before send: finish, finished=true, headersSent=true'
  ])
})
