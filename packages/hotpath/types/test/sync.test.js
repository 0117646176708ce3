// Keeps types/index.d.ts in step with the runtime where drift would go
// unnoticed by tsc: the hook names, the option names and the runtime exports.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import * as runtime from '../../lib/index.js'
import { REQUEST_HOOKS, APP_HOOKS } from '../../lib/lifecycle/hook-names.js'

const dts = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8')

/** The string literals of `export type Name = 'a' | 'b' ...` in index.d.ts. */
function unionOf (name) {
  const m = dts.match(new RegExp(`export type ${name} =([^]*?)\\n(?:export|\\n)`))
  assert.ok(m, `type ${name} is in index.d.ts`)
  return [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]).sort()
}

/** Property names declared in `export interface Name { ... }`. */
function propsOf (name) {
  const m = dts.match(new RegExp(`export interface ${name}[^{]*\\{([^]*?)\\n\\}`))
  assert.ok(m, `interface ${name} is in index.d.ts`)
  return [...m[1].matchAll(/^ {2}(\w+)\??:/gm)].map((x) => x[1]).sort()
}

test('request and app hook names match lib/lifecycle/hook-names.js', () => {
  assert.deepEqual(unionOf('RequestHookName'), [...REQUEST_HOOKS].sort())
  assert.deepEqual(unionOf('AppHookName'), [...APP_HOOKS].sort())
})

test('every hook name has an addHook overload', () => {
  for (const name of [...REQUEST_HOOKS, ...APP_HOOKS]) {
    assert.match(dts, new RegExp(`addHook(<[^>]*>)?\\(name: '${name}'`), name)
  }
})

test('the runtime exports what the types declare', () => {
  // 'module.exports' is what require('hotpath') returns (Node's require(esm) interop name)
  assert.deepEqual(Object.keys(runtime).sort(), ['HttpError', 'default', 'hotpath', 'module.exports', 'plugin'])
  assert.equal(runtime.default, runtime.hotpath)
  assert.equal(runtime['module.exports'], runtime.hotpath)
  for (const name of ['HttpError', 'plugin', 'hotpath']) assert.match(dts, new RegExp(`\\b${name}\\b`))
})

test('the options in the types are the ones the runtime reads', () => {
  const app = runtime.default()
  assert.equal(typeof app.inject, 'function')
  assert.deepEqual(propsOf('HotpathOptions'), [
    'ajv', 'allowErrorHandlerOverride', 'allowUnsafeRegex', 'bodyLimit', 'caseSensitive', 'childLoggerFactory', 'closeGraceTimeout', 'disableRequestLogging', 'engine', 'errorFormat', 'exposeErrorMessages', 'exposeHeadRoutes',
    'forceCloseConnections', 'genReqId', 'headersTimeout', 'https', 'ignoreDuplicateSlashes', 'ignoreTrailingSlash', 'jsonDepthLimit', 'keepAliveTimeout',
    'load', 'logController', 'logFormat', 'pluginTimeout', 'logger', 'loggerInstance', 'maxHeaderSize', 'maxParamLength', 'maxRequestsPerSocket', 'onConstructorPoisoning', 'onProtoPoisoning',
    'querystringParser', 'replyFormat', 'requestIdHeader', 'requestIdLogLabel', 'requestTimeout', 'routerOptions', 'schemaController', 'schemaErrorFormatter', 'serializerOpts', 'trustProxy', 'useSemicolonDelimiter',
    'constraints', 'rewriteUrl', 'frameworkErrors', 'defaultRoute', 'onBadUrl', 'onMaxParamLength', 'buildPrettyMeta',
    'connectionTimeout', 'handlerTimeout', 'http', 'return503OnClosing', 'serverFactory', 'health', 'drain',
    // Fastify's HTTP/2 options (the h2 engine)
    'http2', 'http2SessionTimeout'
  ].sort())
  // each of those, given another value, is refused by the runtime
  for (const [name, value] of [['http', { insecureHTTPParser: true }]]) {
    assert.throws(() => runtime.default({ [name]: value }), { code: 'HP_ERR_UNSUPPORTED_OPTION' }, name)
  }
  // A wrong type for a numeric option is refused at once by the runtime too.
  assert.throws(() => runtime.default({ bodyLimit: /** @type {any} */ ('1mb') }), { code: 'HP_ERR_INVALID_OPTION' })
})

/** Member names declared in `export interface Name ... { ... }` (properties and methods). */
function membersOf (name) {
  const m = dts.match(new RegExp(`export interface ${name}[^{]*\\{([^]*?)\\n\\}`))
  assert.ok(m, `interface ${name} is in index.d.ts`)
  return [...new Set([...m[1].matchAll(/^ {2}(?:readonly )?(\w+)(?:<[^>]*>)?\??[(:]/gm)].map((x) => x[1]))]
}

test('the app members in the types exist on an app', () => {
  const app = /** @type {any} */ (runtime.default())
  const names = membersOf('HotpathInstance')
  assert.ok(names.length > 20, `found ${names.length} members`)
  // present, as a member or a getter (validatorCompiler reads undefined until ready())
  for (const name of names) assert.ok(name in app, `app.${name}`)
})

test('the request and reply members in the types exist on a request and a reply', async () => {
  const app = runtime.default()
  /** @type {string[]} */
  const missing = []
  app.get('/x/:id', (req, reply) => {
    for (const name of membersOf('HotpathRequest')) if (!(name in req)) missing.push(`req.${name}`)
    for (const name of membersOf('HotpathReply')) if (!(name in reply)) missing.push(`reply.${name}`)
    return { ok: true }
  })
  const res = await app.inject('/x/1')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(missing, [])
  assert.ok(membersOf('HotpathRequest').includes('signal') && membersOf('HotpathReply').includes('hijack'))
})
