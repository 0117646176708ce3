// setGenReqId and setChildLoggerFactory: per plugin context, inherited by
// children, shared by plugin()-wrapped plugins; the childLoggerFactory
// option at the root.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Readable, Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'
import { plugin } from '../../lib/index.js'

eachMode('request ids and request loggers per context', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  /** @type {any[]} what each genReqId was given */
  const given = []
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/root', (req) => ({ id: req.id }))
      app.register(async (child) => {
        child.setGenReqId((raw) => {
          given.push(raw)
          return 'child-' + raw.headers['x-n']
        })
        child.setChildLoggerFactory(function (logger, bindings, opts) {
          const log = logger.child({ ...bindings, scope: 'child' }, opts)
          log.tagged = true
          return log
        })
        child.get('/child', (req) => {
          req.log.info('from child')
          return { id: req.id, tagged: req.log.tagged === true }
        })
        child.get('/own', {
          childLoggerFactory (logger, bindings, opts) {
            const log = logger.child({ ...bindings, scope: 'route' }, opts)
            log.own = true
            return log
          }
        }, (req) => ({ tagged: req.log.tagged === true, own: req.log.own === true }))
        child.register(async (grandchild) => {
          grandchild.get('/grandchild', (req) => ({ id: req.id, tagged: req.log.tagged === true }))
        })
      }, { prefix: '/c' })
      app.register(plugin(async (shared) => {
        shared.setGenReqId(() => 'shared')
      }))
      app.register(async (invalid) => {
        invalid.setChildLoggerFactory(() => ({ info () {} }))
        invalid.get('/invalid', (req) => { req.log.info('never'); return 'never' })
      })
    }, { logger: { level: 'info', stream } })
  })
  after(() => s.close())

  test('a context\'s genReqId gives its routes\' and its children\'s ids, from node:http\'s IncomingMessage', async () => {
    given.length = 0
    assert.deepEqual((await s.request({ url: '/c/child', headers: { 'x-n': '1' } })).json(), { id: 'child-1', tagged: true })
    assert.deepEqual((await s.request({ url: '/c/grandchild', headers: { 'x-n': '2' } })).json(), { id: 'child-2', tagged: true })
    assert.equal(given.length, 2)
    for (const raw of given) {
      assert.ok(raw instanceof Readable)
      assert.ok(Array.isArray(raw.rawHeaders))
      assert.equal('raw' in raw, false)
    }
  })

  test('a plugin()-wrapped plugin sets its parent\'s genReqId', async () => {
    assert.deepEqual((await s.request('/root')).json(), { id: 'shared' })
    assert.equal(typeof s.app.genReqId, 'function')
    assert.equal(s.app.genReqId({ headers: {} }), 'shared')
  })

  test('a request\'s logger is what the childLoggerFactory made, with the request id', async () => {
    lines.length = 0
    await s.request({ url: '/c/child', headers: { 'x-n': '3' } })
    const line = lines.find((l) => l.msg === 'from child')
    assert.equal(line.reqId, 'child-3')
    assert.equal(line.scope, 'child')
  })

  test('a route\'s childLoggerFactory option makes its requests\' loggers in place of its plugin\'s', async () => {
    assert.deepEqual((await s.request({ url: '/c/own', headers: { 'x-n': '4' } })).json(), { tagged: false, own: true })
    assert.deepEqual((await s.request({ url: '/c/child', headers: { 'x-n': '5' } })).json(), { id: 'child-5', tagged: true })
  })

  test('a childLoggerFactory that returns no logger fails the request that asked for it', async () => {
    const res = await s.request('/invalid')
    assert.equal(res.statusCode, 500)
  })
})

test('the childLoggerFactory option makes every request\'s logger; childLoggerFactory reads the one that applies', async () => {
  /** @type {unknown[]} */
  const calls = []
  const { hotpath } = await import('../../lib/index.js')
  const app = hotpath({
    childLoggerFactory: function (logger, bindings, opts) {
      calls.push({ self: this === app, bindings, opts })
      return logger.child(bindings, opts)
    }
  })
  app.get('/', { logLevel: 'warn' }, (req) => { req.log.info('x'); return 'ok' })
  assert.equal(app.childLoggerFactory.length, 3)
  const res = await app.inject('/')
  assert.equal(res.body, 'ok')
  assert.deepEqual(calls, [{ self: true, bindings: { reqId: 'req-1' }, opts: { level: 'warn' } }])
  assert.throws(() => app.setChildLoggerFactory(() => {}), { code: 'HP_ERR_HOOK_AFTER_READY' })
})

test('setGenReqId and setChildLoggerFactory refuse what is not a function', () => {
  return import('../../lib/index.js').then(({ hotpath }) => {
    const app = hotpath()
    assert.throws(() => app.setGenReqId(/** @type {any} */ ('x')), { code: 'HP_ERR_INVALID_OPTION' })
    assert.throws(() => app.setChildLoggerFactory(/** @type {any} */ (null)), { code: 'HP_ERR_INVALID_OPTION' })
    assert.throws(() => hotpath({ childLoggerFactory: 1 }), { code: 'HP_ERR_INVALID_OPTION' })
    assert.throws(() => app.get('/', { childLoggerFactory: /** @type {any} */ ('x') }, () => 'x'), { code: 'HP_ERR_INVALID_OPTION' })
  })
})

test('logger and loggerInstance: one of them, a logger whole, and under Fastify\'s errors a logger only as loggerInstance', async () => {
  const { hotpath } = await import('../../lib/index.js')
  const { fastify } = await import('../../lib/fastify.js')
  const { default: pino } = await import('pino')
  const made = pino({ level: 'silent' })
  assert.throws(() => hotpath({ logger: { level: 'info' }, loggerInstance: made }), { code: 'HP_ERR_LOGGER_AND_INSTANCE' })
  assert.throws(() => hotpath({ loggerInstance: { level: 'info' } }), { code: 'HP_ERR_LOGGER_INSTANCE' })
  assert.throws(() => hotpath({ logger: /** @type {any} */ (console) }), { code: 'HP_ERR_LOGGER_INVALID', message: /fatal,child/ })
  assert.equal(hotpath({ logger: made }).log.level, 'silent')
  assert.throws(() => fastify({ logger: made }), { code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG' })
  assert.equal(fastify({ loggerInstance: made }).log.level, 'silent')
})

test("the logger's `file` option writes the lines to that file; stream and file together are refused", async () => {
  const { hotpath } = await import('../../lib/index.js')
  const { mkdtempSync, readFileSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const file = join(mkdtempSync(join(tmpdir(), 'hotpath-log-')), 'app.log')
  const app = hotpath({ logger: { level: 'info', file } })
  app.get('/', (req) => { req.log.info('to the file'); return 'ok' })
  assert.equal((await app.inject('/')).body, 'ok')
  const { default: pino } = await import('pino')
  const stream = /** @type {any} */ (app.log)[pino.symbols.streamSym]
  for (let i = 0; i < 100 && !stream.ready; i++) await new Promise((resolve) => setTimeout(resolve, 5))
  stream.flushSync()
  assert.match(readFileSync(file, 'utf8'), /"msg":"to the file"/)
  await app.close()
  assert.throws(() => hotpath({ logger: { file, stream: process.stdout } }), { code: 'HP_ERR_INVALID_OPTION' })
})
