// What middleware set on the response object stays there once they call
// next(), as on node's response under Fastify and @fastify/middie: the
// route reads it through reply.raw too, and the answer carries it once.
// A chain of middleware sets each of the reply's headers on the object
// once (lib/lifecycle/middleware.js), however many middleware follow.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import helmet from 'helmet'
import hotpathFastify from '../../lib/fastify.js'
import { eachMode, setup, httpRequest } from '../helpers/engines.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')
const middie = require('@fastify/middie')

/**
 * Two middleware that set headers, the second reading the first's, and a
 * route that reads them back through the reply and its raw object.
 * @param {any} app
 */
function build (app) {
  app.use((/** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => {
    res.setHeader('x-first', 'a')
    res.setHeader('x-request-id', 'r-1')
    next()
  })
  app.use((/** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => {
    res.setHeader('x-second', res.getHeader('x-first') + '2')
    next()
  })
  app.get('/', (/** @type {any} */ _req, /** @type {any} */ reply) => ({
    raw: reply.raw.getHeader('x-request-id') ?? null,
    rawNames: reply.raw.getHeaderNames().filter((/** @type {string} */ n) => n.startsWith('x-')).sort(),
    rawHas: reply.raw.hasHeader('x-second'),
    own: reply.getHeader('x-second') ?? null
  }))
}

for (const mode of ['inject', 'node', 'wire']) {
  test(`a middleware's header stays on reply.raw after next(), as with Fastify and @fastify/middie [${mode}]`, async () => {
    const fastify = Fastify()
    await fastify.register(middie)
    build(fastify)
    const app = hotpathFastify(mode === 'inject' ? {} : { engine: mode })
    build(app)
    try {
      const answers = []
      for (const server of [fastify, app]) {
        if (mode === 'inject') {
          const res = await server.inject('/')
          answers.push({ status: res.statusCode, body: res.body, first: res.headers['x-first'], second: res.headers['x-second'], id: res.headers['x-request-id'] })
        } else {
          await server.listen({ port: 0, host: '127.0.0.1' })
          const res = await httpRequest(server.server.address().port, { url: '/' })
          answers.push({ status: res.statusCode, body: res.body, first: res.headers['x-first'], second: res.headers['x-second'], id: res.headers['x-request-id'] })
        }
      }
      const [theirs, ours] = answers
      assert.deepEqual(JSON.parse(theirs.body), { raw: 'r-1', rawNames: ['x-first', 'x-request-id', 'x-second'], rawHas: true, own: 'a2' })
      assert.deepEqual(ours, theirs)
    } finally {
      await Promise.all([fastify.close(), app.close()])
    }
  })
}

eachMode('a chain of middleware', (mode) => {
  /**
   * Calls of setHeader on the response object while `count` middleware
   * that do nothing follow helmet.
   * @param {number} count
   */
  async function setHeaderCalls (count) {
    let calls = 0
    const s = await setup(mode, (app) => {
      app.use((/** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => {
        const own = res.setHeader
        res.setHeader = function (/** @type {any[]} */ ...args) {
          calls++
          return own.apply(this, args)
        }
        next()
      })
      app.use(helmet())
      for (let i = 0; i < count; i++) app.use((/** @type {any} */ _req, /** @type {any} */ _res, /** @type {Function} */ next) => next())
      app.get('/', () => ({ ok: true }))
    })
    try {
      const res = await s.request('/')
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
      assert.equal(res.headers['content-security-policy']?.startsWith("default-src 'self'"), true)
      return calls
    } finally {
      await s.close()
    }
  }

  test("sets each of helmet's headers on the response object once, however many middleware follow", async () => {
    const alone = await setHeaderCalls(0)
    assert.ok(alone >= 10, `helmet set ${alone} headers`)
    assert.equal(await setHeaderCalls(3), alone)
  })
})

/**
 * helmet and a header-setting middleware, then routes that remove two of
 * those headers, fail, or are not there.
 * @param {any} app
 */
function buildAnswers (app) {
  app.use(helmet())
  app.use((/** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => { res.setHeader('x-mw', 'a'); next() })
  app.get('/removed', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.removeHeader('x-frame-options'); reply.removeHeader('x-mw'); return 'ok' })
  app.get('/fails', async () => { throw new Error('boom') })
  app.get('/refused', async () => { throw Object.assign(new Error('bad'), { statusCode: 400 }) })
}

for (const mode of ['inject', 'node', 'wire']) {
  test(`headers a middleware set, kept on the response object: a route's removal and an error answer as with Fastify and @fastify/middie [${mode}]`, async () => {
    const fastify = Fastify()
    await fastify.register(middie)
    buildAnswers(fastify)
    const app = hotpathFastify(mode === 'inject' ? {} : { engine: mode })
    buildAnswers(app)
    try {
      /** @type {Record<string, any>[]} */
      const answers = [{}, {}]
      for (const [i, server] of [fastify, app].entries()) {
        if (mode !== 'inject') await server.listen({ port: 0, host: '127.0.0.1' })
        for (const url of ['/removed', '/fails', '/refused', '/missing']) {
          const res = mode === 'inject' ? await server.inject(url) : await httpRequest(server.server.address().port, { url })
          answers[i][url] = { status: res.statusCode, frame: res.headers['x-frame-options'] ?? null, mw: res.headers['x-mw'] ?? null, csp: typeof res.headers['content-security-policy'] }
        }
      }
      const [theirs, ours] = answers
      assert.deepEqual(theirs['/removed'], { status: 200, frame: null, mw: null, csp: 'string' })
      assert.deepEqual(theirs['/fails'], { status: 500, frame: 'SAMEORIGIN', mw: 'a', csp: 'string' })
      assert.deepEqual(ours, theirs)
    } finally {
      await Promise.all([fastify.close(), app.close()])
    }
  })
}
