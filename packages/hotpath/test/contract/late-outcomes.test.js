// What a handler's promise settles to after its reply was sent or hijacked:
// a value returned after sending is warned about, a rejection after
// sending is logged as an error, and after hijack() a value is the
// handler's own business; an error thrown after hijack() is logged. In
// hotpath's words, and in Fastify's (logFormat 'fastify').
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

/** @param {any} app */
function build (app) {
  app.get('/sent-then-value', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    await reply.send({ first: true })
    return { second: true }
  })
  app.get('/sent-then-reject', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    await reply.send('sent')
    throw new Error('too late')
  })
  app.get('/hijack-then-value', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.end('own answer')
    return Promise.resolve('not an answer')
  })
  app.get('/hijack-then-throw', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.end('own answer')
    throw new Error('after hijack')
  })
}

/**
 * Lets the late outcome of the request just answered have its turn: it
 * settles a few turns after the answer went out.
 * @param {any[]} lines
 * @param {number} level  stop once a line at this level or above is there
 */
async function settle (lines, level) {
  for (let i = 0; i < 20 && !lines.some((l) => l.level >= level); i++) await new Promise((resolve) => setImmediate(resolve))
}

for (const format of /** @type {const} */ (['hotpath', 'fastify'])) {
  eachMode(`a handler's late outcome, logFormat '${format}'`, (mode) => {
    /** @type {Awaited<ReturnType<typeof setup>>} */
    let s
    /** @type {any[]} */
    const lines = []
    before(async () => {
      const logger = { level: 'warn', stream: new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } }) }
      s = await setup(mode, build, format === 'fastify' ? { logger, logFormat: 'fastify', errorFormat: 'fastify', exposeErrorMessages: true } : { logger })
    })
    after(() => s.close())

    test('a value returned after sending is ignored, with a warning', async () => {
      lines.length = 0
      const res = await s.request('/sent-then-value')
      assert.deepEqual(res.json(), { first: true })
      await settle(lines, 40)
      const warn = lines.find((l) => l.level === 40)
      assert.ok(warn, 'a warning')
      if (format === 'fastify') assert.equal(warn.msg, 'Reply was already sent, did you forget to "return reply" in "/sent-then-value" (GET)?')
    })

    test('a rejection after sending is logged as an error', async () => {
      lines.length = 0
      const res = await s.request('/sent-then-reject')
      assert.equal(res.body, 'sent')
      await settle(lines, 50)
      const error = lines.find((l) => l.level === 50)
      assert.equal(error?.err?.message, 'too late')
      if (format === 'fastify') assert.equal(error.msg, 'Promise errored, but reply.sent = true was set')
    })

    test('after hijack(), a value the handler resolves to is not logged', async () => {
      lines.length = 0
      const res = await s.request('/hijack-then-value')
      assert.equal(res.body, 'own answer')
      await settle(lines, 40)
      assert.deepEqual(lines.filter((l) => l.level >= 40), [])
    })

    test('after hijack(), an error the handler throws is logged', async () => {
      lines.length = 0
      const res = await s.request('/hijack-then-throw')
      assert.equal(res.body, 'own answer')
      await settle(lines, 40)
      const line = lines.find((l) => l.level >= 40)
      if (format === 'fastify') {
        assert.equal(line?.level, 40)
        assert.equal(line.err.code, 'FST_ERR_REP_ALREADY_SENT')
      } else {
        assert.equal(line?.level, 50)
        assert.equal(line.err.message, 'after hijack')
      }
    })
  })
}
