// hotpath/fastify validates with ajv in its strict mode, as Fastify's
// compiler does (hotpath's own entry turns it off): a schema with a
// keyword or a format ajv does not know fails ready() with Fastify's error
// and message; the app's ajv options still decide (strict: false, or the
// keyword declared). Compared with Fastify.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import hotpath from '../../lib/index.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

const CASES = [
  { what: 'an unknown keyword', schema: { querystring: { type: 'object', kind: 'Object', properties: { x: { type: 'integer' } } } } },
  { what: 'an unknown format', schema: { body: { type: 'object', properties: { x: { type: 'string', format: 'no-such-format' } } } } },
  { what: 'an unknown keyword, declared', schema: { body: { type: 'object', example: { x: 1 } } }, ajv: { customOptions: { keywords: ['example'] } } },
  { what: 'an unknown keyword, strict off', schema: { body: { type: 'object', example: { x: 1 } } }, ajv: { customOptions: { strict: false } } },
  { what: 'known keywords only', schema: { params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } } } }
]

/**
 * @param {any} make
 * @param {{ schema: any, ajv?: any }} c
 */
async function outcome (make, c) {
  const app = make(c.ajv === undefined ? {} : { ajv: c.ajv })
  app.post('/:id', { schema: c.schema }, () => 'ok')
  try {
    await app.ready()
    const res = await app.inject({ method: 'POST', url: '/5?x=1', payload: { x: 'a' } })
    return `${res.statusCode}`
  } catch (err) {
    return `${/** @type {any} */ (err).code}: ${/** @type {any} */ (err).message}`
  } finally {
    await app.close()
  }
}

for (const c of CASES) {
  test(`ajv's strict mode under hotpath/fastify, as on Fastify: ${c.what}`, async () => {
    const expected = await outcome(Fastify, c)
    assert.equal(await outcome(hotpathFastify, c), expected)
    if (c.what === 'an unknown keyword') assert.match(expected, /^FST_ERR_SCH_VALIDATION_BUILD: .*strict mode: unknown keyword: "kind"/)
  })
}

test("hotpath's own entry keeps ajv's strict mode off: an unknown keyword is ignored", async () => {
  const app = hotpath()
  app.get('/', { schema: { querystring: { type: 'object', kind: 'Object', properties: { x: { type: 'integer' } } } } }, (req) => req.query)
  const res = await app.inject('/?x=1')
  assert.deepEqual([res.statusCode, res.json()], [200, { x: 1 }])
  await app.close()
})
