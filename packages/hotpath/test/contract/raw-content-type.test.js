// A Content-Type set on node's object (reply.raw.setHeader(), or a
// middleware's res.setHeader()) is the reply's type when the reply is
// sent, as Fastify's send() reads it through reply.getHeader(): a string
// goes out with it, not as text/plain; a JSON type without a charset gets
// one; a type that is not JSON takes no JSON under hotpath/fastify.
// Compared with Fastify through inject() and over a socket on each
// HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify, assertSameAnswers } from '../helpers/beside-fastify.js'

/** @param {any} app */
function build (app) {
  app.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => {
    reply.header('x-seen-type', String(reply.getHeader('content-type')))
    return payload
  })
  app.get('/html', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.setHeader('content-type', 'text/html')
    reply.send('<b>x</b>')
  })
  app.get('/json-type', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.setHeader('Content-Type', 'application/vnd.api+json')
    reply.send({ a: 1 })
  })
  app.get('/bytes', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.setHeader('content-type', 'image/png')
    reply.send(Buffer.from('png'))
  })
  app.get('/reply-wins', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.setHeader('content-type', 'text/html')
    reply.type('text/csv').send('a,b')
  })
  app.get('/removed', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.setHeader('content-type', 'text/html')
    reply.raw.removeHeader('content-type')
    reply.send('plain')
  })
}

const PATHS = ['/html', '/json-type', '/bytes', '/reply-wins', '/removed']

test('a Content-Type set on reply.raw is the type the reply is sent with, as on Fastify', async () => {
  const answers = await besideFastify(build, PATHS)
  assertSameAnswers(answers, ['x-seen-type', 'content-type'])
  const types = answers.filter((a) => a.mode === 'inject').map((a) => a.fastify.headers['content-type'])
  assert.deepEqual(types, ['text/html', 'application/vnd.api+json; charset=utf-8', 'image/png', 'text/csv', 'text/plain; charset=utf-8'])
})
