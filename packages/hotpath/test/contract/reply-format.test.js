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

  test("a stream: application/octet-stream by default; no Content-Type under 'fastify'", async () => {
    assert.equal((await hp.request('/stream')).headers['content-type'], 'application/octet-stream')
    const b = await fst.request('/stream')
    assert.equal(b.body, 'x')
    assert.equal(b.headers['content-type'], undefined)
  })
})

test('replyFormat takes only hotpath or fastify', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  assert.throws(() => hotpath({ replyFormat: 'express' }), { code: 'HP_ERR_INVALID_OPTION' })
})
