import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'
import { HttpError } from '../../lib/index.js'

eachMode('custom error handlers', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const logs = []
  /** what onError hooks saw, asserted outside the hooks @type {any[]} */
  const seen = []
  before(async () => {
    const stream = new Writable({ write (chunk, _enc, cb) { logs.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      // error.validation / error.validationContext
      app.register(async (v) => {
        v.addHook('onError', (req, reply, error) => {
          seen.push({ validation: error.validation, validationContext: error.validationContext, sameAsDetails: error.validation === error.details?.validation })
        })
        v.setErrorHandler((error, req, reply) => {
          if (error.validation) return reply.code(422).send({ part: error.validationContext, keywords: error.validation.map((/** @type {any} */ i) => i.keyword) })
          return reply.send(error)
        })
        v.post('/items/:id', {
          schema: {
            params: { id: { type: 'integer' } },
            querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1 } } },
            headers: { type: 'object', properties: { 'x-n': { type: 'integer' } } },
            body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }
          }
        }, () => 'ok')
      }, { prefix: '/v' })

      app.get('/root/:id', { schema: { params: { id: { type: 'integer' } } } }, () => 'ok')

      // sync and async error handlers that return undefined without sending
      app.register(async (c) => {
        c.setErrorHandler(() => undefined)
        c.get('/http', () => { throw new HttpError(409, 'Already exists') })
        c.get('/plain', () => { throw new Error('secret detail') })
      }, { prefix: '/sync' })
      app.register(async (c) => {
        c.setErrorHandler(async () => undefined)
        c.get('/http', () => { throw new HttpError(409, 'Already exists') })
        c.get('/plain', () => { throw new Error('secret detail') })
      }, { prefix: '/async' })
      // reply.send(error) from a custom handler
      app.register(async (c) => {
        c.setErrorHandler((error, req, reply) => { reply.header('x-custom', '1').send(error) })
        c.get('/plain', () => { throw new Error('db password is hunter2') })
        c.get('/http-503', () => { throw new HttpError(503, 'Down for maintenance') })
        c.get('/status-4xx', () => { throw Object.assign(new Error('internal reason'), { statusCode: 403 }) })
      }, { prefix: '/send' })
      app.register(async (c) => {
        c.setErrorHandler(async (error, req, reply) => reply.code(502).send(error))
        c.get('/plain', () => { throw new Error('upstream token xyz') })
      }, { prefix: '/send-async' })
    }, { logger: { level: 'info', stream } })
  })
  after(() => s.close())

  test('error.validation and error.validationContext, for each part, in onError and the error handler', async () => {
    const cases = [
      { url: '/v/items/abc', payload: { name: 'a' }, part: 'params', keyword: 'type' },
      { url: '/v/items/1?page=0', payload: { name: 'a' }, part: 'querystring', keyword: 'minimum' },
      { url: '/v/items/1', headers: { 'x-n': 'nope' }, payload: { name: 'a' }, part: 'headers', keyword: 'type' },
      { url: '/v/items/1', payload: { title: 'a' }, part: 'body', keyword: 'required' }
    ]
    for (const c of cases) {
      seen.length = 0
      const res = await s.request({ method: 'POST', url: c.url, headers: c.headers, payload: c.payload })
      assert.equal(res.statusCode, 422, c.part)
      assert.deepEqual(res.json(), { part: c.part, keywords: [c.keyword] })
      assert.equal(seen.length, 1)
      assert.equal(seen[0].validationContext, c.part)
      assert.equal(seen[0].validation[0].keyword, c.keyword)
      assert.equal(seen[0].sameAsDetails, true, 'details keeps the same array')
    }
    assert.equal((await s.request({ method: 'POST', url: '/v/items/1', payload: { name: 'a' } })).body, 'ok')
  })

  test('the default 400 body still carries validation and validationContext', async () => {
    const res = await s.request('/root/abc')
    assert.equal(res.statusCode, 400)
    const body = res.json()
    assert.equal(body.code, 'HP_ERR_VALIDATION')
    assert.equal(body.validationContext, 'params')
    assert.equal(body.validation[0].keyword, 'type')
  })

  test('a handler returning undefined without sending: the same default answer, sync or async', async () => {
    for (const path of ['/http', '/plain']) {
      const sync = await s.request('/sync' + path)
      const async = await s.request('/async' + path)
      assert.equal(sync.statusCode, async.statusCode, path)
      assert.deepEqual(sync.json(), async.json(), path)
    }
    const conflict = await s.request('/async/http')
    assert.equal(conflict.statusCode, 409)
    assert.deepEqual(conflict.json(), { statusCode: 409, error: 'Conflict', message: 'Already exists' })
    const plain = await s.request('/async/plain')
    assert.equal(plain.statusCode, 500)
    assert.deepEqual(plain.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  })

  test('reply.send(error) with a 5xx from a custom handler: masked, logged once with the request id', async () => {
    for (const [url, status, message, logged] of /** @type {const} */ ([
      ['/send/plain', 500, 'Internal Server Error', 'db password is hunter2'],
      ['/send-async/plain', 502, 'Bad Gateway', 'upstream token xyz'],
      ['/send/http-503', 503, 'Down for maintenance', 'Down for maintenance']
    ])) {
      logs.length = 0
      const res = await s.request(url)
      assert.equal(res.statusCode, status, url)
      assert.equal(res.json().message, message, url)
      assert.doesNotMatch(res.body, /hunter2|xyz|stack/)
      await sleep(20)
      const errors = logs.filter((l) => l.level === 50)
      assert.equal(errors.length, 1, `${url}: one error line`)
      assert.equal(typeof errors[0].reqId, 'string')
      assert.equal(errors[0].err.message, logged)
    }
    assert.equal((await s.request('/send/plain')).headers['x-custom'], '1')
  })

  test('reply.send(error) with a 4xx that is not an HttpError: its status, the message masked, no error line', async () => {
    logs.length = 0
    const res = await s.request('/send/status-4xx')
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { statusCode: 403, error: 'Forbidden', message: 'Forbidden' })
    await sleep(20)
    assert.equal(logs.filter((l) => l.level === 50).length, 0)
    assert.equal(logs.filter((l) => l.msg === 'request rejected').length, 1)
  })
})
