// Plugins and hooks written with done callbacks, as Fastify's ecosystem
// writes them, next to async ones: (instance, opts, done) plugins,
// fastify-plugin's skip-override mark, register().after(), app.after(),
// ready(cb), hooks that call done(err, value), app hooks with done, Symbol
// and accessor decorators, decorator dependencies, route({ path }).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import hotpath, { plugin } from '../../lib/index.js'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('hooks written with done()', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const seen = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.addHook('onRequest', (req, reply, done) => {
        /** @type {any} */ (req).sync = 'sync done'
        done()
      })
      app.addHook('preHandler', (req, reply, done) => {
        setTimeout(() => {
          /** @type {any} */ (req).later = 'later done'
          done()
        }, 2)
      })
      app.addHook('onSend', (req, reply, payload, done) => {
        done(null, typeof payload === 'string' ? payload.replace('"ok"', '"sent"') : payload)
      })
      app.addHook('onResponse', (req, reply, done) => {
        seen.push(`onResponse ${reply.statusCode}`)
        done()
      })
      app.get('/chain', (req) => ({ state: 'ok', sync: /** @type {any} */ (req).sync, later: /** @type {any} */ (req).later }))
      app.route({
        method: 'GET',
        path: '/refused',
        preHandler: (req, reply, done) => done(Object.assign(new Error('no entry'), { statusCode: 403, expose: true })),
        handler: () => 'never'
      })
      app.register((api, opts, done) => {
        api.addHook('onError', (req, reply, error, done) => {
          seen.push(`onError ${/** @type {Error} */ (error).message}`)
          done()
        })
        api.get('/fails', () => { throw new Error('boom') })
        done()
      }, { prefix: '/cb' })
    })
  })
  after(() => s.close())

  test('done() called at once and done() called later both continue; onSend\'s done(null, value) replaces the payload', async () => {
    const res = await s.request('/chain')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { state: 'sent', sync: 'sync done', later: 'later done' })
  })

  test('done(err) in a route\'s preHandler is the request\'s error', async () => {
    const res = await s.request('/refused')
    assert.equal(res.statusCode, 403)
    assert.equal(res.json().message, 'no entry')
  })

  test('an onError hook with done() sees the error; a callback plugin\'s routes are served', async () => {
    seen.length = 0
    const res = await s.request('/cb/fails')
    assert.equal(res.statusCode, 500)
    for (let i = 0; i < 50 && !seen.includes('onResponse 500'); i++) await new Promise((resolve) => setTimeout(resolve, 5))
    assert.ok(seen.includes('onError boom'), JSON.stringify(seen))
    assert.ok(seen.includes('onResponse 500'), JSON.stringify(seen))
  })
})

test('plugins with done(), skip-override, after() and ready(cb), in order', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const order = []
  const shared = Object.assign((/** @type {any} */ instance, /** @type {any} */ opts, /** @type {Function} */ done) => {
    instance.decorate('fromShared', opts.value)
    done()
  }, { [Symbol.for('skip-override')]: true })
  app.register((instance, opts, done) => {
    order.push('callback plugin')
    setTimeout(done, 2)
  }).after((err) => {
    order.push(`after the callback plugin (${err})`)
  })
  app.register(shared, { value: 42 })
  app.register(async () => { order.push('async plugin') })
  app.after((err, done) => {
    order.push('after(err, done)')
    done()
  })
  await app.after()
  order.push('await after()')
  await new Promise((resolve, reject) => app.ready((err) => err ? reject(err) : resolve(undefined)))
  assert.deepEqual(order, ['callback plugin', 'after the callback plugin (null)', 'async plugin', 'after(err, done)', 'await after()'])
  assert.equal(/** @type {any} */ (app).fromShared, 42, 'a skip-override plugin decorates the instance that registered it')
  await app.close()
})

