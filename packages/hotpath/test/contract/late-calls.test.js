// Every setter of the instance called once the app has started, beside
// Fastify: after ready() (and a turn, for Fastify marks itself started on
// avvio's 'start', which comes a tick after ready() resolves in an app
// without plugins) and after listen(), hotpath/fastify throws Fastify's code
// and words for each, and hotpath its own code.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpath from '../../lib/index.js'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @type {Record<string, (app: any) => unknown>} */
const LATE_CALLS = {
  addSchema: (app) => app.addSchema({ $id: 'late', type: 'string' }),
  addContentTypeParser: (app) => app.addContentTypeParser('text/x-late', (/** @type {any} */ r, /** @type {any} */ b, /** @type {any} */ d) => d(null, b)),
  removeContentTypeParser: (app) => app.removeContentTypeParser('application/json'),
  removeAllContentTypeParsers: (app) => app.removeAllContentTypeParsers(),
  setErrorHandler: (app) => app.setErrorHandler(() => {}),
  setNotFoundHandler: (app) => app.setNotFoundHandler(() => {}),
  addHook: (app) => app.addHook('onRequest', (/** @type {any} */ r, /** @type {any} */ re, /** @type {any} */ d) => d()),
  route: (app) => app.get('/late', () => 'late'),
  setValidatorCompiler: (app) => app.setValidatorCompiler(() => () => true),
  setSerializerCompiler: (app) => app.setSerializerCompiler(() => () => ''),
  setReplySerializer: (app) => app.setReplySerializer(() => ''),
  setSchemaErrorFormatter: (app) => app.setSchemaErrorFormatter(() => new Error('x')),
  setGenReqId: (app) => app.setGenReqId(() => 'late'),
  setChildLoggerFactory: (app) => app.setChildLoggerFactory((/** @type {any} */ logger) => logger),
  decorate: (app) => app.decorate('late', 1),
  decorateRequest: (app) => app.decorateRequest('late', 1),
  decorateReply: (app) => app.decorateReply('late', 1),
  addConstraintStrategy: (app) => app.addConstraintStrategy({ name: 'late', storage () { return { get () {}, set () {} } }, deriveConstraint () {}, validate () {} }),
  register: (app) => app.register(async () => {})
}

/**
 * What each late call threw (code and message), or 'ok'.
 * @param {(opts?: any) => any} make
 * @param {boolean} listen
 */
async function lateCalls (make, listen) {
  const app = make()
  app.get('/', () => 'x')
  if (listen) await app.listen({ port: 0, host: '127.0.0.1' })
  else await app.ready()
  await new Promise((resolve) => setImmediate(resolve))
  /** @type {Record<string, string>} */
  const seen = {}
  for (const [name, call] of Object.entries(LATE_CALLS)) {
    try {
      call(app)
      seen[name] = 'ok'
    } catch (err) {
      seen[name] = `${/** @type {any} */ (err).code}: ${/** @type {any} */ (err).message}`
    }
  }
  await app.close()
  return seen
}

for (const listen of [false, true]) {
  const when = listen ? 'listen()' : 'ready()'
  test(`after ${when}: every late call throws what Fastify throws, code and words`, async () => {
    const theirs = await lateCalls(Fastify, listen)
    assert.ok(Object.values(theirs).every((v) => v !== 'ok'), 'Fastify refuses them all')
    assert.deepEqual(await lateCalls(hotpathFastify, listen), theirs)
  })

  test(`after ${when}: hotpath refuses them too, each with a code of its own table`, async () => {
    const ours = await lateCalls(hotpath, listen)
    for (const [name, seen] of Object.entries(ours)) {
      assert.match(seen, /^(HP|AVV)_ERR_[A-Z_]+: \S/, name)
      assert.doesNotMatch(seen, /undefined/, name)
    }
  })
}
