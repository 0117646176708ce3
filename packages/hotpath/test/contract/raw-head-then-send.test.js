// A head the app wrote itself through reply.raw.writeHead(), then a
// payload sent through the reply: the head stands (its status and
// fields), as node:http sends it and Fastify pipes a stream into it, and
// the payload is its body. The node engine hung there (its own writeHead
// refused, the error answer refused again); wire and inject dropped the
// head's fields. Streams compared with Fastify through inject() and over
// a socket on each HTTP/1.1 engine; a string (Fastify's answer fails with
// ERR_HTTP_HEADERS_SENT) on hotpath alone, on every engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { besideFastify } from '../helpers/beside-fastify.js'
import { MODES, setup } from '../helpers/engines.js'

/** @param {any} app */
function build (app) {
  app.get('/web', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/plain', 'x-head': 'app' })
    reply.send(new ReadableStream({ start (c) { c.enqueue('hello'); c.close() } }))
  })
  app.get('/node-stream', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/csv' })
    reply.send(Readable.from(['a,', 'b']))
  })
}

test('a head written through reply.raw, then a stream sent: the stream is its body, as on Fastify', async () => {
  const answers = await besideFastify(build, ['/web', '/node-stream'])
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.equal(hotpath.headers['content-type'], fastify.headers['content-type'], what)
    assert.equal(hotpath.headers['x-head'], fastify.headers['x-head'], what)
    assert.equal(hotpath.body, fastify.body, what)
  }
  assert.deepEqual(answers.slice(0, 2).map((a) => [a.fastify.headers['content-type'], a.fastify.body]), [['text/plain', 'hello'], ['text/csv', 'a,b']])
})

for (const mode of MODES) {
  test(`a head written through reply.raw, then a string sent: the head stands, the string is its body [${mode}]`, async () => {
    const s = await setup(mode, (/** @type {any} */ app) => {
      app.get('/', (/** @type {any} */ req, /** @type {any} */ reply) => {
        reply.header('x-reply', 'lost')
        reply.raw.writeHead(201, { 'content-type': 'text/plain', 'x-head': 'app' })
        reply.send('hello')
      })
    })
    try {
      const res = await s.request('/')
      assert.equal(res.statusCode, 201)
      assert.equal(res.headers['content-type'], 'text/plain')
      assert.equal(res.headers['x-head'], 'app')
      assert.equal(res.headers['x-reply'], undefined)
      assert.equal(res.body, 'hello')
    } finally {
      await s.close()
    }
  })
}
