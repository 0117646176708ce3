// The mistakes refused when a hook, parser, decorator or route is added,
// each with its own code; with errorFormat 'fastify' the same mistakes
// throw Fastify's codes and words, as instances of hotpath/fastify's
// errorCodes. And the body errors answered to a client, in both formats.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'
import fastify, { errorCodes } from '../../lib/fastify.js'
import { eachMode, setup } from '../helpers/engines.js'

test('a request hook added by an onReady hook is refused, in hotpath\'s words and in Fastify\'s', async () => {
  for (const [make, code, message] of [[hotpath, 'HP_ERR_HOOK_WHILE_READY', /onRequest.*onReady hook/], [fastify, 'AVV_ERR_ROOT_PLG_BOOTED', /^Root plugin has already booted$/]]) {
    const app = /** @type {any} */ (make)()
    /** @type {unknown[]} */
    const seen = []
    app.addHook('onReady', function (/** @type {(err?: Error) => void} */ done) {
      try {
        app.addHook('onRequest', () => {})
      } catch (err) {
        seen.push(err)
      }
      done()
    })
    await app.ready()
    assert.equal(seen.length, 1)
    assert.match(/** @type {any} */ (seen[0]).code, new RegExp(`^${code}$`))
    assert.match(/** @type {any} */ (seen[0]).message, message)
    assert.throws(() => app.addHook('onRequest', () => {}), { code: make === hotpath ? 'HP_ERR_HOOK_AFTER_READY' : 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
    await app.close()
  }
})

test('hooks: a name that is not a string, an unknown name, a hook that is not a function', () => {
  const app = hotpath()
  assert.throws(() => app.addHook(/** @type {any} */ (1), () => {}), { code: 'HP_ERR_HOOK_INVALID_TYPE', message: 'A hook name must be a string, got number' })
  assert.throws(() => app.addHook(/** @type {any} */ ('onArrival'), () => {}), { code: 'HP_ERR_HOOK_NOT_SUPPORTED', message: "Unknown hook 'onArrival'" })
  assert.throws(() => app.addHook('onRequest', /** @type {any} */ (42)), { code: 'HP_ERR_INVALID_HOOK', message: 'The onRequest hook must be a function, got [object Number]' })
  assert.throws(() => app.get('/', { preHandler: [() => {}, /** @type {any} */ ('x')] }, () => 'ok'), { code: 'HP_ERR_INVALID_HOOK', message: 'The preHandler hook must be a function, got [object String]' })
  assert.throws(() => app.addHook('onSend', /** @type {any} */ (null)), { code: 'HP_ERR_INVALID_HOOK', message: 'The onSend hook must be a function, got null' })
  // the hooks are checked as the onRoute hooks leave them
  const routed = hotpath()
  routed.addHook('onRoute', (/** @type {any} */ r) => { r.onSend = [undefined] })
  assert.throws(() => routed.get('/', () => 'ok'), { code: 'HP_ERR_INVALID_HOOK', message: 'The onSend hook must be a function, got [object Undefined]' })
  // a route hook given as null is no hook; Fastify refuses it
  app.get('/', { onRequest: null }, () => 'ok')
  assert.throws(() => fastify().get('/', { onRequest: null }, () => 'ok'), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'onRequest hook should be a function, instead got [object Null]' })
})

test('an async hook that declares done is refused, by addHook and as a route option', () => {
  const app = hotpath()
  assert.throws(() => app.addHook('onRequest', async (req, reply, done) => { done() }), { code: 'HP_ERR_HOOK_ASYNC_DONE', message: /async onRequest hook declares a 'done'/ })
  assert.throws(() => app.addHook('onSend', async (req, reply, payload, done) => { done() }), { code: 'HP_ERR_HOOK_ASYNC_DONE' })
  assert.throws(() => app.addHook('onReady', async (done) => { done() }), { code: 'HP_ERR_HOOK_ASYNC_DONE' })
  assert.throws(() => app.get('/', { preParsing: [async (req, reply, payload, done) => payload] }, () => 'ok'), { code: 'HP_ERR_HOOK_ASYNC_DONE' })
  // the same arities without async, and async ones without done, are hooks as before
  app.addHook('onRequest', (req, reply, done) => { done() })
  app.addHook('onSend', async (req, reply, payload) => payload)
  app.get('/', { preHandler: async (req, reply) => {} }, () => 'ok')
  app.addHook('onRequestAbort', async (req, reply) => {})
  assert.throws(() => app.addHook('onRequestAbort', async (req, reply, done) => {}), { code: 'HP_ERR_HOOK_ASYNC_DONE' })
  // Fastify's onRequestAbort takes (request, done)
  assert.throws(() => fastify().addHook('onRequestAbort', async (req, done) => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
})

test('the options of an app are an object; those before a handler are a plain object without a handler', () => {
  assert.throws(() => hotpath(/** @type {any} */ ('lol')), { code: 'HP_ERR_OPTIONS_NOT_OBJ', message: 'The options must be an object, got string' })
  assert.throws(() => fastify(/** @type {any} */ (3)), { code: 'FST_ERR_OPTIONS_NOT_OBJ', message: 'Options must be an object' })
  const app = hotpath()
  for (const options of ['', 1, [], undefined, null]) {
    assert.throws(() => app.get('/a', /** @type {any} */ (options), () => 'ok'), { code: 'HP_ERR_ROUTE_OPTIONS_NOT_OBJ' })
  }
  assert.throws(() => app.get('/a', { handler: () => 'one' }, () => 'two'), { code: 'HP_ERR_ROUTE_DUPLICATED_HANDLER', message: 'Route GET:/a has a handler in its options and another after them' })
  assert.throws(() => fastify().post('/b', /** @type {any} */ (''), () => 'ok'), { code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ', message: 'Options for "POST:/b" route must be an object' })
  assert.throws(() => fastify().get('/c', { handler: () => 'one' }, () => 'two'), { code: 'FST_ERR_ROUTE_DUPLICATED_HANDLER', message: 'Duplicate handler for "GET:/c" route is not allowed!' })
  // the options alone may carry the handler, and a handler may follow options without one
  app.get('/d', { handler: () => 'd' })
  app.get('/e', { logLevel: 'info' }, () => 'e')
})

test('decorateRequest and decorateReply refuse an object or array value; decorate takes one', () => {
  const app = hotpath()
  assert.throws(() => app.decorateRequest('cart', []), { code: 'HP_ERR_DEC_REFERENCE_TYPE', message: /'cart' is a shared object/ })
  assert.throws(() => app.decorateReply('meta', { a: 1 }), { code: 'HP_ERR_DEC_REFERENCE_TYPE' })
  app.decorateRequest('user', null)
  app.decorateRequest('now', { getter () { return 1 } })
  app.decorate('config', { region: 'eu' })
})

test("a route's path is a string, its bodyLimit a positive integer, and its logLevel a level or null", async () => {
  const app = hotpath()
  assert.throws(() => app.get(/** @type {any} */ (/^\/a/), () => 'ok'), { code: 'HP_ERR_INVALID_URL', message: "A route's path must be a string, got object" })
  assert.throws(() => fastify().get(/** @type {any} */ (1), () => 'ok'), { code: 'FST_ERR_INVALID_URL', message: "URL must be a string. Received 'number'" })
  assert.throws(() => app.post('/', { bodyLimit: 10.5 }, () => 'ok'), { code: 'HP_ERR_ROUTE_BODY_LIMIT', message: "A route's bodyLimit must be a positive integer, got '10.5'" })
  assert.throws(() => app.post('/', { bodyLimit: /** @type {any} */ ('big') }, () => 'ok'), { code: 'HP_ERR_ROUTE_BODY_LIMIT' })
  app.get('/', { logLevel: /** @type {any} */ (null) }, () => 'ok')
  assert.equal((await app.inject('/')).body, 'ok')
})

test("errorFormat 'fastify': Fastify's codes and messages, as instances of errorCodes", () => {
  const app = fastify()
  /** @type {[() => unknown, string, string][]} */
  const cases = [
    [() => app.addContentTypeParser(/** @type {any} */ (1), () => 1), 'FST_ERR_CTP_INVALID_TYPE', 'The content type should be a string or a RegExp'],
    [() => app.addContentTypeParser('', () => 1), 'FST_ERR_CTP_EMPTY_TYPE', 'The content type cannot be an empty string'],
    [() => app.addContentTypeParser('a/b', /** @type {any} */ ('no')), 'FST_ERR_CTP_INVALID_HANDLER', 'The content type handler should be a function'],
    [() => app.addContentTypeParser('a/b', { parseAs: /** @type {any} */ ('json') }, () => 1), 'FST_ERR_CTP_INVALID_PARSE_TYPE', "The body parser can only parse your data as 'string' or 'buffer', you asked 'json' which is not supported."],
    [() => app.addContentTypeParser('text/plain', () => 1) && app.addContentTypeParser('text/plain', () => 1), 'FST_ERR_CTP_ALREADY_PRESENT', "Content type parser 'text/plain' already present."],
    [() => app.addHook(/** @type {any} */ ('onArrival'), () => {}), 'FST_ERR_HOOK_NOT_SUPPORTED', 'onArrival hook not supported!'],
    [() => app.addHook('preHandler', async (req, reply, done) => {}), 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER', "Async function has too many arguments. Async hooks should not use the 'done' argument."],
    [() => app.decorateRequest('list', []), 'FST_ERR_DEC_REFERENCE_TYPE', "The decorator 'list' of type 'object' is a reference type. Use the { getter, setter } interface instead."],
    [() => app.get('/log', { logLevel: 'loud' }, () => 'ok'), 'FST_ERR_ROUTE_LOG_LEVEL_INVALID', "Log level for 'GET:/log' route must be a valid logger level. Received: 'loud'"],
    [() => app.put('/big', { bodyLimit: 0 }, () => 'ok'), 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT', "'bodyLimit' option must be an integer > 0. Got '0'"],
    [() => fastify({ querystringParser: /** @type {any} */ (1) }), 'FST_ERR_QSP_NOT_FN', "querystringParser option should be a function, instead got 'number'"]
  ]
  for (const [fn, code, message] of cases) {
    assert.throws(fn, (/** @type {any} */ err) => {
      assert.equal(err.code, code)
      assert.equal(err.message, message)
      assert.equal(err.statusCode, 500)
      assert.ok(err instanceof errorCodes[code], code)
      return true
    })
  }
})

test('setErrorHandler takes a function, addHttpMethod a method Node.js parses, reply.code() a status', async () => {
  for (const [make, codes] of /** @type {const} */ ([[hotpath, ['HP_ERR_ERROR_HANDLER_NOT_FN', 'HP_ERR_HTTP_METHOD_INVALID', 'HP_ERR_BAD_STATUS_CODE']], [fastify, ['FST_ERR_ERROR_HANDLER_NOT_FN', 'FST_ERR_ROUTE_METHOD_INVALID', 'FST_ERR_BAD_STATUS_CODE']]])) {
    const app = make()
    assert.throws(() => app.setErrorHandler(/** @type {any} */ ('handler')), { code: codes[0] })
    assert.throws(() => app.addHttpMethod('FETCH'), { code: codes[1] })
    /** @type {unknown} */
    let thrown
    app.get('/', (req, reply) => {
      try { reply.code(42) } catch (err) { thrown = err }
      return 'ok'
    })
    assert.equal((await app.inject('/')).statusCode, 200)
    assert.equal(/** @type {any} */ (thrown).code, codes[2])
    if (make === fastify) assert.equal(/** @type {any} */ (thrown).message, 'Called reply with an invalid status code: 42')
    await app.close()
  }
})

test('after ready(): routes, hooks and parsers are refused, with Fastify\'s codes under errorFormat \'fastify\'', async () => {
  const app = hotpath()
  await app.ready()
  assert.throws(() => app.addHook('onRequest', () => {}), { code: 'HP_ERR_HOOK_AFTER_READY', message: 'addHook (onRequest) was called after ready()' })
  assert.throws(() => app.addContentTypeParser('a/b', () => 1), { code: 'HP_ERR_PARSER_AFTER_READY', message: 'addContentTypeParser was called after ready()' })
  const f = fastify()
  await f.ready()
  assert.throws(() => f.get('/late', () => 'ok'), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: 'Fastify instance is already listening. Cannot add route!' })
  assert.throws(() => f.setErrorHandler(() => {}), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: 'Fastify instance is already listening. Cannot call "setErrorHandler"!' })
  assert.throws(() => f.addContentTypeParser('a/b', () => 1), { code: 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED', message: 'Cannot call "addContentTypeParser" when fastify instance is already started!' })
  await app.close()
  await f.close()
})

test('errorCodes: constructors called with or without new, as instances of their own code only', () => {
  const a = errorCodes.FST_ERR_VALIDATION('the name is missing')
  const b = new errorCodes.FST_ERR_CTP_ALREADY_PRESENT('a/b')
  assert.ok(a instanceof errorCodes.FST_ERR_VALIDATION)
  assert.ok(a instanceof Error)
  assert.ok(!(a instanceof errorCodes.FST_ERR_CTP_ALREADY_PRESENT))
  assert.deepEqual([a.code, a.statusCode, a.message, a.name], ['FST_ERR_VALIDATION', 400, 'the name is missing', 'FastifyError'])
  assert.equal(b.message, "Content type parser 'a/b' already present.")
  assert.equal(String(b), "FastifyError [FST_ERR_CTP_ALREADY_PRESENT]: Content type parser 'a/b' already present.")
  const cause = new Error('low')
  const withCause = errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE({ cause })
  assert.equal(withCause.cause, cause)
  assert.equal(withCause.message, 'Unsupported Media Type')
  assert.equal(errorCodes.FST_ERR_BAD_STATUS_CODE(42, { cause }).message, 'Called reply with an invalid status code: 42')
  assert.equal(errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE().statusCode, 415)
})

for (const [format, make] of /** @type {const} */ ([['hotpath', {}], ['fastify', { errorFormat: 'fastify' }]])) {
  const codes = format === 'hotpath'
    ? { tooLarge: 'HP_ERR_BODY_TOO_LARGE', media: 'HP_ERR_UNSUPPORTED_MEDIA_TYPE', empty: 'HP_ERR_EMPTY_JSON_BODY', json: 'HP_ERR_INVALID_JSON', noType: 'HP_ERR_MISSING_CONTENT_TYPE', noBody: 'HP_ERR_MISSING_CONTENT' }
    : { tooLarge: 'FST_ERR_CTP_BODY_TOO_LARGE', media: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', empty: 'FST_ERR_CTP_EMPTY_JSON_BODY', json: 'FST_ERR_CTP_INVALID_JSON_BODY', noType: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE', noBody: 'FST_ERR_ROUTE_MISSING_CONTENT' }
  eachMode(`body errors, errorFormat '${format}'`, (mode) => {
    /** @type {Awaited<ReturnType<typeof setup>>} */
    let s
    before(async () => {
      s = await setup(mode, (app) => {
        app.post('/', { bodyLimit: 8 }, (req) => ({ body: req.body }))
        app.route({ method: 'QUERY', url: '/q', handler: (req) => ({ body: req.body }) })
      }, make)
    })
    after(() => s.close())

    test('too large, unsupported type, empty and invalid JSON', async () => {
      const cases = [
        [{ method: 'POST', url: '/', headers: { 'content-type': 'text/plain' }, payload: 'more than eight' }, 413, codes.tooLarge],
        [{ method: 'POST', url: '/', headers: { 'content-type': 'image/png' }, payload: 'x' }, 415, codes.media],
        [{ method: 'POST', url: '/', headers: { 'content-type': 'application/json' } }, 400, codes.empty],
        [{ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: '{"a":' }, 400, codes.json]
      ]
      for (const [req, status, code] of cases) {
        const res = await s.request(/** @type {any} */ (req))
        assert.equal(res.statusCode, status, String(code))
        assert.equal(res.json().code, code)
      }
      if (format === 'fastify') {
        const res = await s.request({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' } })
        assert.equal(res.json().message, "Body cannot be empty when content-type is set to 'application/json'")
      }
    })

    test('a QUERY request needs a Content-Type and a body', async () => {
      const noType = await s.request({ method: 'QUERY', url: '/q', payload: 'a=1' })
      assert.equal(noType.statusCode, 400)
      assert.equal(noType.json().code, codes.noType)
      const noBody = await s.request({ method: 'QUERY', url: '/q', headers: { 'content-type': 'application/json' } })
      assert.equal(noBody.statusCode, 400)
      assert.equal(noBody.json().code, codes.noBody)
      const ok = await s.request({ method: 'QUERY', url: '/q', payload: { a: 1 } })
      assert.deepEqual(ok.json(), { body: { a: 1 } })
    })
  })
}

test('an injected body of another length than its Content-Length is refused', async () => {
  for (const [make, code] of /** @type {const} */ ([[hotpath, 'HP_ERR_INVALID_CONTENT_LENGTH'], [fastify, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH']])) {
    const app = make()
    app.post('/', (req) => ({ body: req.body }))
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/plain', 'content-length': '3' }, payload: 'abcdef' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().code, code)
    assert.equal(res.json().message, 'Request body size did not match Content-Length')
    const ok = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/plain', 'content-length': '6' }, payload: 'abcdef' })
    assert.deepEqual(ok.json(), { body: 'abcdef' })
    await app.close()
  }
})

test('a plugin that declares the decorators it needs fails ready() when one is missing', async () => {
  /** @param {Record<string, string[]>} decorators */
  const needing = (decorators) => Object.assign(async () => {}, { [Symbol.for('plugin-meta')]: { name: 'needy', decorators } })
  const app = hotpath()
  app.decorate('db', {})
  app.decorateReply('problem', null)
  app.register(needing({ fastify: ['db'], reply: ['problem'] }))
  await app.ready()

  const missing = hotpath()
  missing.register(needing({ request: ['user'] }))
  await assert.rejects(missing.ready(), { code: 'HP_ERR_PLUGIN_MISSING_DECORATOR', message: "The decorator 'user' required by 'needy' is missing from Request" })
  const f = fastify()
  f.register(needing({ fastify: ['db'] }))
  await assert.rejects(f.ready(), { code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', message: "The decorator 'db' required by 'needy' is not present in Fastify" })
})

test('a decorator added through what register() and after() return belongs to the instance', async () => {
  const app = hotpath()
  /** @type {unknown[]} */
  const seen = []
  app.register(async () => {}).after((err, instance, done) => {
    assert.equal(err, null)
    instance.decorate('fromAfter', 1)
    done()
  })
  app.register(async (child) => { seen.push(/** @type {any} */ (child).fromAfter) })
  app.register(async () => {}).decorate('chained', 2)
  await app.ready()
  assert.deepEqual(seen, [1])
  assert.equal(/** @type {any} */ (app).fromAfter, 1)
  assert.equal(/** @type {any} */ (app).chained, 2)
})

test('logger and loggerInstance: one of them, and a logger as loggerInstance', async () => {
  const { default: pino } = await import('pino')
  const log = pino({ level: 'silent' })
  assert.throws(() => hotpath({ logger: true, loggerInstance: log }), { code: 'HP_ERR_LOGGER_AND_INSTANCE' })
  assert.throws(() => hotpath({ loggerInstance: /** @type {any} */ ({ level: 'info' }) }), { code: 'HP_ERR_LOGGER_INSTANCE', message: /got object/ })
  // hotpath's own entry takes a logger as `logger` too; Fastify 5 (and
  // errorFormat 'fastify') only as loggerInstance
  await hotpath({ logger: log }).close()
  await hotpath({ logger: false, loggerInstance: log }).close()
  assert.throws(() => fastify({ logger: log }), { code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG', message: 'logger options only accepts a configuration object.' })
  assert.throws(() => fastify({ logger: { level: 'info' }, loggerInstance: log }), { code: 'FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED' })
  assert.throws(() => fastify({ loggerInstance: /** @type {any} */ ({ level: 'info' }) }), { code: 'FST_ERR_LOG_INVALID_LOGGER_INSTANCE' })
  // some of a logger's methods but not all: neither a logger nor options
  assert.throws(() => hotpath({ logger: /** @type {any} */ (console) }), { code: 'HP_ERR_LOGGER_INVALID', message: "The logger lacks the methods 'fatal,child'" })
  const childless = { info: log.info, error: log.error, debug: log.debug, fatal: log.fatal, warn: log.warn, trace: log.trace }
  assert.throws(() => fastify({ loggerInstance: /** @type {any} */ (childless) }), { code: 'FST_ERR_LOG_INVALID_LOGGER', message: "Invalid logger object provided. The logger instance should have these functions(s): 'child'." })
})

test('an async plugin that declares done fails ready(); decorator dependencies are an array', async () => {
  const app = hotpath()
  app.register(async function mixed (instance, opts, done) { done() })
  await assert.rejects(app.ready(), { code: 'HP_ERR_PLUGIN_ASYNC_DONE', message: /async plugin 'mixed' declares a 'done'/ })
  const f = fastify()
  f.register(async function mixed (instance, opts, done) { done() })
  await assert.rejects(f.ready(), { code: 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER', message: 'The mixed plugin being registered mixes async and callback styles. Async plugin should not mix async and callback style.' })

  const d = hotpath()
  assert.throws(() => d.decorate('a', 1, /** @type {any} */ ('b')), { code: 'HP_ERR_DEC_DEPENDENCY_INVALID_TYPE' })
  assert.throws(() => fastify().decorateRequest('a', null, /** @type {any} */ ({})), { code: 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', message: "The dependencies of decorator 'a' must be of type Array." })
  d.decorate('b', 1, null)
})

test('null as the options is no options, as Fastify takes it', async () => {
  const require = (await import('node:module')).createRequire(import.meta.url)
  const Fastify = require('fastify')
  /** @type {string[]} */
  const bodies = []
  for (const make of [Fastify, fastify]) {
    const app = make(/** @type {any} */ (null))
    app.get('/', () => ({ ok: true }))
    const res = await app.inject('/')
    bodies.push(`${res.statusCode} ${res.body}`)
    await app.close()
  }
  assert.deepEqual(bodies, ['200 {"ok":true}', '200 {"ok":true}'])
})