test('a plugin that calls done(err) fails ready(), and ready(cb) gets the error', async () => {
  const app = hotpath()
  app.register((instance, opts, done) => done(new Error('cannot start')))
  const err = await new Promise((resolve) => app.ready(resolve))
  assert.equal(/** @type {Error} */ (err).message, 'cannot start')
})

test('a plugin that failed to load fails ready() and listen() even when an awaited register() caught its error, as in Fastify', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const caught = []
  try {
    await app.register((_instance, opts, done) => done(opts.handler === undefined ? new Error('invalid handler') : undefined), {})
  } catch (err) {
    caught.push(/** @type {Error} */ (err).message)
  }
  app.get('/', () => 'ok')
  try {
    await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), { message: 'invalid handler' })
    await assert.rejects(app.ready(), { message: 'invalid handler' })
    assert.deepEqual(caught, ['invalid handler'])
  } finally {
    await app.close()
  }
})

test('app hooks with done: onReady(done), onClose(instance, done)', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const order = []
  /** @type {unknown[]} `this` in onReady, the argument of onClose */
  const given = []
  app.addHook('onReady', function (done) {
    given.push(this)
    setTimeout(() => { order.push('onReady'); done() }, 2)
  })
  app.addHook('onClose', (instance, done) => {
    given.push(instance)
    order.push('onClose')
    done()
  })
  await app.ready()
  order.push('ready')
  await app.close()
  assert.deepEqual(order, ['onReady', 'ready', 'onClose'])
  assert.equal(given.length, 2)
  assert.ok(given.every((g) => g === app), 'onReady runs with this = the instance; onClose gets the instance')
})

test('decorators named by a Symbol or given as { getter }, and their dependencies', async () => {
  const app = hotpath()
  const kDb = Symbol('db')
  app.decorate(kDb, { query: () => 'rows' })
  app.decorate('release', { getter: () => '1.2.3' })
  app.decorateRequest(kDb, null)
  app.decorateReply('tagged', { getter () { return 'tag' } })
  assert.throws(() => app.decorate('needsAuth', true, ['auth']), { code: 'HP_ERR_DEC_MISSING_DEPENDENCY' })
  app.decorate('auth', true)
  app.decorate('needsAuth', true, ['auth'])
  assert.equal(/** @type {any} */ (app)[kDb].query(), 'rows')
  assert.equal(/** @type {any} */ (app).release, '1.2.3')
  assert.ok(app.hasRequestDecorator(kDb))
  assert.throws(() => app.decorateRequest(kDb, 1), { code: 'HP_ERR_DEC_ALREADY_PRESENT' })
  app.get('/', (req, reply) => ({ req: /** @type {any} */ (req)[kDb], tag: /** @type {any} */ (reply).tagged }))
  const res = await app.inject({ url: '/' })
  assert.deepEqual(res.json(), { req: null, tag: 'tag' })
})

eachMode('reply.callNotFound() and initialConfig', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/maybe/:id', (req, reply) => {
        if (/** @type {any} */ (req.params).id === 'missing') return reply.callNotFound()
        return { id: /** @type {any} */ (req.params).id }
      })
      app.register(async (api) => {
        api.setNotFoundHandler((req, reply) => reply.code(404).send({ custom: true, url: req.url }))
        api.get('/x', async (req, reply) => { reply.callNotFound() })
      }, { prefix: '/own' })
      app.get('/config', () => ({ bodyLimit: app.initialConfig.bodyLimit, frozen: Object.isFrozen(app.initialConfig) }))
    }, { bodyLimit: 4096 })
  })
  after(() => s.close())

  test('callNotFound() answers with the not-found handler of the path\'s prefix', async () => {
    assert.deepEqual((await s.request('/maybe/7')).json(), { id: '7' })
    const missing = await s.request('/maybe/missing')
    assert.equal(missing.statusCode, 404)
    assert.equal(missing.json().code, 'HP_ERR_NOT_FOUND')
    const own = await s.request('/own/x')
    assert.equal(own.statusCode, 404)
    assert.deepEqual(own.json(), { custom: true, url: '/own/x' })
  })

  test('initialConfig holds the resolved limits, frozen', async () => {
    assert.deepEqual((await s.request('/config')).json(), { bodyLimit: 4096, frozen: true })
  })
})

