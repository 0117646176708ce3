// trustProxy as a hop count under hotpath/fastify trusts no X-Forwarded-*
// header, as Fastify 5.12 (a count cannot tell a proxy from a client that
// sent the hops itself): the address, host and scheme are the
// connection's. hotpath's own entry keeps the count. Compared with Fastify
// through inject() and over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'
import hotpath from '../../lib/index.js'

/** @param {any} app */
function build (app) {
  app.get('/', (/** @type {any} */ req) => ({ ip: req.ip, host: req.host, hostname: req.hostname, protocol: req.protocol }))
}

const FORWARDED = { 'x-forwarded-for': '9.9.9.9, 8.8.8.8', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }

for (const hops of [1, 2]) {
  test(`trustProxy: ${hops} trusts no forwarded header under hotpath/fastify, as on Fastify`, async () => {
    const answers = await besideFastify(build, [{ url: '/', headers: { host: 'app.example', ...FORWARDED } }], { options: { trustProxy: hops } })
    for (const { what, fastify, hotpath } of answers) {
      assert.equal(hotpath.statusCode, 200, what)
      assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
      assert.equal(JSON.parse(fastify.body).hostname, 'app.example', what)
    }
  })
}

test("hotpath's own entry: trustProxy as a hop count trusts that many proxies", async () => {
  const app = hotpath({ trustProxy: 1 })
  build(app)
  const res = await app.inject({ url: '/', headers: { host: 'app.example', ...FORWARDED } })
  assert.deepEqual(res.json(), { ip: '8.8.8.8', host: 'evil.example', hostname: 'evil.example', protocol: 'https' })
  await app.close()
})
