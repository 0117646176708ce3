// The schemaController option and setSchemaController(): where a plugin
// scope keeps its shared schemas and how its compilers are built; the
// compiler getters; request.compileValidationSchema() and friends; body
// schemas by content type; async validators.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { hotpath } from '../../lib/index.js'
import { eachMode, setup } from '../helpers/engines.js'

const require = createRequire(import.meta.url)

/** A bucket that records what it is given: a Map of $id → schema. */
function recordingBucket () {
  /** @type {any[]} */
  const inits = []
  /** @param {Map<string, any> | undefined} init */
  const bucket = (init) => {
    inits.push(init)
    const store = new Map(init)
    return {
      add (/** @type {any} */ schema) { store.set(schema.$id, schema) },
      getSchema (/** @type {string} */ id) { return store.get(id) },
      getSchemas () { return new Map(store) }
    }
  }
  return { bucket, inits }
}

test('schemaController.bucket stores the shared schemas: a plugin scope starts from its parent\'s', async () => {
  const { bucket, inits } = recordingBucket()
  const app = hotpath({ schemaController: { bucket } })
  app.addSchema({ $id: 'a', type: 'string' })
  /** @type {number[]} */
  const sizes = []
  app.register(async (child) => {
    child.addSchema({ $id: 'b', type: 'string' })
    sizes.push(child.getSchemas().size)
  })
  app.register(async (child) => { sizes.push(child.getSchemas().size) })
  await app.ready()
  assert.deepEqual(sizes, [2, 1])
  // the root's bucket, then one per plugin, each given its parent's schemas
  assert.equal(inits.length, 3)
  assert.equal(inits[0], undefined)
  assert.deepEqual([...inits[1].keys()], ['a'])
  assert.equal(app.getSchema('b'), undefined)
})

test('schemaController.bucket must be a function', () => {
  assert.throws(() => hotpath({ schemaController: { bucket: {} } }), { code: 'HP_ERR_SCHEMA_CONTROLLER' })
  assert.doesNotThrow(() => hotpath({ schemaController: {} }))
})

test('compilersFactory builds the compilers, given the scope\'s shared schemas; setSchemaController changes them for one plugin', async () => {
  /** @type {any[]} */
  const built = []
  const app = hotpath({
    schemaController: {
      compilersFactory: {
        buildValidator (/** @type {any} */ schemas) {
          built.push(Object.keys(schemas))
          return ({ schema }) => (/** @type {any} */ data) => data?.[schema.required[0]] !== undefined
        }
      }
    }
  })
  app.addSchema({ $id: 'shared', type: 'object' })
  app.post('/root', { schema: { body: { type: 'object', required: ['a'] } } }, () => 'root')
  app.register(async (child) => {
    child.setSchemaController({
      compilersFactory: { buildValidator: () => () => () => ({ error: new Error('refused by the plugin') }) }
    })
    child.post('/child', { schema: { body: { type: 'object', required: ['a'] } } }, () => 'child')
  })
  await app.ready()
  assert.deepEqual(built, [['shared']])
  assert.equal((await app.inject({ method: 'POST', url: '/root', payload: { a: 1 } })).statusCode, 200)
  assert.equal((await app.inject({ method: 'POST', url: '/root', payload: { b: 1 } })).statusCode, 400)
  const child = await app.inject({ method: 'POST', url: '/child', payload: { a: 1 } })
  assert.equal(child.statusCode, 400)
  assert.match(child.json().message, /refused by the plugin/)
})

test('validatorCompiler is undefined until ready() builds it, and shared by scopes with the same schemas', async () => {
  const app = hotpath()
  const schema = { querystring: { type: 'object', properties: { n: { type: 'integer' } } } }
  app.get('/a', { schema }, () => 'a')
  /** @type {any[]} */
  const scopes = []
  app.register(async (child) => {
    child.get('/b', { schema }, () => 'b')
    scopes.push(child)
  })
  app.register(async (child) => {
    child.addSchema({ $id: 'own', type: 'string' })
    child.get('/c', { schema }, () => 'c')
    scopes.push(child)
  })
  assert.equal(app.validatorCompiler, undefined)
  await app.ready()
  assert.equal(typeof app.validatorCompiler, 'function')
  assert.equal(scopes[0].validatorCompiler, app.validatorCompiler)
  assert.notEqual(scopes[1].validatorCompiler, app.validatorCompiler)
})