test('inject(options, callback) answers through the callback; inject(url) takes a URL', async () => {
  const app = hotpath()
  app.get('/', () => ({ ok: true }))
  const res = await new Promise((resolve, reject) => app.inject({ url: '/' }, (err, r) => err ? reject(err) : resolve(r)))
  assert.equal(/** @type {any} */ (res).statusCode, 200)
  assert.deepEqual((await app.inject('/')).json(), { ok: true })
  await app.close()
})

test('a plugin gets its options whole, prefix included; a shared plugin\'s prefix prefixes nothing', async () => {
  const app = hotpath()
  /** @type {any[]} */
  const seen = []
  app.register(async (api, opts) => {
    seen.push(opts)
    api.get('/own', () => 'own')
  }, { prefix: '/p', x: 1 })
  const shared = Object.assign(async (/** @type {any} */ api, /** @type {any} */ opts) => {
    seen.push(opts)
    api.get(opts.prefix + '/mine', () => 'mine')
  }, { [Symbol.for('skip-override')]: true })
  app.register(shared, { prefix: '/files' })
  await app.ready()
  assert.deepEqual(seen, [{ prefix: '/p', x: 1 }, { prefix: '/files' }])
  assert.equal((await app.inject('/p/own')).body, 'own')
  assert.equal((await app.inject('/files/mine')).body, 'mine')
})

test('app.log is a logger even with logging off; loggerInstance takes a pino made elsewhere', async () => {
  const quiet = hotpath()
  assert.equal(typeof quiet.log.warn, 'function')
  quiet.log.warn('goes nowhere')
  /** @type {string[]} */
  const lines = []
  const { default: pino } = await import('pino')
  const app = hotpath({ loggerInstance: pino({ level: 'warn' }, { write: (/** @type {string} */ l) => { lines.push(JSON.parse(l).msg) } }) })
  app.log.warn('from the instance')
  assert.deepEqual(lines, ['from the instance'])
})

eachMode('shared schemas: addSchema, $ref, getSchemas', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.addSchema({ $id: 'item', type: 'object', required: ['name'], properties: { name: { type: 'string' }, secret: { type: 'string' } } })
      app.register(async (api) => {
        api.addSchema({ $id: 'out', type: 'object', properties: { name: { type: 'string' } } })
        api.post('/items', { schema: { body: { $ref: 'item#' }, response: { 200: { $ref: 'out#' } } } }, (req) => req.body)
        api.get('/seen', () => ({ ids: Object.keys(api.getSchemas()).sort() }))
      })
      app.get('/root-seen', () => ({ ids: Object.keys(app.getSchemas()).sort() }))
    })
  })
  after(() => s.close())

  test('a route $refs shared schemas for its body and its response', async () => {
    const ok = await s.request({ method: 'POST', url: '/items', payload: { name: 'pen', secret: 's' } })
    assert.equal(ok.statusCode, 200)
    assert.deepEqual(ok.json(), { name: 'pen' }, 'the response schema drops what it does not list')
    const bad = await s.request({ method: 'POST', url: '/items', payload: { secret: 's' } })
    assert.equal(bad.statusCode, 400)
  })

  test('getSchemas() sees the context\'s own schemas and its parents\', not its children\'s', async () => {
    assert.deepEqual((await s.request('/seen')).json(), { ids: ['item', 'out'] })
    assert.deepEqual((await s.request('/root-seen')).json(), { ids: ['item'] })
  })
})

