// Fastify's `logLevel` on a route, or on the register() of a plugin: that
// route's requests, and hotpath's own lines about them, log at that level;
// 'silent' logs nothing. `reply.log` is the request's logger.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

eachMode('route and plugin logLevel', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/normal', (req) => { req.log.info('normal info'); req.log.debug('normal debug'); return 'ok' })
      app.get('/health', { logLevel: 'silent' }, (req, reply) => { req.log.error('health error'); reply.log.warn('health warn'); return 'ok' })
      app.get('/verbose', { logLevel: 'debug' }, (req) => { req.log.debug('verbose debug'); return 'ok' })
      app.register(async (api) => {
        api.get('/quiet', (req) => { req.log.info('plugin info'); req.log.warn('plugin warn'); return 'ok' })
        api.get('/loud', { logLevel: 'info' }, (req) => { req.log.info('route info inside a warn plugin'); return 'ok' })
      }, { prefix: '/plugin', logLevel: 'warn' })
    }, { logger: { level: 'info', stream } })
  })
  after(() => s.close())

  /** Requests `path`, then /normal, and waits for /normal's completion line: every line of the first request is written by then. */
  async function linesOf (/** @type {string} */ path) {
    lines.length = 0
    assert.equal((await s.request(path)).statusCode, 200)
    assert.equal((await s.request('/normal')).statusCode, 200)
    for (let i = 0; i < 200 && !lines.some((l) => l.msg === 'request completed' && l.req?.url === '/normal'); i++) await sleep(5)
    return lines.filter((l) => l.req?.url !== '/normal' && !['normal info', 'normal debug'].includes(l.msg))
  }

  test('a route at the app level logs its info lines and its completion, not its debug lines', async () => {
    lines.length = 0
    await s.request('/normal')
    for (let i = 0; i < 200 && !lines.some((l) => l.msg === 'request completed'); i++) await sleep(5)
    assert.deepEqual(lines.map((l) => l.msg), ['normal info', 'request completed'])
  })

  test("logLevel 'silent' on a route: nothing at all for its requests, reply.log included", async () => {
    assert.deepEqual(await linesOf('/health'), [])
  })

  test("logLevel 'debug' on a route: its debug lines too", async () => {
    assert.deepEqual((await linesOf('/verbose')).map((l) => l.msg), ['verbose debug', 'request completed'])
  })

  test("a plugin registered with logLevel 'warn': its routes' info lines and completion lines are not written, their warnings are", async () => {
    assert.deepEqual((await linesOf('/plugin/quiet')).map((l) => l.msg), ['plugin warn'])
  })

  test("a route's own logLevel wins over its plugin's", async () => {
    assert.deepEqual((await linesOf('/plugin/loud')).map((l) => l.msg), ['route info inside a warn plugin', 'request completed'])
  })
})

test('a logLevel that is not a level is refused at once on a route, and at ready() on a plugin', async () => {
  const app = hotpath()
  assert.throws(() => app.get('/', { logLevel: 'verbose' }, () => 'ok'), { code: 'HP_ERR_ROUTE_LOG_LEVEL', message: "Route GET:/ has an invalid logLevel: 'verbose'" })
  assert.throws(() => app.get('/', { logLevel: 30 }, () => 'ok'), { code: 'HP_ERR_ROUTE_LOG_LEVEL' })
  // null is no level of its own, as in Fastify
  app.get('/none', { logLevel: null }, () => 'ok')
  app.register(async () => {}, { logLevel: 'loud' })
  await assert.rejects(app.ready(), { code: 'HP_ERR_INVALID_OPTION', message: /logLevel/ })
})

test("logLevel with logging off costs nothing and logs nothing; reply.log is the request's logger", async () => {
  const app = hotpath()
  /** @type {boolean[]} */
  const same = []
  app.get('/', { logLevel: 'debug' }, (req, reply) => { same.push(reply.log === req.log); req.log.debug('x'); return 'ok' })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(same, [true])
})

test("a custom level of the app's logger is a level", async () => {
  const lines = /** @type {any[]} */ ([])
  const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
  const app = hotpath({ logger: { level: 'info', customLevels: { audit: 35 }, stream } })
  app.get('/', { logLevel: 'audit' }, (req) => { req.log.info('below audit'); /** @type {any} */ (req.log).audit('audited'); return 'ok' })
  assert.equal((await app.inject('/')).statusCode, 200)
  assert.deepEqual(lines.map((l) => l.msg), ['audited'])
})
