// The type a reply goes out with is decided when it is sent, as in Fastify:
// an onSend hook reads it (reply.getHeader('content-type')) for a string
// (text/plain), bytes (application/octet-stream) and an object (JSON); a
// reply.serializer() result and a string an onSend hook makes of a stream
// go without one under hotpath/fastify, as Fastify sends them. Compared
// with Fastify through inject() and over a socket on each HTTP/1.1 engine;
// then hotpath's own entry, whose onSend hooks see the same types.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { besideFastify, assertSameAnswers } from '../helpers/beside-fastify.js'
import { MODES, setup } from '../helpers/engines.js'

/** @param {any} app */
function build (app) {
  app.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => {
    reply.header('x-seen-type', String(reply.getHeader('content-type')))
    if (req.url === '/stream-to-string') return 'made in onSend'
    return payload
  })
  app.get('/string', () => 'text')
  app.get('/buffer', () => Buffer.from('bytes'))
  app.get('/object', () => ({ a: 1 }))
  app.get('/typed', (/** @type {any} */ req, /** @type {any} */ reply) => reply.type('text/html').send('<p>'))
  app.get('/serializer', (/** @type {any} */ req, /** @type {any} */ reply) => reply.serializer(JSON.stringify).send({ a: 1 }))
  app.get('/stream-to-string', () => Readable.from(['unread']))
}

const PATHS = ['/string', '/buffer', '/object', '/typed', '/serializer', '/stream-to-string']

test('onSend hooks see the type a reply goes out with, and the reply goes out with it, as on Fastify', async () => {
  const answers = await besideFastify(build, PATHS)
  assertSameAnswers(answers, ['x-seen-type', 'content-type'])
  const seen = answers.filter((a) => a.mode === 'inject').map((a) => [a.fastify.headers['x-seen-type'], a.fastify.headers['content-type'] ?? null])
  assert.deepEqual(seen, [
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    ['application/octet-stream', 'application/octet-stream'],
    ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
    ['text/html', 'text/html'],
    ['undefined', null],
    ['undefined', null]
  ])
})

for (const mode of MODES) {
  test(`hotpath's own entry: onSend hooks see the type of a string and of bytes [${mode}]`, async () => {
    const s = await setup(mode, build)
    try {
      for (const [path, type] of [['/string', 'text/plain; charset=utf-8'], ['/buffer', 'application/octet-stream']]) {
        const res = await s.request(path)
        assert.equal(res.headers['x-seen-type'], type, path)
        assert.equal(res.headers['content-type'], type, path)
      }
    } finally {
      await s.close()
    }
  })
}
