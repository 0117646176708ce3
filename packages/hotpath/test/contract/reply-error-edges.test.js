// The error path at its edges, in both error formats: a hook whose promise
// rejects without a reason; an error answer through a response schema
// given per content type; a head the engine refuses, once the hooks ran;
// an onSend hook that fails on every answer, the error answer's too; a
// response schema the payload does not meet.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

/** @type {string[]} the codes the onError hooks of /refused saw */
const onErrorSeen = []

/** @param {any} app */
function build (app) {
  app.setErrorHandler((/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) => {
    reply.header('x-handed', err instanceof Error ? 'an Error' : String(err))
    reply.send(err instanceof Error ? err : new Error('not an Error'))
  })
  for (const hook of ['onRequest', 'preValidation', 'preHandler']) {
    app.register(async (/** @type {any} */ child) => {
      // eslint-disable-next-line prefer-promise-reject-errors
      child.addHook(hook, () => Promise.reject(hook === 'preHandler' ? null : undefined))
      child.get(`/${hook}`, () => ({ ok: true }))
    })
  }
  app.register(async (/** @type {any} */ child) => {
    child.addHook('onSend', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => {
      reply.header('x-broken', 'a\nb')
      return payload
    })
    child.addHook('onError', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ err) => { onErrorSeen.push(err.code) })
    child.get('/refused', async () => ({ ok: true }))
  })
  app.register(async (/** @type {any} */ child) => {
    // declares done but answers with its promise
    // eslint-disable-next-line prefer-promise-reject-errors
    child.addHook('onRequest', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ done) => Promise.reject())
    child.get('/callback-style', () => 'never')
  })
  app.register(async (/** @type {any} */ child) => {
    child.addHook('onSend', async () => { throw Object.assign(new Error('onSend always fails'), { code: 'E_ONSEND' }) })
    child.get('/onsend-fails', () => 'never sent')
  })
  app.register(async (/** @type {any} */ child) => {
    child.setErrorHandler((/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) => {
      reply.header('x-serialization', JSON.stringify(err.serialization ?? null)).send(err)
    })
    child.get('/unmet', {
      config: { team: 'billing' },
      schema: { response: { 200: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } }
    }, () => ({ other: true }))
  })
  const errorShape = { type: 'object', properties: { statusCode: { type: 'number' }, error: { type: 'string' }, message: { type: 'string' } } }
  app.register(async (/** @type {any} */ child) => {
    child.setErrorHandler((/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) => { reply.send(err) })
    child.post('/typed', {
      schema: {
        body: { type: 'object', required: ['id'] },
        response: { 400: { content: { 'application/json': { schema: errorShape } } }, 500: { content: { 'text/csv': { schema: errorShape } } } }
      }
    }, () => { throw Object.assign(new Error('kaboom'), { code: 'E_KABOOM' }) })
  })
}

for (const format of /** @type {const} */ (['hotpath', 'fastify'])) {
  eachMode(`error path edges, errorFormat '${format}'`, (mode) => {
    /** @type {Awaited<ReturnType<typeof setup>>} */
    let s
    before(async () => { s = await setup(mode, build, format === 'fastify' ? { errorFormat: 'fastify', exposeErrorMessages: true } : {}) })
    after(() => s.close())

    test('a hook that rejects without a reason: the error handler gets an Error', async () => {
      for (const hook of ['onRequest', 'preValidation', 'preHandler']) {
        const res = await s.request(`/${hook}`)
        assert.equal(res.statusCode, 500, hook)
        assert.equal(res.headers['x-handed'], 'an Error', hook)
        if (format === 'fastify') assert.deepEqual(res.json(), { statusCode: 500, code: 'FST_ERR_SEND_UNDEFINED_ERR', error: 'Internal Server Error', message: 'Undefined error has occurred' }, hook)
        else assert.deepEqual(res.json(), { statusCode: 500, code: 'HP_ERR_HOOK_REJECTED_EMPTY', error: 'Internal Server Error', message: 'Internal Server Error' }, hook)
      }
    })

    test('a hook that declares done and rejects its promise without a reason: the same', async () => {
      const res = await s.request('/callback-style')
      assert.equal(res.statusCode, 500)
      assert.equal(res.headers['x-handed'], 'an Error')
      assert.equal(res.json().code, format === 'fastify' ? 'FST_ERR_SEND_UNDEFINED_ERR' : 'HP_ERR_HOOK_REJECTED_EMPTY')
    })

    test('an onSend hook that fails on the error answer too: the last error, without hooks', async () => {
      const res = await s.request('/onsend-fails')
      assert.equal(res.statusCode, 500)
      if (format === 'fastify') assert.deepEqual(res.json(), { statusCode: 500, code: 'E_ONSEND', error: 'Internal Server Error', message: 'onSend always fails' })
      else assert.deepEqual(res.json(), { statusCode: 500, code: 'HP_ERR_INTERNAL', error: 'Internal Server Error', message: 'Internal Server Error' })
    })

    test("a payload its status's schema cannot encode: under errorFormat fastify the error handler sees the route's config as serialization", async () => {
      const res = await s.request('/unmet')
      assert.equal(res.statusCode, 500)
      if (format === 'fastify') {
        assert.deepEqual(JSON.parse(res.headers['x-serialization']), { team: 'billing', url: '/unmet', method: 'GET' })
        assert.equal(res.json().message, '"name" is required!')
      } else {
        assert.equal(res.headers['x-serialization'], 'null')
        assert.equal(res.json().code, 'HP_ERR_SERIALIZATION')
      }
    })

    test('a head the engine refuses: the error path under errorFormat fastify, the fixed 500 at once otherwise', async () => {
      onErrorSeen.length = 0
      const res = await s.request('/refused')
      assert.equal(res.statusCode, 500)
      assert.equal(res.headers['x-broken'], undefined)
      if (format === 'fastify') {
        assert.equal(res.json().code, 'ERR_INVALID_CHAR')
        // the refusal of the answer, then that of the error handler's answer
        // (the header is still set), as Fastify runs them
        assert.deepEqual(onErrorSeen, ['ERR_INVALID_CHAR', 'ERR_INVALID_CHAR'])
        assert.equal(res.headers['x-handed'], undefined)
      } else {
        assert.deepEqual(res.json(), { statusCode: 500, code: 'HP_ERR_INTERNAL', error: 'Internal Server Error', message: 'Internal Server Error' })
        assert.deepEqual(onErrorSeen, [])
      }
    })

    test("an error answer goes through the status's schema for its type, given per content type", async () => {
      const res = await s.request({ method: 'POST', url: '/typed', headers: { 'content-type': 'application/json' }, payload: '{}' })
      assert.equal(res.statusCode, 400)
      // the schema has no `code`: it is left out
      assert.deepEqual(Object.keys(res.json()), ['statusCode', 'error', 'message'])
      // no schema for JSON at 500: the default body
      const failed = await s.request({ method: 'POST', url: '/typed', headers: { 'content-type': 'application/json' }, payload: '{"id":1}' })
      assert.equal(failed.statusCode, 500)
      if (format === 'fastify') assert.deepEqual(failed.json(), { statusCode: 500, code: 'E_KABOOM', error: 'Internal Server Error', message: 'kaboom' })
    })
  })
}
