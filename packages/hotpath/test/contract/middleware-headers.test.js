// One response, whoever writes its headers: what a middleware sets on the
// response object is the reply's own once it calls next(), visible to
// reply.getHeader()/getHeaders() and sent once; Vary is added to, never
// replaced, whoever sets it.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import cors from 'cors'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('headers set by middleware', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.register(async (api) => {
        api.use(cors({ origin: 'https://example.com' }))
        api.use((/** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => {
          res.setHeader('x-from-middleware', 'yes')
          res.setHeader('set-cookie', 'mw=1')
          next()
        })
        // an async middleware, which calls next() later
        api.use((/** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => {
          setTimeout(() => { res.setHeader('x-later', 'later'); next() }, 5)
        })
        api.get('/seen', (req, reply) => {
          reply.header('vary', 'Accept-Encoding')
          reply.header('set-cookie', 'route=2')
          return {
            origin: reply.getHeader('access-control-allow-origin') ?? null,
            fromMiddleware: reply.getHeader('x-from-middleware') ?? null,
            later: reply.getHeader('x-later') ?? null,
            names: Object.keys(reply.getHeaders()).filter((n) => n.startsWith('x-')).sort()
          }
        })
        api.get('/own-wins', { onRequest: (_req, reply) => { reply.header('x-from-middleware', 'hook') } }, () => 'ok')
      }, { prefix: '/mw' })
    })
  })
  after(() => s.close())

  test('the route sees them through reply.getHeader() and getHeaders()', async () => {
    const res = await s.request({ url: '/mw/seen', headers: { origin: 'https://example.com' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { origin: 'https://example.com', fromMiddleware: 'yes', later: 'later', names: ['x-from-middleware', 'x-later'] })
  })

  test("a route's Vary adds to cors's Vary: Origin; Set-Cookie keeps both; each header is sent once", async () => {
    const res = await s.request({ url: '/mw/seen', headers: { origin: 'https://example.com' } })
    assert.equal(res.headers.vary, 'Origin, Accept-Encoding')
    assert.deepEqual(res.headers['set-cookie'], ['mw=1', 'route=2'])
    assert.equal(res.headers['access-control-allow-origin'], 'https://example.com')
    assert.equal(res.headers['x-from-middleware'], 'yes')
  })

  test('a header the reply already had keeps its value', async () => {
    const res = await s.request('/mw/own-wins')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-from-middleware'], 'hook')
  })
})

test('reply.header(vary) adds fields once each, case-insensitively; * stands for all', async () => {
  const { default: hotpath } = await import('../../lib/index.js')
  const app = hotpath()
  app.get('/twice', (_req, reply) => reply.header('vary', 'Origin').header('vary', 'accept-encoding, origin').header('vary', ['Accept-Encoding', 'Cookie']).send('ok'))
  app.get('/star', (_req, reply) => reply.header('vary', 'Origin').header('vary', '*').send('ok'))
  assert.equal((await app.inject('/twice')).headers.vary, 'Origin, accept-encoding, Cookie')
  assert.equal((await app.inject('/star')).headers.vary, '*')
})
