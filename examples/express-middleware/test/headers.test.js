// cors (simple request, preflight) and helmet's headers.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from './helpers.js'
import { CORS_ORIGIN } from '../middleware/headers.js'

eachMode('cors', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode) })
  after(() => s.close())

  test('a simple request from the allowed origin gets the allow headers, and the route its reply', async () => {
    const res = await s.request({ url: '/cors/items', headers: { origin: CORS_ORIGIN } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), ['a', 'b'])
    assert.equal(res.headers['access-control-allow-origin'], CORS_ORIGIN)
    assert.equal(res.headers['access-control-allow-credentials'], 'true')
    assert.equal(res.headers['access-control-expose-headers'], 'X-Total')
    assert.equal(res.headers['x-total'], '2')
    assert.match(String(res.headers.vary), /\bOrigin\b/)
  })

  test('a preflight (OPTIONS with Access-Control-Request-Method) is answered 204 by cors, with the allow headers', async () => {
    const res = await s.request({ method: 'OPTIONS', url: '/cors/items', headers: { origin: CORS_ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-token' } })
    assert.equal(res.statusCode, 204)
    assert.equal(res.body, '')
    assert.equal(res.headers['access-control-allow-origin'], CORS_ORIGIN)
    assert.equal(res.headers['access-control-allow-methods'], 'GET,PUT')
    assert.equal(res.headers['access-control-allow-headers'], 'Content-Type,X-Token')
    assert.equal(res.headers['access-control-allow-credentials'], 'true')
    assert.equal(res.headers['access-control-max-age'], '600')
  })

  test('the PUT the preflight allowed', async () => {
    const res = await s.request({ method: 'PUT', url: '/cors/items', headers: { origin: CORS_ORIGIN, 'x-token': 't' }, payload: { name: 'c' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { saved: true })
    assert.equal(res.headers['access-control-allow-origin'], CORS_ORIGIN)
  })

  test('another origin gets no Access-Control-Allow-Origin', async () => {
    const res = await s.request({ url: '/cors/items', headers: { origin: 'https://evil.example' } })
    assert.equal(res.statusCode, 200)
    assert.notEqual(res.headers['access-control-allow-origin'], 'https://evil.example')
  })

  // Express's equivalent is router.use(cors()) in a Router mounted at
  // /cors-plugin: the router's middleware runs for every request under its
  // path, the preflight included, though no OPTIONS route exists.
  test('cors inside a plugin (an express.Router) answers the preflight for its routes', async () => {
    const res = await s.request({ method: 'OPTIONS', url: '/cors-plugin/items', headers: { origin: CORS_ORIGIN, 'access-control-request-method': 'PUT' } })
    assert.equal(res.statusCode, 204)
    assert.equal(res.headers['access-control-allow-origin'], CORS_ORIGIN)
    assert.equal(res.headers['access-control-allow-methods'], 'GET,PUT')
  })
})

eachMode('helmet', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode) })
  after(() => s.close())

  test("helmet's headers are on the reply", async () => {
    const res = await s.request('/secure')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { secure: true })
    const h = res.headers
    assert.match(String(h['content-security-policy']), /default-src 'self'/)
    assert.match(String(h['content-security-policy']), /object-src 'none'/)
    assert.equal(h['x-content-type-options'], 'nosniff')
    assert.equal(h['strict-transport-security'], 'max-age=31536000; includeSubDomains')
    assert.equal(h['x-frame-options'], 'SAMEORIGIN')
    assert.equal(h['referrer-policy'], 'no-referrer')
    assert.equal(h['cross-origin-opener-policy'], 'same-origin')
    assert.equal(h['cross-origin-resource-policy'], 'same-origin')
    assert.equal(h['origin-agent-cluster'], '?1')
    assert.equal(h['x-dns-prefetch-control'], 'off')
    assert.equal(h['x-download-options'], 'noopen')
    assert.equal(h['x-permitted-cross-domain-policies'], 'none')
    assert.equal(h['x-xss-protection'], '0')
    assert.equal(h['x-powered-by'], undefined)
  })

  test('a route outside its prefix has none of them', async () => {
    const res = await s.request('/health')
    assert.equal(res.headers['content-security-policy'], undefined)
    assert.equal(res.headers['x-content-type-options'], undefined)
  })
})
