// Fastify's process warnings (its lib/warnings.js), beside Fastify: the
// same app built on Fastify and on hotpath/fastify emits the same warnings,
// name, code and words (deprecated options, a content-type RegExp that does
// not anchor the media type, an error handler set twice in one scope, a
// schema part named with no schema, an async listen callback, addHttpMethod
// for a known method); hotpath's own entry emits none of them.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpath from '../../lib/index.js'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/**
 * Builds, readies and listens an app that touches every warning, and
 * returns the warnings the process emitted meanwhile, sorted.
 * @param {(opts?: any) => any} make
 */
async function warningsOf (make) {
  /** @type {string[]} */
  const seen = []
  // node's own listener prints each warning: set aside while the app is built
  const printers = process.listeners('warning')
  process.removeAllListeners('warning')
  /** @param {Error & { code?: string }} w */
  const collect = (w) => seen.push(`${w.name} ${w.code}: ${w.message}`)
  process.on('warning', collect)
  try {
    const app = make({ disableRequestLogging: true, requestIdLogLabel: 'rid', ignoreTrailingSlash: true, maxParamLength: 200 })
    app.get('/parts', { schema: { body: undefined, querystring: undefined, params: undefined, headers: undefined } }, () => 'x')
    app.post('/some', { schema: { body: { type: 'object' }, querystring: undefined } }, () => 'x')
    // one warning for a route of two methods, naming both; a prefix; a schema an onRoute hook set
    app.route({ method: ['GET', 'POST'], url: '/two', schema: { body: undefined }, handler: () => 'x' })
    app.register(async (/** @type {any} */ child) => { child.get('/p', { schema: { params: undefined } }, () => 'x') }, { prefix: '/pre' })
    app.addHook('onRoute', (/** @type {any} */ route) => { if (route.url === '/hooked') route.schema = { querystring: undefined } })
    app.get('/hooked', () => 'x')
    app.addContentTypeParser(/json/, (/** @type {any} */ r, /** @type {any} */ b, /** @type {any} */ d) => d(null, b))
    app.addContentTypeParser(/^text\/x-anchored/, (/** @type {any} */ r, /** @type {any} */ b, /** @type {any} */ d) => d(null, b))
    app.addContentTypeParser(['text/x-plain', /xml/, /x-essence;?/], (/** @type {any} */ r, /** @type {any} */ b, /** @type {any} */ d) => d(null, b))
    app.setErrorHandler(() => {})
    app.setErrorHandler(() => {})
    app.register(async (/** @type {any} */ child) => { child.setErrorHandler(() => {}) })
    app.addHttpMethod('GET')
    await new Promise((resolve, reject) => app.listen({ port: 0, host: '127.0.0.1' }, async (/** @type {Error | null} */ err) => err ? reject(err) : resolve(undefined)))
    await app.close()
    // emitWarning delivers on the next tick
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.removeListener('warning', collect)
    for (const printer of printers) process.on('warning', printer)
  }
  return seen.sort()
}

test('hotpath/fastify emits the warnings Fastify emits, name, code and words', async () => {
  const theirs = await warningsOf(Fastify)
  for (const code of ['FSTDEP022', 'FSTDEP023', 'FSTDEP024', 'FSTDEP025', 'FSTSEC001', 'FSTWRN001', 'FSTWRN003', 'FSTWRN004']) {
    assert.ok(theirs.some((w) => w.includes(` ${code}: `)), `Fastify emits ${code}`)
  }
  assert.deepEqual(await warningsOf(hotpathFastify), theirs)
})

test('hotpath\'s own entry emits none of Fastify\'s warnings', async () => {
  const ours = await warningsOf(hotpath)
  assert.deepEqual(ours.filter((w) => / FST[A-Z]+\d+: /.test(w)), [])
})
