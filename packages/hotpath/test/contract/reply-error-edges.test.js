// The error path at its edges, in both error formats: a hook whose promise
// rejects without a reason; an error answer through a response schema
// given per content type.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

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
        else assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }, hook)
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
