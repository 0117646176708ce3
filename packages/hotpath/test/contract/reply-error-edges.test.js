// The error path at its edges, in both error formats: a hook whose promise
// rejects without a reason.
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
  })
}
