// With exposeErrorMessages (hotpath/fastify's default), a head the engine
// refuses answers 500 with the refusal's own code and message, as Fastify
// answers it, and none of the reply's headers; logFormat 'fastify' logs it
// as a warning under its message.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('a refused header, with exposeErrorMessages', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', (req, reply) => reply.header('x-kept', 'no').header('x-bad', 'smile 😄').send({ ok: true }))
      app.get('/redirect', (req, reply) => reply.redirect('/?key=a’b'))
    }, {
      exposeErrorMessages: true,
      logFormat: 'fastify',
      logger: { level: 'warn', stream: new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } }) }
    })
  })
  after(() => s.close())

  test('answers 500 with ERR_INVALID_CHAR and its message, without the reply\'s headers, logged as a warning', async () => {
    lines.length = 0
    const res = await s.request('/')
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, code: 'ERR_INVALID_CHAR', error: 'Internal Server Error', message: 'Invalid character in header content ["x-bad"]' })
    assert.equal(res.headers['x-kept'], undefined)
    const warn = lines.find((l) => l.level === 40)
    assert.equal(warn?.msg, 'Invalid character in header content ["x-bad"]')
  })

  test('a Location that cannot be a header value, the same', async () => {
    const res = await s.request('/redirect')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'ERR_INVALID_CHAR')
  })
})
