// logFormat 'fastify' (hotpath/fastify's default): the request lines as
// Fastify writes them: "incoming request" with the request (through the
// logger's `req` serializer, an app's own winning), "request completed",
// and an error under its own message. logSerializers on a route and a
// plugin; disableRequestLogging as a function of the request.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

/** @param {any[]} lines */
function sink (lines) {
  return new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
}

eachMode('logFormat fastify', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  /** @type {string[]} */
  const later = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/ok', (req) => { req.log.info({ secret: 'abc' }, 'in handler'); return 'ok' })
      app.get('/boom', () => { throw new Error('kaboom') })
      app.get('/quiet', () => 'quiet')
      app.register(async (observed) => {
        observed.addHook('onResponse', async () => { throw new Error('metrics down') })
        observed.addHook('onResponse', async () => { later.push('ran') })
        observed.get('/observed', () => 'observed')
      })
      app.register(async (api) => {
        api.get('/both', { logSerializers: { own: (v) => 'route:' + v } }, (req) => {
          req.log.info({ own: 'x', inherited: 'y' }, 'serialized')
          return 'ok'
        })
      }, { prefix: '/plugin', logSerializers: { inherited: (/** @type {string} */ v) => 'plugin:' + v, own: (/** @type {string} */ v) => 'overridden:' + v } })
    }, {
      logFormat: 'fastify',
      exposeErrorMessages: true,
      disableRequestLogging: (/** @type {any} */ req) => req.url === '/quiet',
      logger: { level: 'info', stream: sink(lines), serializers: { secret: () => '[hidden]' } }
    })
  })
  after(() => s.close())

  /** @param {(l: any[]) => boolean} enough */
  async function until (enough) {
    for (let i = 0; i < 200 && !enough(lines); i++) await sleep(5)
  }

  test('an onResponse hook that fails ends the onResponse hooks and makes the completion line \'request errored\'', async () => {
    lines.length = 0
    later.length = 0
    assert.equal((await s.request('/observed')).statusCode, 200)
    await until((l) => l.some((x) => x.msg === 'request errored'))
    const line = lines.find((l) => l.msg === 'request errored')
    assert.equal(line.level, 50)
    assert.equal(line.err.message, 'metrics down')
    assert.equal(line.res.statusCode, 200)
    assert.equal(lines.some((l) => l.msg === 'request completed'), false)
    assert.deepEqual(later, [])
  })

  test('incoming request, the handler\'s line, request completed, in order', async () => {
    lines.length = 0
    assert.equal((await s.request('/ok')).statusCode, 200)
    await until((l) => l.some((x) => x.msg === 'request completed'))
    assert.deepEqual(lines.map((l) => l.msg), ['incoming request', 'in handler', 'request completed'])
    assert.equal(lines[0].req.method, 'GET')
    assert.equal(lines[0].req.url, '/ok')
    assert.equal(typeof lines[0].req.remoteAddress, 'string')
    assert.equal(lines[1].secret, '[hidden]', "the app's own serializer")
    assert.equal(lines[2].res.statusCode, 200)
    assert.equal(typeof lines[2].responseTime, 'number')
  })

  test('an error is logged under its own message, with its status', async () => {
    lines.length = 0
    assert.equal((await s.request('/boom')).statusCode, 500)
    await until((l) => l.some((x) => x.msg === 'request completed'))
    const error = lines.find((l) => l.level === 50)
    assert.equal(error.msg, 'kaboom')
    assert.equal(error.res.statusCode, 500)
    assert.equal(error.err.message, 'kaboom')
  })

  test("logSerializers: the route's over its plugin's", async () => {
    lines.length = 0
    assert.equal((await s.request('/plugin/both')).statusCode, 200)
    await until((l) => l.some((x) => x.msg === 'serialized'))
    const line = lines.find((l) => l.msg === 'serialized')
    assert.equal(line.own, 'route:x')
    assert.equal(line.inherited, 'plugin:y')
  })

  test('disableRequestLogging as a function leaves out the lines of the requests it picks', async () => {
    lines.length = 0
    assert.equal((await s.request('/quiet')).statusCode, 200)
    assert.equal((await s.request('/ok')).statusCode, 200)
    await until((l) => l.some((x) => x.msg === 'request completed'))
    assert.deepEqual(lines.filter((l) => l.req?.url === '/quiet'), [])
    assert.ok(lines.some((l) => l.msg === 'incoming request' && l.req.url === '/ok'))
  })
})

