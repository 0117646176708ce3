// What an onResponse hook sees of the request it ends (what metrics by
// route read, as fastify-metrics does): the status that went out when user
// code wrote it through reply.raw (a hijacked reply, a middleware's own
// answer), reply.elapsedTime with logging off, and after
// reply.callNotFound() a request that is the not-found route's (is404, no
// route url), as in Fastify.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('what onResponse hooks see', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Map<string, (seen: Record<string, any>) => void>} */
  const waiting = new Map()
  /**
   * What the onResponse hook saw of the next request to `url`.
   * @param {string} url
   * @returns {Promise<Record<string, any>>}
   */
  const seenFor = (url) => new Promise((resolve) => { waiting.set(url, resolve) })

  before(async () => {
    s = await setup(mode, (app) => {
      app.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {any} */ next) => {
        // a preflight answered by the middleware itself, as cors does
        if (req.method === 'OPTIONS') {
          res.statusCode = 204
          res.end()
          return
        }
        next()
      })
      app.addHook('onResponse', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {() => void} */ done) => {
        const resolve = waiting.get(req.url)
        waiting.delete(req.url)
        resolve?.({ statusCode: reply.statusCode, elapsedTime: reply.elapsedTime, is404: req.is404, url: req.routeOptions.url, method: req.routeOptions.method })
        done()
      })
      app.get('/users/:id', () => 'plain')
      app.get('/hijacked', (/** @type {any} */ _req, /** @type {any} */ reply) => {
        reply.hijack()
        reply.raw.writeHead(202, { 'content-type': 'text/plain' })
        reply.raw.end('taken over')
      })
      app.get('/gone', (/** @type {any} */ req, /** @type {any} */ reply) => {
        assert.equal(req.is404, false)
        reply.callNotFound()
      })
    })
  })
  after(() => s.close())

  test('a hijacked reply: the status written through reply.raw', async () => {
    const seen = seenFor('/hijacked')
    const res = await s.request('/hijacked')
    assert.equal(res.statusCode, 202)
    assert.equal((await seen).statusCode, 202)
  })

  test('a middleware that answers itself: the status it sent', async () => {
    const seen = seenFor('/users/1')
    const res = await s.request({ method: 'OPTIONS', url: '/users/1' })
    assert.equal(res.statusCode, 204)
    assert.equal((await seen).statusCode, 204)
  })

  test('reply.elapsedTime, with logging off, is the time the request took so far', async () => {
    const seen = seenFor('/users/2')
    assert.equal((await s.request('/users/2')).statusCode, 200)
    const { elapsedTime, url, is404 } = await seen
    assert.equal(typeof elapsedTime, 'number')
    assert.ok(elapsedTime > 0, `elapsedTime ${elapsedTime}`)
    assert.equal(url, '/users/:id')
    assert.equal(is404, false)
  })

  test('after reply.callNotFound() the request is the not-found route\'s', async () => {
    const seen = seenFor('/gone')
    const res = await s.request('/gone')
    assert.equal(res.statusCode, 404)
    assert.deepEqual(await seen, { statusCode: 404, elapsedTime: (await seen).elapsedTime, is404: true, url: undefined, method: undefined })
  })
})
