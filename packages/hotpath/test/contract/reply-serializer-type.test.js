// reply.serializer() under hotpath/fastify: what the serializer returns goes
// out with the type the app set, as Fastify sends it (no charset added to a
// JSON type, which a payload JSON.stringify made gets); compared with
// Fastify's answers through inject().
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} app */
function build (app) {
  const own = () => 'own'
  app.get('/json-object', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('application/json').serializer(own).send({ a: 1 }) })
  app.get('/json-string', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('application/json').serializer(own).send('str') })
  app.get('/vendor-json', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('application/vnd.x+json').serializer(own).send({ a: 1 }) })
  app.get('/with-charset', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('application/json; charset=latin1').serializer(own).send({ a: 1 }) })
  app.get('/no-serializer', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('application/json').send({ a: 1 }) })
  app.get('/no-serializer-string', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('application/json').send('"s"') })
}

const PATHS = ['/json-object', '/json-string', '/vendor-json', '/with-charset', '/no-serializer', '/no-serializer-string']

test("reply.serializer()'s body keeps the type the app set, as on Fastify", async () => {
  const fastify = Fastify()
  build(fastify)
  const app = hotpathFastify()
  build(app)
  for (const url of PATHS) {
    const [f, h] = await Promise.all([fastify.inject(url), app.inject(url)])
    assert.equal(h.statusCode, f.statusCode, url)
    assert.equal(h.headers['content-type'], f.headers['content-type'], url)
    assert.equal(h.body, f.body, url)
  }
  await Promise.all([fastify.close(), app.close()])
})