test("hotpath's own format is one line per request, errors as 'request failed'", async () => {
  /** @type {any[]} */
  const lines = []
  const app = hotpath({ logger: { level: 'info', stream: sink(lines) } })
  app.get('/boom', () => { throw new Error('kaboom') })
  assert.equal((await app.inject('/boom')).statusCode, 500)
  for (let i = 0; i < 200 && !lines.some((x) => x.msg === 'request completed'); i++) await sleep(5)
  assert.deepEqual(lines.map((l) => l.msg), ['request failed', 'request completed'])
})

test("Fastify's default 404 logs its line; disableRequestLogging leaves out Fastify's error lines, never hotpath's", async () => {
  /** @type {any[]} */
  const lines = []
  const app = hotpath({ logFormat: 'fastify', errorFormat: 'fastify', logger: { level: 'info', stream: sink(lines) } })
  assert.equal((await app.inject('/nope?x=1')).statusCode, 404)
  for (let i = 0; i < 200 && !lines.some((x) => x.msg === 'request completed'); i++) await sleep(5)
  assert.deepEqual(lines.map((l) => l.msg), ['incoming request', 'Route GET:/nope?x=1 not found', 'request completed'])

  for (const [logFormat, expected] of /** @type {const} */ ([['fastify', []], ['hotpath', ['request failed']]])) {
    /** @type {any[]} */
    const quiet = []
    const off = hotpath({ logFormat, disableRequestLogging: true, logger: { level: 'info', stream: sink(quiet) } })
    off.get('/boom', () => { throw new Error('kaboom') })
    off.get('/done', () => 'done')
    assert.equal((await off.inject('/boom')).statusCode, 500)
    assert.equal((await off.inject('/nope')).statusCode, 404)
    assert.equal((await off.inject('/done')).statusCode, 200)
    await sleep(10)
    assert.deepEqual(quiet.map((l) => l.msg), expected, logFormat)
  }
})

test("Fastify's lines: a 5xx names the request, the completion line does not (an app's own req serializer sees only requests)", async () => {
  /** @type {any[]} */
  const lines = []
  /** @type {any[]} */
  const serialized = []
  const app = hotpath({
    logFormat: 'fastify',
    logger: { level: 'info', stream: sink(lines), serializers: { req: (r) => { serialized.push(typeof r.socket); return { method: r.method, url: r.url } } } }
  })
  app.get('/boom', () => { throw new Error('kaboom') })
  assert.equal((await app.inject('/boom')).statusCode, 500)
  for (let i = 0; i < 200 && !lines.some((x) => x.msg === 'request completed'); i++) await sleep(5)
  assert.deepEqual(lines.map((l) => [l.msg, l.req]), [
    ['incoming request', { method: 'GET', url: '/boom' }],
    ['kaboom', { method: 'GET', url: '/boom' }],
    ['request completed', undefined]
  ])
  assert.deepEqual(serialized, ['object', 'object'])
})

test("logController: a request's own lines are the controller's to write, at Fastify's points", async () => {
  const { LogController } = await import('../../lib/fastify.js')
  /** @type {any[]} */
  const lines = []
  /** @type {string[]} */
  const asked = []
  class Quiet extends LogController {
    /** @param {any} req */
    isLogDisabled (req) { asked.push(req.url); return req.url === '/quiet' }
    /** @param {any} error @param {any} request @param {any} reply */
    requestCompleted (error, request, reply) {
      if (!this.isLogDisabled(request)) reply.log.info({ status: reply.statusCode }, 'finished')
    }
  }
  const app = hotpath({ errorFormat: 'fastify', logController: new Quiet(), logger: { level: 'info', stream: sink(lines) } })
  app.get('/quiet', () => 'shh')
  app.get('/boom', () => { throw new Error('kaboom') })
  assert.equal((await app.inject('/quiet')).statusCode, 200)
  assert.equal((await app.inject('/boom')).statusCode, 500)
  assert.equal((await app.inject('/nope')).statusCode, 404)
  for (let i = 0; i < 200 && lines.filter((x) => x.msg === 'finished').length < 2; i++) await sleep(5)
  assert.deepEqual(lines.map((l) => l.msg), ['incoming request', 'kaboom', 'finished', 'incoming request', 'Route GET:/nope not found', 'finished'])
  assert.equal(lines[2].status, 500)
  assert.ok(asked.includes('/quiet'))
  assert.throws(() => hotpath({ logController: /** @type {any} */ ({}) }), { code: 'HP_ERR_INVALID_OPTION' })
})
