import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('reply: typed arrays, HEAD lengths, redirects, sent', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/u16', () => new Uint16Array([0x4241, 0x4443]))
      app.get('/view', () => new DataView(new Uint8Array([0x61, 0x62, 0x63]).buffer, 1, 2))
      app.head('/declared', (req, reply) => reply.header('content-length', 42).type('application/json').send())
      app.get('/redirect-307', (req, reply) => reply.code(307).redirect('/there'))
      app.get('/redirect-default', (req, reply) => reply.redirect('/there'))
      app.get('/sent', (req, reply) => {
        let refused = false
        try {
          /** @type {any} */ (reply).sent = true
        } catch {
          refused = true
        }
        return { refused, sent: reply.sent }
      })
    })
  })
  after(() => s.close())

  test('any typed array or DataView sends its bytes, application/octet-stream', async () => {
    const res = await s.request('/u16')
    assert.equal(res.headers['content-type'], 'application/octet-stream')
    assert.equal(res.body, 'ABCD')
    assert.equal((await s.request('/view')).body, 'bc')
  })

  test('HEAD keeps the Content-Length the route declared, with no body', async () => {
    const res = await s.request({ method: 'HEAD', url: '/declared' })
    assert.equal(String(res.headers['content-length']), '42')
    assert.equal(res.body, '')
  })

  test('redirect() without a code keeps a status set before, else 302; no body', async () => {
    const a = await s.request('/redirect-307')
    assert.equal(a.statusCode, 307)
    assert.equal(a.headers.location, '/there')
    assert.equal(String(a.headers['content-length']), '0')
    assert.equal((await s.request('/redirect-default')).statusCode, 302)
  })

  test('reply.sent cannot be set', async () => {
    assert.deepEqual((await s.request('/sent')).json(), { refused: true, sent: false })
  })
})
