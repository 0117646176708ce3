// The status line's reason phrase and an error body's `error` field, as
// node:http and Fastify make them: a code node has no name for goes out as
// `unknown` and its error body has no `error` (a 499, which some proxies
// use); a phrase the app set on the node:http object (`statusMessage`,
// `writeHead(code, message)`) goes out in the status line, on every engine
// and through inject(); one with a line break does not. Compared with
// Fastify through inject() and over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'
import { MODES, setup } from '../helpers/engines.js'

/** @param {any} app */
function build (app) {
  app.get('/code/:c', (/** @type {any} */ req, /** @type {any} */ reply) => reply.code(Number(req.params.c)).send('x'))
  app.get('/throw/:c', (/** @type {any} */ req) => {
    throw Object.assign(new Error('thrown'), { statusCode: Number(req.params.c) })
  })
  app.get('/own-message', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.raw.statusMessage = 'Custom Phrase'
    reply.send('x')
  })
  app.get('/write-head', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.writeHead(202, 'Taken In', { 'content-type': 'text/plain' })
    reply.raw.end('raw')
  })
  app.get('/stream-message', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    const { Readable } = await import('node:stream')
    reply.raw.statusMessage = 'Streaming Along'
    return reply.send(Readable.from(['a', 'b']))
  })
}

const PATHS = ['/code/499', '/code/299', '/code/418', '/throw/499', '/throw/425', '/throw/599', '/own-message', '/write-head', '/stream-message']

test('reason phrases and error bodies for codes node has no name for, and phrases set on reply.raw, as on Fastify', async () => {
  const answers = await besideFastify(build, PATHS)
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.equal(hotpath.statusMessage, fastify.statusMessage, what)
    assert.equal(hotpath.body, fastify.body, what)
  }
  const fastifyInject = answers.filter((a) => a.mode === 'inject').map((a) => a.fastify.statusMessage)
  assert.deepEqual(fastifyInject, ['unknown', 'unknown', "I'm a Teapot", 'unknown', 'Too Early', 'unknown', 'Custom Phrase', 'Taken In', 'Streaming Along'])
  const body499 = answers.find((a) => a.mode === 'wire' && a.what.startsWith('GET /throw/499'))
  assert.deepEqual(JSON.parse(/** @type {any} */ (body499).hotpath.body), { statusCode: 499, message: 'thrown' })
})

// Fastify's own answer here is an unhandled TypeError (node's writeHead
// refuses the phrase after the reply was sent), so hotpath alone: the
// phrase is refused as a header no socket may carry is (header-refusal's
// 500), and never written.
for (const mode of MODES) {
  test(`a phrase with a line break set on reply.raw is refused with a 500, never written [${mode}]`, async () => {
    const s = await setup(mode, (/** @type {any} */ app) => {
      app.get('/bad', (/** @type {any} */ req, /** @type {any} */ reply) => {
        reply.raw.statusMessage = 'Fine\r\nX-Injected: 1'
        reply.send('x')
      })
    })
    try {
      const res = await s.request('/bad')
      assert.equal(res.headers['x-injected'], undefined)
      if (mode === 'h2') {
        // HTTP/2 has no reason phrase (RFC 9113 §8.3.2): node's object ignores it
        assert.equal(res.statusCode, 200)
        assert.equal(res.body, 'x')
      } else {
        assert.equal(res.statusCode, 500)
        assert.equal(res.statusMessage, 'Internal Server Error')
        assert.equal(JSON.parse(res.body).message, 'Internal Server Error')
      }
    } finally {
      await s.close()
    }
  })
}

test('reply.raw.statusCode and statusMessage after the answer, read by an onResponse hook, are what went out, as on Fastify', async () => {
  /** @param {any} app */
  const build = (app) => {
    /** @type {unknown[]} */
    const seen = []
    app.addHook('onResponse', async (/** @type {any} */ req, /** @type {any} */ reply) => {
      if (req.url !== '/seen') seen.push([reply.raw.statusCode, reply.raw.statusMessage])
    })
    app.get('/ok', () => 'x')
    app.get('/code/:c', (/** @type {any} */ req, /** @type {any} */ reply) => reply.code(Number(req.params.c)).send('x'))
    app.get('/seen', () => seen.splice(0))
  }
  const answers = await besideFastify(build, ['/ok', '/code/404', '/code/499', '/seen'])
  const seen = answers.filter((a) => a.what.startsWith('GET /seen')).map((a) => [a.what, JSON.parse(a.hotpath.body), JSON.parse(a.fastify.body)])
  for (const [what, ours, theirs] of seen) assert.deepEqual(ours, theirs, what)
  assert.deepEqual(JSON.parse(/** @type {any} */ (answers.find((a) => a.what === 'GET /seen [wire]')).fastify.body), [[200, 'OK'], [404, 'Not Found'], [499, 'unknown']])
})

// An answer refused for a header no socket may carry, after reply.raw was
// touched: the 500 that follows goes out with its own phrase, not the one
// node's object was given for the refused answer ("500 OK" before)
for (const mode of MODES) {
  test(`the 500 after a refused header carries its own phrase [${mode}]`, async () => {
    const s = await setup(mode, (/** @type {any} */ app) => {
      app.get('/bad-header', (/** @type {any} */ req, /** @type {any} */ reply) => {
        reply.raw.setHeader('x-fine', '1')
        reply.header('x-bad', 'a\nb')
        return 'x'
      })
    })
    try {
      const res = await s.request('/bad-header')
      assert.equal(res.statusCode, 500)
      if (mode !== 'h2') assert.equal(res.statusMessage, 'Internal Server Error')
    } finally {
      await s.close()
    }
  })
}
