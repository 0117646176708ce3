// app.initialConfig beside real Fastify's, for several option sets: the
// same keys, in the same order, with the same values, frozen to the bottom;
// hotpath's own settings readable by name under hotpath/fastify without
// being listed, and listed on hotpath's own entry.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { hotpath } from '../../lib/index.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** a constraint strategy's functions, the same in each copy of the options */
const TENANT = { storage: () => ({ get () {}, set () {} }), validate () {}, deriveConstraint: (/** @type {any} */ req) => req.headers.tenant }

// each a function: find-my-way marks the constraint strategies it is given,
// and each app gets its own
const OPTION_SETS = [
  () => ({}),
  () => ({ bodyLimit: 1000, keepAliveTimeout: 5000, requestTimeout: 30_000, maxRequestsPerSocket: 10, connectionTimeout: 1000, handlerTimeout: 3000, pluginTimeout: 500 }),
  () => ({ keepAliveTimeout: 0, maxRequestsPerSocket: null }),
  () => ({ ignoreTrailingSlash: true, caseSensitive: false, ignoreDuplicateSlashes: true, maxParamLength: 200, allowUnsafeRegex: true, useSemicolonDelimiter: true }),
  () => ({ routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: 50 } }),
  () => ({ requestIdHeader: 'X-Req-Id', requestIdLogLabel: 'rid', disableRequestLogging: true, onProtoPoisoning: 'remove', onConstructorPoisoning: 'ignore', exposeHeadRoutes: false, logger: false, trustProxy: true, forceCloseConnections: true, return503OnClosing: false }),
  () => ({ requestIdHeader: true, genReqId: () => 'id', querystringParser: () => ({}), ajv: { customOptions: {} } }),
  () => ({ requestIdHeader: '' }),
  () => ({ http2: true, http2SessionTimeout: 1000 }),
  () => ({ forceCloseConnections: 'idle', http: { keepAliveTimeout: 1000 } }),
  () => ({ constraints: { tenant: { name: 'tenant', ...TENANT } } })
]

/** @param {any} value @returns {boolean} */
function frozenThrough (value) {
  if (value === null || typeof value !== 'object') return true
  return Object.isFrozen(value) && Object.values(value).every(frozenThrough)
}

for (const options of OPTION_SETS) {
  test(`initialConfig as Fastify's: ${JSON.stringify(options())}`, () => {
    const warn = process.emitWarning
    // Fastify's deprecation warnings for some of these options
    process.emitWarning = () => {}
    /** @type {any} */
    let fastify
    /** @type {any} */
    let ours
    try {
      fastify = Fastify(options()).initialConfig
      ours = hotpathFastify(options()).initialConfig
    } finally {
      process.emitWarning = warn
    }
    assert.deepStrictEqual(ours, fastify)
    assert.deepEqual(Object.keys(ours), Object.keys(fastify))
    assert.equal(JSON.stringify(ours), JSON.stringify(fastify))
    assert.ok(frozenThrough(ours))
    assert.ok(frozenThrough(fastify))
  })
}

test('initialConfig: https given as TLS options is true, as Fastify has it', () => {
  // no certificate is needed to read the config: neither listens
  const options = { https: { allowHTTP1: true } }
  assert.deepStrictEqual(hotpathFastify(options).initialConfig, Fastify(options).initialConfig)
})

test('initialConfig: hotpath\'s own settings read by name, listed on hotpath\'s entry only', () => {
  const config = hotpathFastify({ engine: 'node' }).initialConfig
  assert.equal(config.engine, 'node')
  assert.equal(config.maxUrlLength, 0)
  assert.equal(config.headersTimeout, 10_000)
  assert.equal(config.exposeErrorMessages, true)
  assert.equal(Object.keys(config).includes('engine'), false)
  // one of Fastify's options it leaves out reads undefined, as on Fastify
  assert.equal(config.forceCloseConnections, undefined)
  assert.equal(config.https, undefined)
  const own = hotpath({ engine: 'node' }).initialConfig
  assert.equal(own.engine, 'node')
  assert.equal(own.keepAliveTimeout, 5000)
  assert.equal(own.requestTimeout, 30_000)
  assert.equal(own.forceCloseConnections, false)
  assert.equal(own.https, false)
  assert.equal(own.caseSensitive, true)
  assert.ok(Object.keys(own).includes('maxUrlLength'))
})
