// A middleware that answers itself (serve-static sending a file) sends the
// headers the middlewares before it set (helmet's, cors's) and those the
// reply had from a hook, as Express sends what earlier middleware set on
// its one response object; a header a later middleware removes is gone.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import cors from 'cors'
import helmet from 'helmet'
import serveStatic from 'serve-static'
import { eachMode, setup } from '../helpers/engines.js'

const dir = mkdtempSync(join(tmpdir(), 'hotpath-static-'))
writeFileSync(join(dir, 'a.txt'), 'alphabet\n')
after(() => rmSync(dir, { recursive: true, force: true }))

eachMode('headers of the middlewares before one that answers', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      // mounted on the app, as Express apps mount them: the files have no routes
      app.use('/helmet', helmet())
      app.use('/helmet', serveStatic(dir))
      app.use('/cors', cors({ origin: 'https://example.com' }))
      app.use('/cors', serveStatic(dir))
      app.register(async (api) => {
        api.addHook('onRequest', (_req, reply, done) => { reply.header('x-request-tag', 'hook'); reply.header('x-dropped', 'yes'); done() })
        api.use((/** @type {any} */ _req, /** @type {any} */ res, /** @type {Function} */ next) => {
          // the reply's headers are visible to the middleware
          res.setHeader('x-saw-tag', String(res.getHeader('x-request-tag')))
          res.removeHeader('x-dropped')
          next()
        })
        // answers itself when asked to, as serve-static does for a file
        api.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => {
          if (req.url.endsWith('?answer')) res.end('answered by middleware')
          else next()
        })
        api.get('/route', () => 'route')
      }, { prefix: '/hooked' })
    })
  })
  after(() => s.close())

  test("helmet, then serve-static: the file carries helmet's headers", async () => {
    const res = await s.request('/helmet/a.txt')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'alphabet\n')
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/)
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
  })

  test("cors, then serve-static: the file carries Access-Control-Allow-Origin", async () => {
    const res = await s.request({ url: '/cors/a.txt', headers: { origin: 'https://example.com' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'alphabet\n')
    assert.equal(res.headers['access-control-allow-origin'], 'https://example.com')
    assert.equal(res.headers.vary, 'Origin')
  })

  test("a hook's header goes out with a middleware's answer; one a middleware removed does not", async () => {
    const res = await s.request('/hooked/route?answer')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'answered by middleware')
    assert.equal(res.headers['x-request-tag'], 'hook')
    assert.equal(res.headers['x-saw-tag'], 'hook')
    assert.equal(res.headers['x-dropped'], undefined)
  })

  test('and the same on a route the middlewares let through', async () => {
    const res = await s.request('/hooked/route')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'route')
    assert.equal(res.headers['x-request-tag'], 'hook')
    assert.equal(res.headers['x-saw-tag'], 'hook')
    assert.equal(res.headers['x-dropped'], undefined)
  })
})
