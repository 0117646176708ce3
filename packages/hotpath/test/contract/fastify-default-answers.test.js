// hotpath/fastify with its default options beside Fastify with its own:
// the same small app, and ordinary and edge requests sent to both through
// inject() and over a socket on the node and wire engines (Fastify on
// node:http). Compared: status, headers (Date and Keep-Alive aside, in any
// order) and body bytes, for routes that answer, 404s, HEAD, OPTIONS and
// methods without a route, trailing and duplicate slashes, case, ';' and
// odd queries, bad percent-encoding, a parameter past maxParamLength, a
// large header, Connection, bodies Fastify does and does not parse, thrown
// errors with and without a statusCode, reply.callNotFound() and onRequest
// hook errors; then, with an error handler, a not-found handler and hooks of
// the app's, which of them each request ran.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'

/** @param {{ statusCode: number, headers: Record<string, any>, body: string }} a */
function comparable (a) {
  return { statusCode: a.statusCode, headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => k !== 'date' && k !== 'keep-alive').sort()), body: a.body }
}

/** @param {any} app */
function build (app) {
  app.get('/', () => ({ hello: 'world' }))
  app.get('/text', () => 'hi')
  app.get('/Case', () => 'case')
  app.post('/echo', (req) => req.body ?? null)
  app.get('/throw', () => { throw new Error('boom') })
  app.get('/throw-418', () => { const e = new Error('teapot'); e.statusCode = 418; throw e })
  app.get('/throw-400', () => { const e = new Error('bad'); e.statusCode = 400; e.code = 'E_BAD'; throw e })
  app.get('/throw-503', () => { const e = new Error('down'); e.statusCode = 503; throw e })
  app.get('/throw-string', () => { throw 'str' })
  app.get('/throw-obj', () => { throw { statusCode: 409, message: 'conflict' } })
  app.get('/async-throw', async () => { throw new Error('async boom') })
  app.get('/call-not-found', (req, reply) => { reply.callNotFound() })
  app.get('/params/:id', (req) => req.params)
  app.get('/query', (req) => req.query)
  app.get('/undef', async () => {})
  app.get('/null', (req, reply) => { reply.send(null) })
  app.get('/204', (req, reply) => { reply.code(204).send() })
  app.get('/204-body', (req, reply) => { reply.code(204).send('x') })
  app.get('/buf', (req, reply) => { reply.send(Buffer.from('bytes')) })
  app.get('/redirect', (req, reply) => { reply.redirect('/text') })
  app.get('/headers', (/** @type {any} */ req) => ({ hostname: req.hostname, ip: typeof req.ip, protocol: req.protocol, url: req.url, originalUrl: req.originalUrl }))
  app.get('/status-str', (req, reply) => { reply.code(201); return 'x' })
  app.get('/num', () => 42)
  app.get('/bool', () => true)
  app.get('/arr', () => [1, 2])
  app.get('/date', () => new Date(0))
  app.get('/bigint-obj', (req, reply) => { reply.header('x-a', 1).header('set-cookie', ['a=1', 'b=2']); return { a: 1 } })
  app.get('/err-instance', (req, reply) => { reply.send(new Error('sent err')) })
  app.all('/all', (req) => req.method)
  app.get('/star/*', (req) => req.params)
  app.register(async (p) => {
    p.addHook('onRequest', async () => { throw new Error('hook') })
    p.get('/', () => 'never')
  }, { prefix: '/hook500' })
  app.register(async (p) => {
    p.addHook('onRequest', async () => { const e = new Error('no'); e.statusCode = 401; throw e })
    p.get('/', () => 'never')
  }, { prefix: '/auth' })
  app.register(async (p) => {
    p.addHook('onRequest', (req, reply, done) => { reply.code(403).send({ denied: true }) })
    p.get('/', () => 'never')
  }, { prefix: '/deny' })
  app.register(async (p) => {
    p.get('/', () => 'api root')
    p.get('/items', () => ['a'])
  }, { prefix: '/api' })
}
const big = 'x'.repeat(20000)
const requests = [
  '/', { method: 'HEAD', url: '/' }, { method: 'OPTIONS', url: '/' }, { method: 'DELETE', url: '/' }, { method: 'POST', url: '/' },
  '/nope', { method: 'POST', url: '/nope', payload: { a: 1 } }, { method: 'HEAD', url: '/nope' },
  '/text', '/text/', '//text', '/text//', '/case', '/Case', '/CASE',
  '/query?a=1;b=2', '/query?a=1&a=2&b', '/query?a[b]=1', '/query?%=1', '/query?a=%E0',
  '/%', '/%E0%A4%A', '/params/%E0%A4%A', '/params/a%2Fb', '/params/%20x', '/params/' + 'y'.repeat(120), '/te%78t',
  { url: '/text', headers: { 'x-big': big } }, { url: '/text', headers: { connection: 'keep-alive' } }, { url: '/text', headers: { connection: 'close' } },
  { method: 'POST', url: '/echo', payload: { a: 1 } }, { method: 'POST', url: '/echo', payload: '{bad', headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/echo', payload: '', headers: { 'content-type': 'application/json' } }, { method: 'POST', url: '/echo', payload: 'abc', headers: { 'content-type': 'text/plain' } },
  { method: 'POST', url: '/echo', payload: 'abc', headers: { 'content-type': 'application/x-unknown' } }, { method: 'POST', url: '/echo', payload: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/echo', payload: '{"constructor":{"prototype":{"x":1}}}', headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/echo', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { method: 'POST', url: '/echo' }, { method: 'POST', url: '/echo', payload: 'x', headers: { 'content-type': 'application/json; charset=latin1' } },
  '/throw', '/throw-418', '/throw-400', '/throw-503', '/throw-string', '/throw-obj', '/async-throw', '/call-not-found',
  '/params/1', '/undef', '/null', '/204', '/204-body', '/buf', '/redirect', '/headers', '/status-str', '/num', '/bool', '/arr', '/date', '/bigint-obj', '/err-instance',
  { method: 'PATCH', url: '/all' }, { method: 'PROPFIND', url: '/all' }, { method: 'TRACE', url: '/all' }, '/star/a/b', '/star/',
  '/hook500', '/auth', '/deny', '/api', '/api/', '/api/items', '/api/nope', '/api/items/'
]

test('the same app with default options answers as on Fastify', async () => {
  const out = await besideFastify(build, requests)
  for (const r of out) assert.deepEqual(comparable(r.hotpath), comparable(r.fastify), r.what)
})

/** what each app's error handler, not-found handler and hooks saw @type {Map<any, Record<string, number>>} */
const ran = new Map()

/** @param {any} app */
function buildWithHandlers (app) {
  const c = { onRequest: 0, onResponse: 0, errorHandler: 0, notFound: 0 }
  ran.set(app, c)
  app.addHook('onRequest', async () => { c.onRequest++ })
  app.addHook('onResponse', async () => { c.onResponse++ })
  app.setErrorHandler((/** @type {any} */ err, /** @type {any} */ req, /** @type {any} */ reply) => { c.errorHandler++; reply.code(err.statusCode ?? 500).send({ custom: err.message }) })
  app.setNotFoundHandler((/** @type {any} */ req, /** @type {any} */ reply) => { c.notFound++; reply.code(404).send({ notFound: req.url }) })
  app.get('/p/:id', (/** @type {any} */ req) => req.params)
  app.get('/throw', () => { throw new Error('x') })
  app.get('/cnf', (/** @type {any} */ req, /** @type {any} */ reply) => reply.callNotFound())
  app.get('/ok', () => 'ok')
  app.post('/j', (/** @type {any} */ req) => req.body)
}

test('with the app\'s error and not-found handlers and hooks: the same answers, and the same of them run', async () => {
  ran.clear()
  const out = await besideFastify(buildWithHandlers, [
    '/ok', '/p/%E0%A4%A', '/%', '/p/' + 'y'.repeat(120), '/throw', '/cnf', '/missing', { method: 'HEAD', url: '/missing' }, { method: 'OPTIONS', url: '/ok' },
    { method: 'POST', url: '/j', payload: '{', headers: { 'content-type': 'application/json' } },
    { method: 'POST', url: '/j', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { method: 'POST', url: '/j', payload: '{"a":1}', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }
  ])
  for (const r of out) assert.deepEqual(comparable(r.hotpath), comparable(r.fastify), r.what)
  // Fastify first, then hotpath, for each mode
  const counts = [...ran.values()]
  assert.equal(counts.length, 6)
  for (let i = 0; i < counts.length; i += 2) assert.deepEqual(counts[i + 1], counts[i])
})
