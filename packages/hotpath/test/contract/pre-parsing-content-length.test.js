// A body read after preParsing hooks is held against the request's
// Content-Length, as Fastify's reader holds it: a hook that hands back the
// body as it came, or a new stream that counts the client's bytes in
// `receivedEncodedLength` (a decompressor's), passes; a new stream without
// that count whose length differs is a 400 FST_ERR_CTP_INVALID_CONTENT_LENGTH
// and the connection closes. Compared with Fastify through inject() (where a
// request may declare a length its payload does not have) and over a
// socket on each HTTP/1.1 engine. Without errorFormat 'fastify', a new
// stream that does not count the client's bytes is not held (a
// decompressor made without the count still works); the rest holds.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { besideFastify } from '../helpers/beside-fastify.js'
import { MODES, setup } from '../helpers/engines.js'

const NEW_STREAM = '{"new":12345}'

/** @param {any} app */
function build (app) {
  app.register(async (/** @type {any} */ scope) => {
    scope.addHook('preParsing', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload, /** @type {any} */ done) => done(null, payload))
    scope.post('/as-it-came', (/** @type {any} */ req) => ({ body: req.body }))
  })
  app.register(async (/** @type {any} */ scope) => {
    scope.addHook('preParsing', async () => Readable.from([Buffer.from(NEW_STREAM)]))
    scope.post('/new-stream', (/** @type {any} */ req) => ({ body: req.body }))
  })
  app.register(async (/** @type {any} */ scope) => {
    scope.addHook('preParsing', async (/** @type {any} */ req) => {
      const stream = /** @type {any} */ (Readable.from([Buffer.from('{"counted":1}')]))
      stream.receivedEncodedLength = Number(req.headers['content-length'])
      return stream
    })
    scope.post('/counted', (/** @type {any} */ req) => ({ body: req.body }))
  })
}

const JSON_BODY = JSON.stringify({ hello: 'world' }) // 17 bytes
/** @param {string} url @param {Record<string, string>} [headers] @param {string} [payload] */
const post = (url, headers = {}, payload = JSON_BODY) => ({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload })

/** @param {Awaited<ReturnType<typeof besideFastify>>} answers */
function assertSame (answers) {
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
    assert.equal(hotpath.headers.connection, fastify.headers.connection, what)
  }
}

test('the length after preParsing hooks, over a socket and through inject, as on Fastify', async () => {
  const answers = await besideFastify(build, [
    post('/as-it-came'),
    post('/new-stream'),
    // (a payload as long as the new stream: its length is the client's)
    post('/new-stream', {}, 'x'.repeat(NEW_STREAM.length)),
    post('/counted')
  ])
  assertSame(answers)
  const statuses = answers.filter((a) => a.mode === 'wire').map((a) => a.fastify.statusCode)
  assert.deepEqual(statuses, [200, 400, 200, 200])
})

test('inject: a Content-Length its payload does not have, after a preParsing hook, as on Fastify', async () => {
  const answers = await besideFastify(build, [
    post('/as-it-came', { 'content-length': '100' }),
    post('/as-it-came', { 'content-length': '17' }),
    post('/new-stream', { 'content-length': String(NEW_STREAM.length) }),
    post('/counted', { 'content-length': '3' })
  ], { modes: ['inject'] })
  assertSame(answers)
  assert.deepEqual(answers.map((a) => a.fastify.statusCode), [400, 200, 200, 200])
})

for (const mode of MODES) {
  test(`without errorFormat 'fastify': a new stream is held by the count it gives, the body as it came by its bytes [${mode}]`, async () => {
    const s = await setup(mode, build)
    try {
      const uncounted = await s.request(post('/new-stream'))
      assert.equal(uncounted.statusCode, 200)
      assert.deepEqual(uncounted.json(), { body: { new: 12345 } })
      const counted = await s.request(post('/counted'))
      assert.equal(counted.statusCode, 200)
      if (mode === 'inject') {
        const short = await s.request(post('/as-it-came', { 'content-length': '100' }))
        assert.equal(short.statusCode, 400)
        assert.equal(short.json().code, 'HP_ERR_INVALID_CONTENT_LENGTH')
      }
    } finally {
      await s.close()
    }
  })
}