test('setValidatorCompiler and setSerializerCompiler are read back by the getters; a route\'s own compilers leave them unset', async () => {
  const validator = () => () => true
  const app = hotpath()
  app.setValidatorCompiler(validator)
  assert.equal(app.validatorCompiler, validator)
  const other = hotpath()
  other.post('/', {
    schema: { body: { type: 'object' }, response: { 200: { type: 'object' } } },
    validatorCompiler: () => () => true,
    serializerCompiler: () => (/** @type {any} */ data) => JSON.stringify(data)
  }, () => ({ ok: true }))
  await other.ready()
  assert.equal(other.validatorCompiler, undefined)
  assert.equal(other.serializerCompiler, undefined)
})

test('addSchema reaches the plugins already loaded; a plugin\'s schema stays in its scope', async () => {
  const app = hotpath()
  app.register(async (child) => {
    child.get('/:id', { schema: { params: { $ref: 'late#' } } }, (req) => req.params)
    app.addSchema({ $id: 'late', type: 'object', properties: { id: { type: 'integer' } } })
    assert.throws(() => child.addSchema({ $id: 'late' }), { code: 'HP_ERR_SCHEMA_ALREADY_PRESENT' })
  })
  const res = await app.inject({ url: '/42' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { id: 42 })

  const isolated = hotpath()
  isolated.register(async (child) => { child.addSchema({ $id: 'mine', type: 'string' }) })
  isolated.register(async (child) => {
    child.post('/', { schema: { body: { $ref: 'mine#' } } }, () => 'x')
  })
  await assert.rejects(isolated.ready(), { code: 'HP_ERR_INVALID_SCHEMA' })
})

test('a response schema keyed by something other than a status fails ready()', async () => {
  const app = hotpath()
  app.get('/', { schema: { response: { type: 'object' } } }, () => ({}))
  await assert.rejects(app.ready(), { code: 'HP_ERR_SCHEMA_SERIALIZATION_BUILD' })
})

test('ajv-formats given as an ajv plugin is not added a second time', async () => {
  const app = hotpath({ ajv: { plugins: [require('ajv-formats')] } })
  app.post('/', { schema: { body: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } } } }, () => 'ok')
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { id: '254381a5-888c-4b41-8116-e3b1a54980bd' } })).statusCode, 200)
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { id: 'nope' } })).statusCode, 400)
})

test('request.compileValidationSchema() compiles once per route; validateInput() uses the route\'s validators', async () => {
  const app = hotpath()
  const schema = { type: 'object', required: ['hello'], properties: { hello: { type: 'string' } } }
  /** @type {any[]} */
  const seen = []
  app.post('/', { schema: { body: schema } }, (req) => {
    const validate = req.compileValidationSchema(schema)
    seen.push(validate)
    return {
      same: req.compileValidationSchema(schema) === validate && req.getValidationFunction(schema) === validate,
      ok: validate({ hello: 'x' }),
      bad: validate({}),
      body: req.validateInput({ hello: 1 }, 'body'),
      bodyFn: req.getValidationFunction('body') !== undefined,
      query: req.getValidationFunction('querystring') === undefined
    }
  })
  app.get('/invalid', (req) => { req.validateInput({}, 'params') })
  for (let i = 0; i < 2; i++) {
    const res = await app.inject({ method: 'POST', url: '/', payload: { hello: 'world' } })
    assert.deepEqual(res.json(), { same: true, ok: true, bad: false, body: false, bodyFn: true, query: true })
  }
  assert.equal(seen[0], seen[1])
  const res = await app.inject({ url: '/invalid' })
  assert.equal(res.statusCode, 500)
  const fastify = (await import('../../lib/fastify.js')).default({ logger: false })
  fastify.get('/', (req) => { req.validateInput({}, 'params') })
  assert.equal((await fastify.inject({ url: '/' })).json().code, 'FST_ERR_REQ_INVALID_VALIDATION_INVOCATION')
})

eachMode('body schemas by content type', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body))
      app.post('/', {
        schema: {
          body: {
            content: {
              'application/json': { schema: { type: 'object', required: ['foo'], properties: { foo: { type: 'string' } } } },
              'text/plain': { schema: { type: 'string', maxLength: 3 } }
            }
          }
        }
      }, (req) => ({ body: req.body }))
    })
  })
  after(() => s.close())

  test('the request\'s media type picks the schema, whatever its case and parameters', async () => {
    assert.equal((await s.request({ method: 'POST', url: '/', payload: { foo: 'x' } })).statusCode, 200)
    assert.equal((await s.request({ method: 'POST', url: '/', payload: JSON.stringify({ bar: 1 }), headers: { 'content-type': 'Application/JSON ; charset=utf-8' } })).statusCode, 400)
    assert.equal((await s.request({ method: 'POST', url: '/', payload: 'abc', headers: { 'content-type': 'text/plain' } })).statusCode, 200)
    assert.equal((await s.request({ method: 'POST', url: '/', payload: 'abcd', headers: { 'content-type': 'text/plain' } })).statusCode, 400)
  })
})

