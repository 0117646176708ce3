import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('lifecycle', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Map<string, string[]>} */
  const seen = new Map()
  /** @param {any} req @param {string} what */
  const mark = (req, what) => {
    const id = req.headers['x-test']
    if (!seen.has(id)) seen.set(id, [])
    seen.get(id)?.push(what)
  }

  before(async () => {
    s = await setup(mode, (app) => {
      app.addHook('onRequest', (req) => mark(req, 'onRequest'))
      app.addHook('preParsing', async (req) => mark(req, 'preParsing'))
      app.addHook('preValidation', (req) => mark(req, 'preValidation'))
      app.addHook('preHandler', async (req) => { await sleep(1); mark(req, 'preHandler') })
      app.addHook('preSerialization', (req, reply, payload) => { mark(req, 'preSerialization'); return payload })
      app.addHook('onSend', (req, reply, payload) => { mark(req, 'onSend') })
      app.addHook('onResponse', (req) => mark(req, 'onResponse'))
      app.addHook('onError', (req) => mark(req, 'onError'))
      app.post('/order', (req) => { mark(req, 'handler'); return { body: req.body } })
      app.get('/fail', (req) => { mark(req, 'handler'); throw new Error('boom') })

      app.register(async (child) => {
        child.addHook('onRequest', (req, reply) => {
          if (req.query.stop === 'sync') reply.code(403).send({ stopped: 'sync' })
        })
        child.addHook('preHandler', async (req, reply) => {
          if (req.query.stop === 'async') { await sleep(1); reply.code(403).send({ stopped: 'async' }) }
        })
        child.get('/guarded', () => ({ reached: true }))
      })

      app.register(async (child) => {
        child.addHook('preSerialization', (req, reply, payload) => ({ ...payload, wrapped: true }))
        child.addHook('onSend', async (req, reply, payload) => payload.replace('"x"', '"y"'))
        child.get('/replace', () => ({ v: 'x' }))
        child.get('/replace-string', () => 'x')
      })
    })
  })
  after(() => s.close())

  test('hooks run in the documented order, onResponse after the write', async () => {
    const res = await s.request({ method: 'POST', url: '/order', headers: { 'x-test': 'a' }, payload: { n: 1 } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: { n: 1 } })
    // onResponse runs once the response is handed to the socket: give it a turn.
    for (let i = 0; i < 50 && !seen.get('a')?.includes('onResponse'); i++) await sleep(5)
    assert.deepEqual(seen.get('a'), ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse'])
  })

  test('onError runs before the error handler, then onSend', async () => {
    const res = await s.request({ url: '/fail', headers: { 'x-test': 'b' } })
    assert.equal(res.statusCode, 500)
    for (let i = 0; i < 50 && !seen.get('b')?.includes('onResponse'); i++) await sleep(5)
    // preParsing runs for a GET too, as in Fastify
    assert.deepEqual(seen.get('b'), ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'onError', 'preSerialization', 'onSend', 'onResponse'])
  })

  test('a hook that sends ends the lifecycle (sync and async)', async () => {
    const a = await s.request('/guarded?stop=sync')
    assert.equal(a.statusCode, 403)
    assert.deepEqual(a.json(), { stopped: 'sync' })
    const b = await s.request('/guarded?stop=async')
    assert.equal(b.statusCode, 403)
    assert.deepEqual(b.json(), { stopped: 'async' })
    assert.deepEqual((await s.request('/guarded')).json(), { reached: true })
  })

  test('preSerialization and onSend replace the payload', async () => {
    assert.deepEqual((await s.request('/replace')).json(), { v: 'y', wrapped: true })
    // strings skip preSerialization but pass through onSend
    assert.equal((await s.request('/replace-string')).body, 'x')
  })
})
