// Fastify 5's server options: those hotpath implements act on every engine
// and under inject; each of the others is refused at construction with an
// error that names it, unless its value describes what hotpath does anyway.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

test('an option hotpath does not implement is refused, naming it and saying what hotpath does', () => {
  for (const [name, value] of /** @type {[string, any][]} */ ([
    ['compile', true], ['http.insecureHTTPParser', { insecureHTTPParser: true }]
  ])) {
    for (const make of [hotpath, fastify]) {
      const option = name.startsWith('http.') ? { http: value } : { [name]: value }
      assert.throws(() => make(option), (/** @type {any} */ err) => {
        assert.equal(err.code, 'HP_ERR_UNSUPPORTED_OPTION')
        assert.ok(err.message.startsWith(`Option ${name}: `), err.message)
        assert.match(err.message, /is not supported: ./)
        return true
      })
    }
  }
})

test('the value that describes what hotpath does is accepted', () => {
  const app = hotpath({
    http2: false, http: null, return503OnClosing: true,
    connectionTimeout: 0, handlerTimeout: 0,
    allowErrorHandlerOverride: true, http2SessionTimeout: 72_000
  })
  assert.equal(typeof app.inject, 'function')
})

test('routerOptions are read as the top-level router options, and checked the same way', async () => {
  const app = hotpath({ routerOptions: { ignoreTrailingSlash: true, caseSensitive: false } })
  app.get('/Books', () => 'books')
  assert.equal((await app.inject('/books/')).body, 'books')
  assert.throws(() => hotpath({ routerOptions: { compile: true } }), { code: 'HP_ERR_UNSUPPORTED_OPTION', message: /^Option compile: true/ })
  assert.throws(() => hotpath({ routerOptions: { somethingElse: 1 } }), { code: 'HP_ERR_UNSUPPORTED_OPTION', message: /routerOptions\.somethingElse/ })
})

test('the options hotpath implements keep their type checks', () => {
  assert.throws(() => hotpath({ requestIdHeader: 3 }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ requestIdLogLabel: '' }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ disableRequestLogging: 'yes' }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ logFormat: 'pretty' }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ maxRequestsPerSocket: -1 }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ ajv: 'strict' }), { code: 'HP_ERR_INVALID_OPTION' })
})

eachMode('Fastify options hotpath implements', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  let ajvInstances = 0
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/id', (req) => { req.log.info('in handler'); return { id: req.id } })
      app.get('/a/b', () => 'ab')
      app.post('/strict', {
        schema: { body: { type: 'object', required: ['n', 'm'], properties: { n: { type: 'integer' }, m: { type: 'integer' } } } }
      }, () => 'ok')
    }, {
      logger: { level: 'info', stream },
      requestIdHeader: 'X-Request-Id',
      requestIdLogLabel: 'requestId',
      disableRequestLogging: true,
      ignoreDuplicateSlashes: true,
      maxRequestsPerSocket: 100,
      // allErrors: every failing property is reported, not the first only
      ajv: { customOptions: { allErrors: true }, plugins: [(/** @type {any} */ ajv) => { ajvInstances++; return ajv }] }
    })
  })
  after(() => s.close())

  test('requestIdHeader: the request id is the header\'s value, else genReqId\'s; requestIdLogLabel names it on log lines', async () => {
    lines.length = 0
    assert.deepEqual((await s.request({ url: '/id', headers: { 'x-request-id': 'abc-123' } })).json(), { id: 'abc-123' })
    const generated = (await s.request('/id')).json().id
    assert.match(generated, /^req-/)
    for (let i = 0; i < 100 && lines.filter((l) => l.msg === 'in handler').length < 2; i++) await sleep(5)
    const handlerLines = lines.filter((l) => l.msg === 'in handler')
    assert.deepEqual(handlerLines.map((l) => l.requestId), ['abc-123', generated])
    assert.ok(handlerLines.every((l) => !('reqId' in l)))
  })

  test('disableRequestLogging: no completion line per request, the handler\'s own lines still written', async () => {
    lines.length = 0
    assert.equal((await s.request('/id')).statusCode, 200)
    assert.equal((await s.request('/id')).statusCode, 200)
    for (let i = 0; i < 100 && lines.filter((l) => l.msg === 'in handler').length < 2; i++) await sleep(5)
    assert.equal(lines.filter((l) => l.msg === 'in handler').length, 2)
    assert.deepEqual(lines.filter((l) => l.msg === 'request completed'), [])
  })

  test('ignoreDuplicateSlashes: //a///b finds /a/b', async () => {
    const res = await s.request('//a///b')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'ab')
  })

  test('ajv: its customOptions and plugins apply to the validators', async () => {
    const res = await s.request({ method: 'POST', url: '/strict', payload: {} })
    assert.equal(res.statusCode, 400)
    // with allErrors both missing properties are named
    assert.match(res.json().message, /'n'/)
    assert.match(res.json().message, /'m'/)
    assert.ok(ajvInstances >= 1)
  })
})
