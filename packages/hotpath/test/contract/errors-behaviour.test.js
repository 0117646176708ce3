import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { Readable, Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'
import { HttpError } from '../../lib/index.js'

eachMode('errors', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const logs = []
  before(async () => {
    const stream = new Writable({ write (chunk, _enc, cb) { logs.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/throw', () => { throw new Error('db password is hunter2') })
      app.get('/reject', async () => { throw new Error('internal detail') })
      app.get('/reject-non-error', () => Promise.reject('a string')) // eslint-disable-line prefer-promise-reject-errors
      app.get('/http-error', () => { throw new HttpError(409, 'Already exists', { code: 'BOOK_EXISTS' }) })
      app.get('/http-error-plain', async () => { throw new HttpError(403) })
      app.get('/undefined', async () => {})
      app.get('/undefined-204', async (req, reply) => { reply.code(204) })
      app.get('/twice', (req, reply) => {
        reply.send({ first: true })
        reply.send({ second: true })
      })
      app.get('/twice-return', (req, reply) => { reply.send('first'); return 'second' })
      app.get('/later', (req, reply) => { setTimeout(() => reply.send({ later: true }), 5); return reply })
      app.get('/stream-error', () => new Readable({ read () { this.destroy(new Error('disk gone')) } }))
      app.get('/bad-serialize', () => ({ n: 10n }))
      app.get('/bad-header', (req, reply) => reply.header('x-bad', 'a\r\nInjected: 1').send('x'))
      app.register(async (child) => {
        child.setErrorHandler((err, req, reply) => reply.code(418).send({ custom: err.message }))
        child.get('/custom', () => { throw new Error('visible to the custom handler') })
        child.register(async (grand) => {
          grand.setErrorHandler(() => { throw new Error('the error handler fails too') })
          grand.get('/loop', () => { throw new Error('first') })
        })
        child.addHook('onSend', (req) => { if (req.query.failSend) throw new Error('onSend failed') })
        child.get('/onsend', () => 'ok')
        // refuses every answer, its own error answer too, as a compression
        // plugin refuses an Accept-Encoding it cannot meet
        child.addHook('onSend', (req, reply) => { if (req.query.refuse) { reply.code(406); throw new HttpError(406, 'No acceptable encoding', { code: 'E_ENCODING' }) } })
        child.addHook('onSend', (req) => { if (req.query.refuseServer) throw Object.assign(new Error('the codec crashed'), { statusCode: 503 }) })
      }, { prefix: '/c' })
      app.register(async (child) => {
        child.setNotFoundHandler((req, reply) => reply.code(404).send({ here: 'v2', path: req.path }))
      }, { prefix: '/v2' })
    }, { logger: { level: 'info', stream } })
  })
  after(() => s.close())

  test('a thrown Error → masked 500, logged once with the request id', async () => {
    logs.length = 0
    for (const url of ['/throw', '/reject', '/reject-non-error']) {
      const res = await s.request(url)
      assert.equal(res.statusCode, 500, url)
      assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
      assert.doesNotMatch(res.body, /hunter2|internal detail|stack/)
    }
    await sleep(20)
    const errorLines = logs.filter((l) => l.level === 50)
    assert.equal(errorLines.length, 3)
    assert.ok(errorLines.every((l) => typeof l.reqId === 'string'))
    assert.equal(errorLines[0].err.message, 'db password is hunter2')
  })

  test('HttpError answers its status, message and code', async () => {
    const res = await s.request('/http-error')
    assert.equal(res.statusCode, 409)
    assert.deepEqual(res.json(), { statusCode: 409, error: 'Conflict', message: 'Already exists', code: 'BOOK_EXISTS' })
    assert.deepEqual((await s.request('/http-error-plain')).json(), { statusCode: 403, error: 'Forbidden', message: 'Forbidden' })
  })

  test('async handler resolving undefined without sending → deterministic 500', async () => {
    const res = await s.request('/undefined')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'HP_ERR_PROMISE_NOT_FULFILLED')
    const empty = await s.request('/undefined-204')
    assert.equal(empty.statusCode, 204)
  })

  test('sending twice: the first wins, the second is logged, nothing throws', async () => {
    logs.length = 0
    assert.deepEqual((await s.request('/twice')).json(), { first: true })
    assert.equal((await s.request('/twice-return')).body, 'first')
    await sleep(20)
    assert.ok(logs.some((l) => l.level === 40 && /already sent/.test(l.msg)))
    assert.ok(!logs.some((l) => l.level >= 50))
  })

  test('returning reply and sending later works', async () => {
    assert.deepEqual((await s.request('/later')).json(), { later: true })
  })

  test('a stream failing before its first byte goes to the error handler', async () => {
    const res = await s.request('/stream-error')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().message, 'Internal Server Error')
  })

  test('serializer failure and an invalid header value → 500, never a crash', async () => {
    const a = await s.request('/bad-serialize')
    assert.equal(a.statusCode, 500)
    const b = await s.request('/bad-header')
    assert.equal(b.statusCode, 500)
    assert.equal(b.headers.injected, undefined)
  })

  test('custom error handlers are encapsulated; a failing one hands its error to its parent context\'s', async () => {
    const res = await s.request('/c/custom')
    assert.equal(res.statusCode, 418)
    assert.deepEqual(res.json(), { custom: 'visible to the custom handler' })
    const chained = await s.request('/c/loop')
    assert.equal(chained.statusCode, 418)
    assert.deepEqual(chained.json(), { custom: 'the error handler fails too' })
    assert.equal((await s.request('/c/onsend')).body, 'ok')
    const failed = await s.request('/c/onsend?failSend=1')
    assert.equal(failed.statusCode, 500)
  })

  test('a client error raised again while the error answer is sent is answered as it is, without hooks', async () => {
    const res = await s.request('/c/onsend?refuse=1')
    assert.equal(res.statusCode, 406)
    assert.deepEqual(res.json(), { statusCode: 406, code: 'E_ENCODING', error: 'Not Acceptable', message: 'No acceptable encoding' })
    // a server error raised there is still the fixed, masked 500
    const crashed = await s.request('/c/onsend?refuseServer=1')
    assert.equal(crashed.statusCode, 500)
    assert.deepEqual(crashed.json(), { statusCode: 500, code: 'HP_ERR_INTERNAL', error: 'Internal Server Error', message: 'Internal Server Error' })
  })

  test('not-found handlers are encapsulated by prefix', async () => {
    assert.deepEqual((await s.request('/v2/x')).json(), { here: 'v2', path: '/v2/x' })
    assert.equal((await s.request('/v3/x')).json().code, 'HP_ERR_NOT_FOUND')
  })
})
