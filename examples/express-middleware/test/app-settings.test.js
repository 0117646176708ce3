// req.app and res.app, the Express application middleware reads settings
// from: express-rate-limit's own checks read req.app.get('trust proxy')
// on every engine and under inject, and see hotpath's trustProxy there.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from 'hotpath'
import { rateLimit } from 'express-rate-limit'
import { MODES, httpRequest } from './helpers.js'

/**
 * Runs the requests against a fresh app with express-rate-limit in front
 * and returns what the limiter's checks printed.
 * @param {'inject' | 'node' | 'wire'} mode
 * @param {unknown} trustProxy
 * @param {Record<string, string>} headers  of the first request
 */
async function limiterMessages (mode, trustProxy, headers) {
  const app = hotpath({ trustProxy, ...(mode === 'inject' ? {} : { engine: mode }) })
  app.use(rateLimit({ windowMs: 60_000, limit: 100 }))
  app.get('/', (req, reply) => {
    const raw = /** @type {any} */ (req.raw)
    return { trust: raw.app.get('trust proxy'), same: raw.app === /** @type {any} */ (reply.raw).app, env: raw.app.get('env') }
  })
  /** @type {string[]} */
  const printed = []
  const { error, warn } = console
  console.error = console.warn = (/** @type {any[]} */ ...args) => { printed.push(args.map(String).join(' ')) }
  try {
    let res
    if (mode === 'inject') {
      res = await app.inject({ url: '/', headers })
    } else {
      const base = await app.listen({ port: 0, host: '127.0.0.1' })
      res = await httpRequest(Number(new URL(base).port), { url: '/', headers })
    }
    assert.equal(res.statusCode, 200)
    return { printed, body: res.json() }
  } finally {
    console.error = error
    console.warn = warn
    await app.close()
  }
}

for (const mode of MODES) {
  test(`express-rate-limit's trust proxy checks read hotpath's trustProxy [${mode}]`, async () => {
    const plain = await limiterMessages(mode, undefined, {})
    assert.deepEqual(plain.printed, [], 'nothing printed with the default')
    assert.equal(plain.body.trust, false)
    assert.equal(plain.body.same, true, 'res.app is req.app')
    assert.equal(typeof plain.body.env, 'string')

    const hops = await limiterMessages(mode, 1, { 'x-forwarded-for': '10.0.0.1' })
    assert.deepEqual(hops.printed, [])
    assert.equal(hops.body.trust, 1)

    // its own warnings, as on Express: trustProxy true lets any client pick its address
    const open = await limiterMessages(mode, true, {})
    assert.equal(open.printed.length, 1, open.printed.join('\n'))
    assert.match(open.printed[0], /ERR_ERL_PERMISSIVE_TRUST_PROXY|'trust proxy' setting is true/)

    const unset = await limiterMessages(mode, undefined, { 'x-forwarded-for': '10.0.0.1' })
    assert.equal(unset.printed.length, 1, unset.printed.join('\n'))
    assert.match(unset.printed[0], /X-Forwarded-For/)
  })
}
