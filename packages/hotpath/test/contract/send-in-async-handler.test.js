// An async handler that sends before it returns, with an async onSend hook
// on the route: the send waits on the hook while the handler's promise
// settles, and the answer still goes out, as on Fastify (the same routes
// beside Fastify's, through inject() and over a socket, then on every engine).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'
import { MODES, setup } from '../helpers/engines.js'

/** @param {any} app */
function build (app) {
  app.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => payload)
  // resolves to the reply (a thenable) that send() returned
  app.get('/returns-send', async (/** @type {any} */ req, /** @type {any} */ reply) => reply.send({ route: 1 }))
  app.get('/returns-reply', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.send({ route: 2 })
    return reply
  })
  app.get('/then-awaits', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.send({ route: 3 })
    await new Promise((resolve) => setTimeout(resolve, 5))
  })
}

const PATHS = ['/returns-send', '/returns-reply', '/then-awaits']

test('the answers are Fastify\'s (inject, and over a socket on wire and node)', async () => {
  for (const { what, fastify, hotpath } of await besideFastify(build, PATHS)) {
    assert.equal(hotpath.statusCode, 200, what)
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.equal(hotpath.body, fastify.body, what)
  }
})

for (const mode of MODES) {
  test(`every route answers [${mode}]`, async () => {
    const s = await setup(mode, build, { errorFormat: 'fastify' })
    try {
      for (const [i, url] of PATHS.entries()) {
        const res = await s.request(url)
        assert.equal(res.statusCode, 200, url)
        assert.deepEqual(res.json(), { route: i + 1 }, url)
      }
    } finally {
      await s.close()
    }
  })
}
