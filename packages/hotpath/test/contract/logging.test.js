import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

eachMode('logging', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/hello', (req) => { req.log.info({ from: 'handler' }, 'inside'); return { id: req.id } })
    }, { logger: { level: 'info', stream }, genReqId: () => 'fixed-id' })
  })
  after(() => s.close())

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
