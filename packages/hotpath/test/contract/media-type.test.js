import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('request.mediaType and reply.mediaType', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.post('/request', {
        preValidation: (req, reply, done) => {
          reply.header('x-seen-in-hook', String(req.mediaType))
          done()
        }
      }, (req) => ({ mediaType: req.mediaType ?? 'none' }))
      app.get('/reply', (req, reply) => {
        const before = reply.mediaType ?? 'none'
        reply.header('Content-Type', ' Application/Vnd.Thing+JSON ; charset=utf-8')
        const first = reply.mediaType
        reply.type('text/plain')
        return `${before} ${first} ${reply.mediaType}`
      })
    })
  })
  after(() => s.close())

  test('the request Content-Type without its parameters, lower case', async () => {
    // HTTP/2 forbids whitespace at the ends of a field value (RFC 9113 §8.2.1)
    const contentType = mode === 'h2' ? 'application/JSON ; charset=utf-8' : ' application/JSON ; charset=utf-8'
    const res = await s.request({ method: 'POST', url: '/request', headers: { 'content-type': contentType }, payload: '{}' })
    assert.deepEqual(res.json(), { mediaType: 'application/json' })
    assert.equal(res.headers['x-seen-in-hook'], 'application/json')
  })

  test('no Content-Type: undefined', async () => {
    const res = await s.request({ method: 'POST', url: '/request' })
    assert.deepEqual(res.json(), { mediaType: 'none' })
  })

  test("the reply's, as last set", async () => {
    const res = await s.request('/reply')
    assert.equal(res.body, 'none application/vnd.thing+json text/plain')
  })
})
