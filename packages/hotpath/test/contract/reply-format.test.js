import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

/** @param {any} app */
function routes (app) {
  app.get('/null', () => null)
  app.get('/null-text', (req, reply) => reply.type('text/plain').send(null))
  app.get('/json-type', (req, reply) => reply.type('application/vnd.api+json').send({ a: 1 }))
  app.get('/json-type-string', (req, reply) => reply.header('content-type', 'application/json; Version=2').send('{"raw":true}'))
  app.get('/json-type-charset', (req, reply) => reply.type('application/json; charset=latin1').send({ a: 1 }))
  app.get('/html', (req, reply) => reply.type('text/html').send('<p>'))
  app.get('/stream', () => Readable.from(['x']))
  // an object with a type that is not JSON: the handler sees what send() does
  app.get('/html-object', (/** @type {any} */ req, /** @type {any} */ reply) => {
    try {
      reply.type('text/html').send({ a: 1 })
    } catch (/** @type {any} */ err) {
      reply.code(500).type('text/plain').send(`${err.name === 'FastifyError' ? err instanceof TypeError : 'n/a'} ${err.code}`)
    }
  })
  app.get('/serializer-object', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.type('text/html').serializer((/** @type {any} */ p) => p).send({ a: 1 })
  })
  app.get('/html-object-returned', (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('text/html'); return { a: 4 } })
  app.get('/html-object-resolved', async (/** @type {any} */ req, /** @type {any} */ reply) => { reply.type('text/html'); return { a: 5 } })
  app.register(async (/** @type {any} */ child) => {
    child.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => typeof payload === 'object' && reply.statusCode === 200 ? `<p>${payload.a}</p>` : payload)
    child.get('/html-object-hooked', (/** @type {any} */ req, /** @type {any} */ reply) => reply.type('text/html').send({ a: 2 }))
  })
  app.register(async (/** @type {any} */ child) => {
    child.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => payload)
    child.get('/html-object-async', (/** @type {any} */ req, /** @type {any} */ reply) => reply.type('text/html').send({ a: 3 }))
  })
}

eachMode('replyFormat', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let hp
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let fst
  before(async () => {
    hp = await setup(mode, routes)
    fst = await setup(mode, routes, { replyFormat: 'fastify' })
  })
  after(async () => {
    await hp.close()
    await fst.close()
  })

  test("null: an empty body by default; JSON null under 'fastify', unless a type that is not JSON was set", async () => {
    const a = await hp.request('/null')
    assert.equal(a.body, '')
    const b = await fst.request('/null')
    assert.equal(b.body, 'null')
    assert.equal(b.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal((await fst.request('/null-text')).body, '')
  })

  test("a JSON type the app set: as set by default; with charset=utf-8 under 'fastify'", async () => {
    assert.equal((await hp.request('/json-type')).headers['content-type'], 'application/vnd.api+json')
    const b = await fst.request('/json-type')
    assert.equal(b.headers['content-type'], 'application/vnd.api+json; charset=utf-8')
    assert.deepEqual(b.json(), { a: 1 })
    const c = await fst.request('/json-type-string')
    assert.equal(c.headers['content-type'], 'application/json; version="2"; charset=utf-8')
    assert.equal(c.body, '{"raw":true}')
    assert.equal((await fst.request('/json-type-charset')).headers['content-type'], 'application/json; charset=latin1')
    assert.equal((await fst.request('/html')).headers['content-type'], 'text/html')
  })

  test("an object with a type that is not JSON: sent as JSON by default; refused by send() under 'fastify'", async () => {
    const a = await hp.request('/html-object')
    assert.equal(a.headers['content-type'], 'text/html')
    assert.equal(a.body, '{"a":1}')
    const b = await fst.request('/html-object')
    assert.equal(b.statusCode, 500)
    assert.equal(b.body, 'n/a HP_ERR_REP_INVALID_PAYLOAD_TYPE')
    // thrown out of a handler that does not catch it: the error path answers
    const c = await fst.request('/serializer-object')
    assert.equal(c.statusCode, 500)
    assert.equal(c.json().code, 'HP_ERR_REP_INVALID_PAYLOAD_TYPE')
    // returned by a handler, sync or async: the error path answers
    for (const url of ['/html-object-returned', '/html-object-resolved']) {
      assert.equal((await hp.request(url)).body, url.endsWith('returned') ? '{"a":4}' : '{"a":5}')
      const refused = await fst.request(url)
      assert.equal(refused.statusCode, 500, url)
      assert.equal(refused.json().code, 'HP_ERR_REP_INVALID_PAYLOAD_TYPE', url)
    }
    // an onSend hook may make it a body
    assert.equal((await fst.request('/html-object-hooked')).body, '<p>2</p>')
    // after an async hook, the error path takes it
    const d = await fst.request('/html-object-async')
    assert.equal(d.statusCode, 500)
    assert.equal(d.json().code, 'HP_ERR_REP_INVALID_PAYLOAD_TYPE')
  })

  test("a stream: application/octet-stream by default; no Content-Type under 'fastify'", async () => {
    assert.equal((await hp.request('/stream')).headers['content-type'], 'application/octet-stream')
    const b = await fst.request('/stream')
    assert.equal(b.body, 'x')
    assert.equal(b.headers['content-type'], undefined)
  })
})

test("hotpath/fastify refuses such an object with Fastify's code, as a TypeError", async () => {
  const { default: fastify } = await import('../../lib/fastify.js')
  const app = fastify()
  routes(app)
  const res = await app.inject('/html-object')
  assert.equal(res.body, 'true FST_ERR_REP_INVALID_PAYLOAD_TYPE')
  const thrown = await app.inject('/serializer-object')
  assert.deepEqual(thrown.json(), { statusCode: 500, code: 'FST_ERR_REP_INVALID_PAYLOAD_TYPE', error: 'Internal Server Error', message: "Attempted to send payload of invalid type 'object'. Expected a string or Buffer." })
})

test('replyFormat takes only hotpath or fastify', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  assert.throws(() => hotpath({ replyFormat: 'express' }), { code: 'HP_ERR_INVALID_OPTION' })
})