test('addSchema refuses a schema without $id and a second one with the same $id', () => {
  const app = hotpath()
  assert.throws(() => app.addSchema({ type: 'object' }), { code: 'HP_ERR_SCHEMA_MISSING_ID' })
  app.addSchema({ $id: 'a', type: 'string' })
  assert.throws(() => app.addSchema({ $id: 'a', type: 'number' }), { code: 'HP_ERR_SCHEMA_ALREADY_PRESENT' })
})

eachMode('reply.code() and reply.raw.statusCode', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', (req, reply) => {
        reply.code(503)
        const first = reply.raw.statusCode
        reply.code(201)
        return { first, then: reply.raw.statusCode }
      })
    })
  })
  after(() => s.close())

  test('the status set by code() is the one reply.raw reports, before and after it was first read', async () => {
    const res = await s.request('/')
    assert.equal(res.statusCode, 201)
    assert.deepEqual(res.json(), { first: 503, then: 201 })
  })
})

test('an inject() result lists the cookies set, parsed and URL-decoded, as light-my-request does', async () => {
  const app = hotpath()
  app.get('/', (req, reply) => reply.header('set-cookie', 'a=1; Path=/; HttpOnly').header('set-cookie', 'b=two%20words; Max-Age=60').send('ok'))
  const res = await app.inject('/')
  assert.deepEqual(res.cookies.map((/** @type {object} */ c) => ({ ...c })), [
    { name: 'a', value: '1', path: '/', httpOnly: true },
    { name: 'b', value: 'two words', maxAge: 60 }
  ])
  assert.deepEqual((await app.inject({ url: '/nothing' })).cookies, [])
})

test('inject() sends its `cookies` option in the Cookie header, URL-encoded, after a Cookie header given', async () => {
  const app = hotpath()
  app.get('/', (req) => ({ cookie: req.headers.cookie ?? null }))
  await app.ready()
  assert.deepEqual((await app.inject({ url: '/', cookies: { token: 'a b;c', theme: 'dark' } })).json(), { cookie: 'token=a%20b%3Bc; theme=dark' })
  assert.deepEqual((await app.inject({ url: '/', headers: { cookie: 'first=1' }, cookies: { token: 't' } })).json(), { cookie: 'first=1; token=t' })
  // an empty object still sets the header, empty, as light-my-request sets it
  assert.deepEqual((await app.inject({ url: '/', cookies: {} })).json(), { cookie: '' })
})

test('an inject() result carries Date and Connection: keep-alive, as a response off a socket does', async () => {
  const app = hotpath()
  app.get('/', () => 'ok')
  app.get('/closing', (_req, reply) => reply.header('connection', 'close').send('ok'))
  const res = await app.inject('/')
  assert.equal(res.headers.connection, 'keep-alive')
  assert.ok(!Number.isNaN(Date.parse(res.headers.date)), res.headers.date)
  assert.equal((await app.inject('/closing')).headers.connection, 'close')
})

test('inject() reads a stream payload and sends it as the body, with no length unless the headers give one', async () => {
  const app = hotpath()
  app.post('/', (req) => ({ got: req.body, length: req.headers['content-length'] ?? null }))
  const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/plain' }, payload: Readable.from(['a=1', '&b=2']) })
  assert.deepEqual(res.json(), { got: 'a=1&b=2', length: null })
})

eachMode('request.routeOptions, as Fastify shapes it', (mode) => {
  test('config is an object naming the url and method even when the route declares none; bodyLimit is the one that applies', async () => {
    const s = await setup(mode, (app) => {
      app.get('/plain', (req) => ({ config: req.routeOptions.config, bodyLimit: req.routeOptions.bodyLimit }))
      app.register(async (child) => {
        child.post('/own', { config: { tag: 'x' }, bodyLimit: 10 }, (req) => ({ config: req.routeOptions.config, bodyLimit: req.routeOptions.bodyLimit, url: req.routeOptions.url }))
      }, { prefix: '/v1' })
    }, { bodyLimit: 1000 })
    const plain = await s.request('/plain')
    const own = await s.request({ method: 'POST', url: '/v1/own', payload: { a: 1 } })
    await s.close()
    assert.deepEqual(plain.json(), { config: { url: '/plain', method: 'GET' }, bodyLimit: 1000 })
    assert.deepEqual(own.json(), { config: { tag: 'x', url: '/v1/own', method: 'POST' }, bodyLimit: 10, url: '/v1/own' })
  })
})

