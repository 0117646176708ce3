// app.inject() with no options builds the request by chained calls;
// [Symbol.asyncDispose] closes the app. A FormData payload.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'

function echoApp () {
  const app = hotpath()
  app.post('/echo', (req) => ({ body: req.body, query: req.query, header: req.headers['x-test'] ?? null, cookie: req.headers.cookie ?? null }))
  app.get('/', () => ({ hello: 'world' }))
  return app
}

test('inject() refuses a method Node.js does not parse at the call, callback or not', () => {
  const app = echoApp()
  assert.throws(() => app.inject({ method: 'UNKNOWN_METHOD', url: '/' }, () => {}), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => app.inject({ method: /** @type {any} */ (7), url: '/' }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.equal(typeof app.inject({ method: 'get', url: '/' }).then, 'function')
})

test('inject() gives a request light-my-request\'s default Host and User-Agent unless it sets its own', async () => {
  const app = hotpath()
  app.get('/h', (req) => ({ host: req.headers.host, ua: req.headers['user-agent'] }))
  assert.deepEqual((await app.inject('/h')).json(), { host: 'localhost:80', ua: 'lightMyRequest' })
  assert.deepEqual((await app.inject({ url: '/h', headers: { 'user-agent': 'mine' } })).json(), { host: 'localhost:80', ua: 'mine' })
})

test('inject() chained: method and url, headers, query, cookies and payload, sent by end()', async () => {
  const app = echoApp()
  const res = await app.inject().post('/echo').headers({ 'x-test': 'yes' }).query({ a: '1' }).cookies({ c: 'd' }).payload({ n: 1 }).end()
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { body: { n: 1 }, query: { a: '1' }, header: 'yes', cookie: 'c=d' })
})

test('inject() chained is sent when awaited, and by end(callback)', async () => {
  const app = echoApp()
  const awaited = await app.inject().get('/')
  assert.deepEqual(awaited.json(), { hello: 'world' })
  const viaCallback = await new Promise((resolve, reject) => {
    app.inject().get('/').end((err, res) => err ? reject(err) : resolve(res))
  })
  assert.equal(/** @type {any} */ (viaCallback).statusCode, 200)
})

test('inject() chained is sent on the next tick when nothing sends it, and refuses changes once sent', { timeout: 30_000 }, async () => {
  const app = hotpath()
  let called = 0
  /** @type {() => void} */
  let reached = () => {}
  const handlerReached = new Promise((resolve) => { reached = () => resolve(undefined) })
  app.get('/', () => { called++; reached(); return 'ok' })
  const chain = app.inject().get('/')
  // nothing awaits, ends or reads the chain: the handler runs all the same
  await handlerReached
  assert.equal(called, 1)
  assert.throws(() => chain.headers({ a: 'b' }), /already been invoked/)
  assert.throws(() => chain.end(), /already been invoked/)
  const res = await chain
  assert.equal(res.body, 'ok')
})

test('inject() chained rejects with the error of a plugin that failed to load', async () => {
  const app = hotpath()
  app.register((_i, _o, done) => { done(new Error('kaboom')) })
  await assert.rejects(async () => { await app.inject().get('/') }, /kaboom/)
})

test('[Symbol.asyncDispose]() closes the app', async () => {
  const app = hotpath()
  let closed = false
  app.addHook('onClose', () => { closed = true })
  await app.listen({ port: 0, host: '127.0.0.1' })
  assert.equal(app.server.listening, true)
  await /** @type {any} */ (app)[Symbol.asyncDispose]()
  assert.equal(app.server.listening, false)
  assert.equal(closed, true)
})

test('inject() sends a FormData payload as multipart/form-data, its boundary in the Content-Type it sets', async () => {
  const app = hotpath()
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string' }, (/** @type {any} */ req, /** @type {string} */ body, /** @type {Function} */ done) => { done(null, body) })
  app.post('/form', (req) => ({ type: req.headers['content-type'], body: req.body }))
  const form = new FormData()
  form.set('field', 'a value')
  const res = await app.inject({ method: 'POST', url: '/form', payload: form, headers: { 'content-type': 'text/plain', 'x-kept': 'yes' } })
  assert.equal(res.statusCode, 200)
  const { type, body } = res.json()
  const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(type)?.[1]
  assert.ok(boundary, type)
  assert.ok(body.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="field"\r\n\r\na value\r\n`), body)
  // light-my-request ends the form with the closing delimiter, no CRLF after it
  assert.ok(body.endsWith(`\r\n--${boundary}--`), body)
})
