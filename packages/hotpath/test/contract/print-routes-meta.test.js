// printRoutes({ includeMeta }) under hotpath/fastify prints what Fastify's
// prints: each route's error handler (one set with setErrorHandler() by
// the bound function's name), its log level ('' for none, a plugin's
// inherited), its request hooks in Fastify's order, and nothing of its
// config or constraints; so a route whose config differs from its
// neighbour's shares its line with it, as on Fastify. Compared with
// Fastify's own output, string for string.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} factory */
async function printed (factory) {
  const app = factory({ logger: { level: 'info', stream: { write () {} } } })
  app.addHook('onSend', async function sendHook () {})
  app.addHook('onTimeout', async function timeoutHook () {})
  app.get('/users/:id', { config: { a: 1 }, logLevel: 'warn', onRequest: function own () {} }, () => 'x')
  app.put('/users/:id', { errorHandler: function routeOwn () {} }, () => 'x')
  app.get('/v', { constraints: { version: '1.0.0' } }, () => 'x')
  app.register(async (/** @type {any} */ s) => {
    s.setErrorHandler(function mine () {})
    s.addHook('preHandler', function guard (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ done) { done() })
    s.get('/in', () => 'x')
  }, { prefix: '/pre', logLevel: 'debug' })
  await app.ready()
  const out = [
    app.printRoutes({ includeMeta: true }),
    app.printRoutes({ includeMeta: ['config', 'logLevel', 'constraints'] }),
    app.printRoutes({ includeMeta: true, commonPrefix: false }),
    app.printRoutes({ includeHooks: true, method: 'PUT' })
  ]
  await app.close()
  return out
}

test('printRoutes with includeMeta prints what Fastify prints', async () => {
  const fastify = await printed(Fastify)
  const hotpath = await printed(hotpathFastify)
  for (let i = 0; i < fastify.length; i++) assert.equal(hotpath[i], fastify[i], `call ${i}`)
  assert.match(fastify[0], /• \(errorHandler\) "bound mine\(\)"\n\s+• \(logLevel\) "debug"\n\s+• \(onTimeout\) \["timeoutHook\(\)"\]/)
  assert.doesNotMatch(fastify[1], /config/)
})
