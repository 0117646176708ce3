import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath, { HttpError } from '../../lib/index.js'
import { NOOP_LOGGER } from '../../lib/logger.js'

eachMode('logging', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  /** @type {any[]} what was logged while the app started */
  let startup = []
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/hello', (req) => { req.log.info({ from: 'handler' }, 'inside'); return { id: req.id } })
      app.get('/users/:id', (req) => ({ id: req.params.id }))
      app.get('/auth', { onRequest: () => { throw new HttpError(401, 'Token expired', { code: 'E_TOKEN' }) } }, () => 'never')
      app.get('/forbidden', async () => { throw Object.assign(new Error('not yours'), { statusCode: 403 }) })
      app.get('/boom', () => { throw new Error('boom', { cause: new Error('disk full') }) })
    }, { logger: { level: 'info', stream }, genReqId: () => 'fixed-id' })
    startup = lines.splice(0)
  })
  after(() => s.close())

  /** Waits (bounded) until `count` lines with this message were written. */
  async function logged (/** @type {string} */ msg, count = 1) {
    for (let i = 0; i < 200 && lines.filter((l) => l.msg === msg).length < count; i++) await sleep(5)
    return lines.filter((l) => l.msg === msg)
  }

  test('child logger carries reqId; one completion line with status and response time', async () => {
    lines.length = 0
    const res = await s.request('/hello')
    assert.deepEqual(res.json(), { id: 'fixed-id' })
    for (let i = 0; i < 50 && !lines.some((l) => l.msg === 'request completed'); i++) await sleep(5)
    const inside = lines.filter((l) => l.msg === 'inside')
    assert.equal(inside.length, 1)
    assert.equal(inside[0].reqId, 'fixed-id')
    const done = lines.filter((l) => l.msg === 'request completed')
    assert.equal(done.length, 1)
    assert.equal(done[0].reqId, 'fixed-id')
    assert.equal(done[0].res.statusCode, 200)
    assert.equal(typeof done[0].responseTime, 'number')
  })

  test('the completion line carries the method, the url, the route template, the status and the time', async () => {
    lines.length = 0
    const res = await s.request('/users/42?fields=name')
    assert.equal(res.statusCode, 200)
    const done = await logged('request completed')
    assert.equal(done.length, 1)
    assert.deepEqual(done[0].req, { method: 'GET', url: '/users/42?fields=name', route: '/users/:id' })
    assert.deepEqual(done[0].res, { statusCode: 200 })
    assert.equal(done[0].reqId, 'fixed-id')
    assert.ok(done[0].responseTime >= 0)
    // one line per request: nothing else was logged for it
    assert.deepEqual(lines.map((l) => l.msg), ['request completed'])
  })

  test('an unmatched url has no route template on its line', async () => {
    lines.length = 0
    const res = await s.request('/nowhere')
    assert.equal(res.statusCode, 404)
    const [done] = await logged('request completed')
    assert.deepEqual(done.req, { method: 'GET', url: '/nowhere' })
    assert.equal(done.res.statusCode, 404)
  })

  test('a client error is one info line with its status, code and message, not a broken error object', async () => {
    lines.length = 0
    assert.equal((await s.request('/auth')).statusCode, 401)
    assert.equal((await s.request('/forbidden')).statusCode, 403)
    const rejected = await logged('request rejected', 2)
    assert.equal(rejected.length, 2)
    const [auth, forbidden] = rejected
    assert.equal(auth.level, 30)
    assert.equal(auth.reqId, 'fixed-id')
    assert.deepEqual(auth.res, { statusCode: 401 })
    assert.deepEqual(auth.error, { type: 'HttpError', code: 'E_TOKEN', message: 'Token expired' })
    assert.equal(auth.err, undefined)
    assert.equal(forbidden.level, 30)
    assert.deepEqual(forbidden.res, { statusCode: 403 })
    assert.deepEqual(forbidden.error, { type: 'Error', message: 'not yours' })
  })

  test('a server error is logged at error level with the whole error: stack and cause', async () => {
    lines.length = 0
    assert.equal((await s.request('/boom')).statusCode, 500)
    const [failed] = await logged('request failed')
    assert.equal(failed.level, 50)
    assert.deepEqual(failed.res, { statusCode: 500 })
    assert.equal(failed.err.type, 'Error')
    assert.equal(failed.err.message, 'boom: disk full')
    assert.match(failed.err.stack, /^Error: boom\n\s+at /)
    assert.match(failed.err.stack, /caused by: Error: disk full/)
  })

  test('listening logs the address once', () => {
    const listening = startup.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('Server listening at '))
    if (mode === 'inject') {
      assert.equal(listening.length, 0)
      return
    }
    assert.equal(listening.length, 1)
    assert.equal(listening[0].level, 30)
    assert.equal(listening[0].msg, `Server listening at http://127.0.0.1:${s.port}`)
  })
})

test('logging off: req.log is a shared no-op, nothing is created per request', async () => {
  const app = hotpath()
  /** @type {any[]} */
  const logs = []
  app.get('/', (req) => { logs.push(req.log); req.log.info('ignored'); return 'x' })
  await app.inject('/')
  await app.inject('/')
  assert.equal(logs[0], logs[1])
  assert.equal(logs[0].child(), logs[0])
  await app.close()
})

test('logging off: an error answer builds no log line (the no-op logger is not even called)', async () => {
  const app = hotpath()
  app.get('/auth', { onRequest: () => { throw new HttpError(401, 'Token expired') } }, () => 'never')
  app.get('/boom', () => { throw new Error('boom') })
  /** @type {any} */
  const noop = NOOP_LOGGER
  const saved = { info: noop.info, error: noop.error }
  let calls = 0
  noop.info = noop.error = () => { calls++ }
  try {
    assert.equal((await app.inject('/auth')).statusCode, 401)
    assert.equal((await app.inject('/boom')).statusCode, 500)
  } finally {
    Object.assign(noop, saved)
  }
  assert.equal(calls, 0)
  await app.close()
})
