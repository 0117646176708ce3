import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('send(): what cannot be sent, and a second send', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/locked', (req, reply) => {
        const body = new ReadableStream({ start (c) { c.enqueue(new TextEncoder().encode('x')); c.close() } })
        const reader = body.getReader()
        reply.send(body)
        reader.releaseLock()
      })
      app.get('/used', async () => {
        const response = new Response('read already')
        await response.text()
        return response
      })
      app.get('/twice', (req, reply) => {
        reply.send('first')
        reply.send('second')
      })
    }, {
      exposeErrorMessages: true,
      logger: { level: 'warn', stream: new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } }) }
    })
  })
  after(() => s.close())

  test('a locked web stream answers 500 HP_ERR_STREAM_LOCKED', async () => {
    const res = await s.request('/locked')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'HP_ERR_STREAM_LOCKED')
  })

  test('a Response whose body was read answers 500 HP_ERR_RESPONSE_BODY_USED', async () => {
    const res = await s.request('/used')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'HP_ERR_RESPONSE_BODY_USED')
  })

  test('a second send() is ignored and logged as a warning carrying HP_ERR_REP_ALREADY_SENT', async () => {
    lines.length = 0
    const res = await s.request('/twice')
    assert.equal(res.body, 'first')
    const warn = lines.find((l) => l.level === 40)
    assert.equal(warn?.err?.code, 'HP_ERR_REP_ALREADY_SENT')
    assert.match(warn.err.message, /'\/twice' \(GET\)/)
  })
})