eachMode('a hook that takes done but returns a promise', (mode) => {
  test('continues when the promise settles, as in Fastify; a rejection is the request\'s error', async () => {
    const s = await setup(mode, (app) => {
      app.addHook('onRequest', function (req, _reply, done) {
        void done
        if (req.url === '/fail') return Promise.reject(Object.assign(new Error('refused'), { statusCode: 403, expose: true }))
        return Promise.resolve()
      })
      app.get('/ok', () => 'ok')
      app.get('/fail', () => 'not reached')
    })
    const ok = await s.request('/ok')
    const fail = await s.request('/fail')
    await s.close()
    assert.equal(ok.body, 'ok')
    assert.equal(fail.statusCode, 403)
    assert.equal(fail.json().message, 'refused')
  })
})

eachMode('a hook behind a wrapper that declares no parameter (a tracer\'s)', (mode) => {
  /**
   * What tracers put around each hook: a function passing on its arguments.
   * @param {Function} hook
   */
  const wrap = (hook) => function wrapped (/** @type {any[]} */ ...args) { return hook.apply(this, args) }

  test('with Fastify\'s forms it gets done(), as every hook does in Fastify', async () => {
    const s = await setup(mode, (app) => {
      app.addHook('onRequest', wrap((/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => {
        req.seen = 'later'
        setImmediate(done)
      }))
      app.addHook('onSend', wrap((/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload, /** @type {Function} */ done) => done(null, payload + '!')))
      app.addHook('preHandler', wrap(async (/** @type {any} */ req) => { req.seen += ' async' }))
      app.get('/wrapped', (req) => /** @type {any} */ (req).seen)
    }, { errorFormat: 'fastify' })
    const res = await s.request('/wrapped')
    await s.close()
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'later async!')
  })

  test('with hotpath\'s own forms it is a hook that returns its result', async () => {
    const s = await setup(mode, (app) => {
      app.addHook('onRequest', wrap((/** @type {any} */ req) => { req.seen = 'returned' }))
      app.get('/wrapped', (req) => /** @type {any} */ (req).seen)
    })
    const res = await s.request('/wrapped')
    await s.close()
    assert.equal(res.body, 'returned')
  })
})