test('a content type without its schema fails ready()', async () => {
  const app = hotpath()
  app.post('/', { schema: { body: { content: { 'application/json': {} } } } }, () => 'x')
  await assert.rejects(app.ready(), { code: 'HP_ERR_SCHEMA_CONTENT_MISSING' })
})

eachMode('async validators', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      const schema = { $async: true, type: 'object', properties: { id: { type: 'integer', known: true } } }
      app.post('/:id', { schema: { params: schema, body: schema } }, (req) => req.body)
      app.post('/attach/:id', { schema: { body: schema }, attachValidation: true }, (req) => ({ failed: req.validationError !== undefined }))
    }, {
      ajv: {
        customOptions: {
          keywords: [{ keyword: 'known', async: true, type: 'number', validate: async (/** @type {any} */ _s, /** @type {number} */ data) => { await new Promise((resolve) => setImmediate(resolve)); return data === 42 } }]
        }
      }
    })
  })
  after(() => s.close())

  test('the request waits for the validator; a rejection answers 400', async () => {
    const ok = await s.request({ method: 'POST', url: '/42', payload: { id: 42 } })
    assert.equal(ok.statusCode, 200)
    assert.deepEqual(ok.json(), { id: 42 })
    const badParams = await s.request({ method: 'POST', url: '/7', payload: { id: 42 } })
    assert.equal(badParams.statusCode, 400)
    assert.equal(badParams.json().code, 'HP_ERR_VALIDATION')
    assert.equal((await s.request({ method: 'POST', url: '/42', payload: { id: 7 } })).statusCode, 400)
    assert.deepEqual((await s.request({ method: 'POST', url: '/attach/1', payload: { id: 7 } })).json(), { failed: true })
    assert.deepEqual((await s.request({ method: 'POST', url: '/attach/1', payload: { id: 42 } })).json(), { failed: false })
  })
})

test('reply.serializeInput() uses the response schema of a status, or a serializer compiled once for a schema', async () => {
  const app = hotpath()
  const extra = { type: 'object', properties: { kept: { type: 'string' } } }
  /** @type {any[]} */
  const compiled = []
  app.get('/', { schema: { response: { 201: { type: 'object', properties: { id: { type: 'integer' } } } } } }, (_req, reply) => {
    compiled.push(reply.compileSerializationSchema(extra))
    return {
      byStatus: reply.serializeInput({ id: 1, secret: 'x' }, 201),
      bySchema: reply.serializeInput({ kept: 'yes', dropped: 1 }, extra),
      fn: reply.getSerializationFunction(201) !== undefined && reply.getSerializationFunction(extra) === compiled[compiled.length - 1],
      missing: reply.getSerializationFunction(500) === undefined
    }
  })
  app.get('/missing', (_req, reply) => reply.serializeInput({}, 404))
  for (let i = 0; i < 2; i++) {
    assert.deepEqual((await app.inject({ url: '/' })).json(), { byStatus: '{"id":1}', bySchema: '{"kept":"yes"}', fn: true, missing: true })
  }
  assert.equal(compiled[0], compiled[1])
  assert.equal((await app.inject({ url: '/missing' })).statusCode, 500)
  const fastify = (await import('../../lib/fastify.js')).default({ logger: false })
  fastify.get('/', (_req, reply) => reply.serializeInput({}, 404))
  assert.equal((await fastify.inject({ url: '/' })).json().code, 'FST_ERR_MISSING_SERIALIZATION_FN')
})

test('serializerOpts reaches fast-json-stringify', async () => {
  const app = hotpath({ serializerOpts: { rounding: 'ceil' } })
  app.get('/', { schema: { response: { 200: { type: 'integer' } } } }, () => 4.2)
  assert.equal((await app.inject({ url: '/' })).body, '5')
  assert.throws(() => hotpath({ serializerOpts: 'ceil' }), { code: 'HP_ERR_INVALID_OPTION' })
})

test('a schema whose keys are $-keywords is not read as the property shorthand', async () => {
  const app = hotpath({
    ajv: {
      customOptions: {
        keywords: [{ keyword: '$requires', schemaType: 'array', compile: (/** @type {string[]} */ names) => (/** @type {any} */ data) => names.every((n) => data?.[n] !== undefined) }]
      }
    }
  })
  app.get('/', { schema: { headers: { $requires: ['x-a'] } } }, () => 'ok')
  assert.equal((await app.inject({ url: '/' })).statusCode, 400)
  assert.equal((await app.inject({ url: '/', headers: { 'x-a': '1' } })).statusCode, 200)
})
