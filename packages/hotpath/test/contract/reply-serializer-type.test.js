// reply.serializer() under hotpath/fastify: what the serializer returns goes
// out with the type the app set, as Fastify sends it (no charset added to a
// JSON type, which a payload JSON.stringify made gets); compared with
// Fastify's answers through inject() and over a socket on wire and node.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'

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
  for (const { what, fastify, hotpath } of await besideFastify(build, PATHS)) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.equal(hotpath.headers['content-type'], fastify.headers['content-type'], what)
    assert.equal(hotpath.body, fastify.body, what)
  }
})