eachMode('content-type parsers written as (req, payload, done)', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body.toString())))
      })
      // no parseAs: the body as a stream, read by the parser, as in Fastify
      app.addContentTypeParser('text/csv', (req, payload, done) => {
        let text = ''
        payload.on('data', (/** @type {Buffer} */ c) => { text += c })
        payload.on('end', () => done(null, text.split(',')))
        payload.on('error', done)
      })
      app.addContentTypeParser('application/x-refuse', { parseAs: 'string' }, (req, body, done) => done(Object.assign(new Error('refused by the parser'), { statusCode: 422, expose: true })))
      app.post('/echo', (req) => ({ body: req.body }))
    })
  })
  after(() => s.close())

  test('done(null, value) is the body; a parser without parseAs reads the stream itself; done(err) is the error', async () => {
    const form = await s.request({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1&b=two' })
    assert.deepEqual(form.json(), { body: { a: '1', b: 'two' } })
    const csv = await s.request({ method: 'POST', url: '/echo', headers: { 'content-type': 'text/csv' }, payload: 'x,y,z' })
    assert.deepEqual(csv.json(), { body: ['x', 'y', 'z'] })
    const refused = await s.request({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/x-refuse' }, payload: 'no' })
    assert.equal(refused.statusCode, 422)
    assert.equal(refused.json().message, 'refused by the parser')
  })
})

eachMode('setValidatorCompiler and setSerializerCompiler', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const asked = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.register(async (api) => {
        // a validator of its own: the schema's `min` for a number body field
        api.setValidatorCompiler((/** @type {any} */ { schema, method, url, httpPart }) => {
          asked.push({ method, url, httpPart })
          return (/** @type {any} */ data) => data.n >= schema.min ? true : { error: new Error(`n must be at least ${schema.min}`) }
        })
        api.setSerializerCompiler((/** @type {any} */ { httpStatus }) => (/** @type {any} */ data) => `status ${httpStatus}: ${data.n}`)
        api.post('/custom', { schema: { body: { min: 5 }, response: { 200: { type: 'string' } } } }, (req) => req.body)
      })
      app.post('/ajv', { schema: { body: { type: 'object', properties: { n: { type: 'integer', minimum: 5 } } } } }, (req) => req.body)
    })
  })
  after(() => s.close())

  test('a context\'s own compilers validate and serialize its routes; others keep ajv', async () => {
    const ok = await s.request({ method: 'POST', url: '/custom', payload: { n: 7 } })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.body, 'status 200: 7')
    const bad = await s.request({ method: 'POST', url: '/custom', payload: { n: 1 } })
    assert.equal(bad.statusCode, 400)
    assert.match(bad.json().message, /n must be at least 5/)
    assert.deepEqual(asked, [{ method: 'POST', url: '/custom', httpPart: 'body' }])
    const viaAjv = await s.request({ method: 'POST', url: '/ajv', payload: { n: 1 } })
    assert.equal(viaAjv.statusCode, 400)
  })
})

test('listen(opts, callback) and close(callback), as in Fastify', async () => {
  const app = hotpath()
  app.get('/', () => 'up')
  const address = await new Promise((resolve, reject) => app.listen({ port: 0, host: '127.0.0.1' }, (err, url) => err ? reject(err) : resolve(url)))
  assert.match(String(address), /^http:\/\/127\.0\.0\.1:\d+$/)
  assert.equal(await (await fetch(String(address))).text(), 'up')
  await new Promise((resolve, reject) => app.close((err) => err ? reject(err) : resolve(undefined)))
})

test('a throw in a callback given to inject() or ready() is an exception of its own, not an unhandled rejection', async () => {
  const app = hotpath()
  app.get('/', () => 'ok')
  /** @type {string[]} */
  const seen = []
  const onRejection = () => seen.push('unhandled rejection')
  // node:test's own listener would fail this test: stand in for it while the callbacks throw
  const testRunners = process.listeners('uncaughtException')
  process.removeAllListeners('uncaughtException')
  process.on('uncaughtException', (err) => seen.push(`exception: ${err.message}`))
  process.on('unhandledRejection', onRejection)
  try {
    app.inject('/', () => { throw new Error('from inject') })
    await new Promise((resolve) => setTimeout(resolve, 50))
    app.ready(() => { throw new Error('from ready') })
    await new Promise((resolve) => setTimeout(resolve, 50))
  } finally {
    process.removeAllListeners('uncaughtException')
    for (const l of testRunners) process.on('uncaughtException', l)
    process.removeListener('unhandledRejection', onRejection)
  }
  assert.deepEqual(seen, ['exception: from inject', 'exception: from ready'])
})

