import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('a hook that fails after hijack()', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/hijacked', {
        onRequest: async (req, reply) => {
          reply.hijack()
          reply.raw.end('answered by hand')
          throw new Error('after hijack')
        }
      }, () => 'not reached')
      app.get('/sent', {
        onRequest: async (req, reply) => {
          reply.send('answered')
          throw new Error('after send')
        }
      }, () => 'not reached')
    }, { logger: { level: 'debug', stream: new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } }) } })
  })
  after(() => s.close())

  test('is user code\'s: logged at debug level, not as a server error', async () => {
    lines.length = 0
    const res = await s.request('/hijacked')
    assert.equal(res.body, 'answered by hand')
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(lines.filter((l) => l.level >= 40).length, 0)
    assert.ok(lines.some((l) => l.level === 20 && l.err?.message === 'after hijack'))
  })

  test('after send() it is still logged as an error', async () => {
    lines.length = 0
    const res = await s.request('/sent')
    assert.equal(res.body, 'answered')
    await new Promise((resolve) => setImmediate(resolve))
    assert.ok(lines.some((l) => l.level === 50 && l.err?.message === 'after send'))
  })
})
