// register() after ready() (or listen()) throws avvio's AVV_ERR_ROOT_PLG_BOOTED
// under hotpath/fastify, code and message, as Fastify's does (it threw a
// code of hotpath's own there); hotpath's own entry keeps its code.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import hotpath from '../../lib/index.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/**
 * @param {any} make
 * @param {boolean} listening
 */
async function registerLate (make, listening) {
  const app = make()
  await app.ready()
  if (listening) await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    app.register(async () => {})
    return 'taken'
  } catch (err) {
    return `${/** @type {any} */ (err).code}: ${/** @type {any} */ (err).message}`
  } finally {
    await app.close()
  }
}

for (const listening of [false, true]) {
  test(`register() after ready()${listening ? ' and listen()' : ''} throws what Fastify's throws`, async () => {
    const expected = await registerLate(Fastify, listening)
    assert.equal(expected, 'AVV_ERR_ROOT_PLG_BOOTED: Root plugin has already booted')
    assert.equal(await registerLate(hotpathFastify, listening), expected)
  })
}

test("hotpath's own entry: register() after ready() throws HP_ERR_REGISTER_AFTER_READY", async () => {
  assert.match(await registerLate(hotpath, false), /^HP_ERR_REGISTER_AFTER_READY: /)
})