eachMode('the error path and a status set before it', (mode) => {
  test('reply.code(401) then done(err) answers 401, as in Fastify; with no error status set, the error\'s own', async () => {
    const s = await setup(mode, (app) => {
      app.get('/set', { preHandler: (_req, reply, done) => { reply.code(401); done(new Error('no')) } }, () => 'x')
      app.get('/unset', { preHandler: (_req, _reply, done) => { done(Object.assign(new Error('slow down'), { statusCode: 429 })) } }, () => 'x')
    })
    const set = await s.request('/set')
    const unset = await s.request('/unset')
    await s.close()
    assert.equal(set.statusCode, 401)
    assert.equal(unset.statusCode, 429)
  })

  test('a hook that sends and then fails is logged, with no unhandled rejection', async () => {
    /** @type {any[]} */
    const lines = []
    const stream = { write (/** @type {string} */ line) { lines.push(JSON.parse(line)) } }
    let rejections = 0
    const onRejection = () => { rejections++ }
    process.on('unhandledRejection', onRejection)
    const s = await setup(mode, (app) => {
      app.get('/', { preHandler: (_req, reply, done) => { reply.code(401).send({ no: true }); setTimeout(() => done(new Error('late')), 5) } }, () => 'x')
    }, { logger: { level: 'error', stream } })
    const res = await s.request('/')
    await new Promise((resolve) => setTimeout(resolve, 50))
    await s.close()
    process.removeListener('unhandledRejection', onRejection)
    assert.equal(res.statusCode, 401)
    assert.equal(rejections, 0)
    assert.ok(lines.some((l) => l.err?.message === 'late'), JSON.stringify(lines))
  })
})

eachMode('setNotFoundHandler(options, handler)', (mode) => {
  test('its preValidation and preHandler hooks run for not-found requests, after the context\'s hooks', async () => {
    const s = await setup(mode, (app) => {
      app.addHook('preHandler', async (/** @type {any} */ req) => { req.seen = ['context'] })
      app.setNotFoundHandler({
        preValidation: (/** @type {any} */ req, _reply, done) => { req.validated = true; done() },
        preHandler: [async (/** @type {any} */ req) => { req.seen.push('own') }]
      }, (/** @type {any} */ req, reply) => reply.code(404).send({ seen: req.seen, validated: req.validated }))
      app.get('/', () => 'home')
    })
    const res = await s.request('/nowhere')
    await s.close()
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { seen: ['context', 'own'], validated: true })
  })
})

test('reply.serialize() gives the JSON send() would make for the current status; a route hook may be null', async () => {
  const app = hotpath()
  app.get('/', {
    onRequest: null,
    schema: { response: { 200: { type: 'object', properties: { shown: { type: 'string' } } } } }
  }, (_req, reply) => {
    const ok = reply.serialize({ shown: 'yes', hidden: 'no' })
    const notFound = reply.code(404).serialize({ shown: 'yes', hidden: 'no' })
    reply.code(200).type('application/json').send(JSON.stringify({ ok, notFound }))
  })
  const res = await app.inject('/')
  assert.deepEqual(res.json(), { ok: '{"shown":"yes"}', notFound: '{"shown":"yes","hidden":"no"}' })
})

test('a hook added after a register() not yet loaded runs after the hooks that plugin adds to the same context, as avvio orders them', async () => {
  const app = hotpath()
  app.register(plugin(async (instance) => {
    instance.addHook('onSend', async (_req, reply) => { reply.header('x-order', [reply.getHeader('x-order'), 'plugin'].filter(Boolean).join(',')) })
  }))
  app.addHook('onSend', async (_req, reply) => { reply.header('x-order', [reply.getHeader('x-order'), 'root'].filter(Boolean).join(',')) })
  app.get('/', () => 'ok')
  const res = await app.inject('/')
  assert.equal(res.headers['x-order'], 'plugin,root')
})

test('inject(): a streamed reply of no declared length comes back chunked, with no Content-Length, as over a socket', async () => {
  const app = hotpath()
  app.get('/stream', (_req, reply) => reply.send(Readable.from(['a', 'b'])))
  app.get('/sized', (_req, reply) => reply.header('content-length', '2').send(Readable.from(['a', 'b'])))
  const stream = await app.inject('/stream')
  const sized = await app.inject('/sized')
  assert.equal(stream.body, 'ab')
  assert.equal(stream.headers['content-length'], undefined)
  assert.equal(stream.headers['transfer-encoding'], 'chunked')
  assert.equal(sized.headers['content-length'], '2')
  assert.equal(sized.headers['transfer-encoding'], undefined)
})
