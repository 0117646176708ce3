// An async handler that sends before it returns, with an async onSend hook
// on the route: the send waits on the hook while the handler's promise
// settles, and the answer still goes out, as on Fastify (the same routes
// beside Fastify's inject, then on every engine).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { MODES, setup } from '../helpers/engines.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

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

test('the answers are Fastify\'s (inject)', async () => {
  const fastify = Fastify()
  build(fastify)
  const app = hotpathFastify()
  build(app)
  for (const url of PATHS) {
    const [f, h] = await Promise.all([fastify.inject(url), app.inject(url)])
    assert.equal(h.statusCode, f.statusCode, url)
    assert.equal(h.body, f.body, url)
  }
  await Promise.all([fastify.close(), app.close()])
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
