// hotpath's own compilers compile a route's schemas on its first request;
// ready() still refuses what a compile would refuse (see
// lib/routing/schema-check.js and docs/validation.md).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup, LISTENING_MODES } from '../helpers/engines.js'

const { default: hotpath } = await import('../../lib/index.js')

/** route i's schemas: the same params on every route, its own body and response */
function schemasOf (/** @type {number} */ i) {
  return {
    params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
    body: { type: 'object', properties: { [`n${i}`]: { type: 'integer' }, tag: { type: 'string', pattern: '^[a-z]+$' } }, required: [`n${i}`] },
    response: { 200: { type: 'object', properties: { id: { type: 'integer' }, [`n${i}`]: { type: 'integer' } } } }
  }
}

eachMode('schemas compiled on first use', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      for (let i = 0; i < 20; i++) {
        app.post(`/r${i}/:id`, { schema: schemasOf(i) }, (req) => ({ ...(/** @type {any} */ (req.body)), id: /** @type {any} */ (req.params).id, hidden: 'x' }))
      }
    })
  })
  after(() => s.close())

  test('every route validates, coerces and serializes as its schemas say, on its first request and after', async () => {
    for (const i of [19, 0, 7, 19, 0]) {
      const ok = await s.request({ method: 'POST', url: `/r${i}/5`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ [`n${i}`]: 3, tag: 'abc' }) })
      assert.equal(ok.statusCode, 200)
      assert.deepEqual(ok.json(), { id: 5, [`n${i}`]: 3 })
      const badBody = await s.request({ method: 'POST', url: `/r${i}/5`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ tag: 'ABC' }) })
      assert.equal(badBody.statusCode, 400)
      assert.match(badBody.json().message, new RegExp(`n${i}`))
      const badParams = await s.request({ method: 'POST', url: `/r${i}/zero`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ [`n${i}`]: 1 }) })
      assert.equal(badParams.statusCode, 400)
    }
  })
})

/**
 * An app of the 20 routes whose ajv compiles are counted (Fastify's
 * `ajv.onCreate` option wraps each instance's compile).
 */
function countedApp () {
  const counter = { compiles: 0 }
  /** @param {any} app */
  const build = (app) => {
    for (let i = 0; i < 20; i++) {
      app.post(`/r${i}/:id`, { schema: schemasOf(i) }, (req) => ({ ...(/** @type {any} */ (req.body)), id: /** @type {any} */ (req.params).id }))
    }
  }
  const options = {
    ajv: {
      onCreate (/** @type {any} */ ajv) {
        const compile = ajv.compile.bind(ajv)
        ajv.compile = (/** @type {any} */ schema) => { counter.compiles++; return compile(schema) }
      }
    }
  }
  return { counter, build, options }
}

/** @param {{ request: (o: any) => Promise<any> }} s */
async function requestEveryRoute (s) {
  for (let i = 0; i < 20; i++) {
    const r = await s.request({ method: 'POST', url: `/r${i}/5`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ [`n${i}`]: 3 }) })
    assert.equal(r.statusCode, 200)
    assert.deepEqual(r.json(), { id: 5, [`n${i}`]: 3 })
  }
}

test('without listen(), a schema compiles on its route\'s first request', async () => {
  const { counter, build, options } = countedApp()
  const s = await setup('inject', build, options)
  try {
    const atReady = counter.compiles
    // nothing runs ahead of the requests without a server listening
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(counter.compiles, atReady)
    await requestEveryRoute(s)
    assert.ok(counter.compiles > atReady, 'the routes compiled on their first requests')
  } finally {
    await s.close()
  }
})

eachMode('schemas compiled in the background once the server listens', (mode) => {
  test('every deferred schema is compiled before its first request; requests compile nothing', async () => {
    // how many compiles the app makes in all: every route requested once, no server
    const reference = countedApp()
    const ref = await setup('inject', reference.build, reference.options)
    await requestEveryRoute(ref)
    await ref.close()
    const all = reference.counter.compiles

    const { counter, build, options } = countedApp()
    const s = await setup(mode, build, options)
    try {
      // the pass runs between turns of the event loop: wait for it (bounded)
      for (let i = 0; i < 1000 && counter.compiles < all; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      assert.equal(counter.compiles, all)
      await requestEveryRoute(s)
      assert.equal(counter.compiles, all, 'no request compiled anything')
    } finally {
      await s.close()
    }
  })
}, LISTENING_MODES)

test('getValidationFunction() and getSerializationFunction() hand out the compiled functions', async () => {
  const app = hotpath()
  /** @type {any[]} */
  const seen = []
  app.post('/a/:id', { schema: schemasOf(1) }, (req, reply) => {
    const body = /** @type {any} */ (req).getValidationFunction('body')
    seen.push(body, /** @type {any} */ (req).getValidationFunction('body'), body({}), body.errors?.[0]?.keyword, /** @type {any} */ (req).getValidationFunction('params'))
    const serialize = /** @type {any} */ (reply).getSerializationFunction(200)
    seen.push(serialize, /** @type {any} */ (reply).getSerializationFunction(200), serialize({ id: 1, n1: 2, other: 3 }))
    return { id: 1, n1: 2 }
  })
  app.post('/b/:id', { schema: schemasOf(2) }, (req) => {
    seen.push(/** @type {any} */ (req).getValidationFunction('params'))
    return { id: 1, n2: 2 }
  })
  const a = await app.inject({ method: 'POST', url: '/a/1', payload: { n1: 1 } })
  assert.equal(a.statusCode, 200)
  const b = await app.inject({ method: 'POST', url: '/b/1', payload: { n2: 1 } })
  assert.equal(b.statusCode, 200)
  const [body, bodyAgain, valid, keyword, paramsA, serialize, serializeAgain, text, paramsB] = seen
  assert.equal(typeof body, 'function')
  assert.equal(body, bodyAgain)
  assert.equal(valid, false)
  assert.equal(keyword, 'required')
  assert.equal(serialize, serializeAgain)
  assert.equal(text, '{"id":1,"n1":2}')
  // routes whose schemas have the same text share one compiled validator
  assert.equal(paramsA, paramsB)
})

test('what a compile would refuse still fails ready(): a pattern that is no regular expression, a $ref to nothing', async () => {
  const pattern = hotpath()
  pattern.post('/', { schema: { body: { type: 'object', properties: { a: { type: 'string', pattern: '[' } } } } }, () => 'x')
  await assert.rejects(pattern.ready(), { code: 'HP_ERR_INVALID_SCHEMA' })

  const pointer = hotpath()
  pointer.post('/', { schema: { body: { type: 'object', definitions: { a: { type: 'string' } }, properties: { a: { $ref: '#/definitions/b' } } } } }, () => 'x')
  await assert.rejects(pointer.ready(), { code: 'HP_ERR_INVALID_SCHEMA' })

  const shared = hotpath()
  shared.addSchema({ $id: 'thing', type: 'object', properties: { a: { $ref: 'missing#' } } })
  shared.post('/', { schema: { body: { $ref: 'thing#' } } }, () => 'x')
  await assert.rejects(shared.ready(), { code: 'HP_ERR_INVALID_SCHEMA' })

  const fine = hotpath()
  fine.addSchema({ $id: 'thing', type: 'object', definitions: { n: { type: 'integer' } }, properties: { a: { $ref: '#/definitions/n' } } })
  fine.post('/', { schema: { body: { type: 'object', properties: { t: { $ref: 'thing#' }, n: { $ref: 'thing#/definitions/n' } } } } }, (req) => req.body)
  const res = await fine.inject({ method: 'POST', url: '/', payload: { t: { a: 'x' }, n: 1 } })
  assert.equal(res.statusCode, 400)
})

test('a response schema a build would refuse fails ready(), on any route', async () => {
  for (const bad of [{ type: 'nonsense' }, { type: 'object', properties: { a: { $ref: 'missing#' } } }]) {
    const app = hotpath()
    app.get('/first', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } } }, () => ({ a: 'x' }))
    app.get('/second', { schema: { response: { 200: bad } } }, () => ({}))
    await assert.rejects(app.ready(), { code: 'HP_ERR_SCHEMA_SERIALIZATION_BUILD' })
  }
})

test('a custom validator compiler is called at ready(), for every schema, as Fastify calls it', async () => {
  const app = hotpath()
  /** @type {string[]} */
  const compiled = []
  app.setValidatorCompiler(({ httpPart }) => { compiled.push(/** @type {string} */ (httpPart)); return () => true })
  app.post('/:id', { schema: schemasOf(1) }, () => ({ id: 1, n1: 1 }))
  await app.ready()
  assert.deepEqual(compiled.sort(), ['body', 'params'])
})

test('a keyword an ajv plugin added checks its value at ready()', async () => {
  const even = (/** @type {any} */ ajv) => ajv.addKeyword({ keyword: 'even', type: 'number', metaSchema: { type: 'boolean' }, validate: (/** @type {boolean} */ on, /** @type {number} */ n) => !on || n % 2 === 0 })
  const bad = hotpath({ ajv: { plugins: [even] } })
  bad.post('/', { schema: { body: { type: 'object', properties: { n: { type: 'number', even: 'yes' } } } } }, () => 'x')
  await assert.rejects(bad.ready(), { code: 'HP_ERR_INVALID_SCHEMA' })

  const good = hotpath({ ajv: { plugins: [even] } })
  good.post('/', { schema: { body: { type: 'object', properties: { n: { type: 'number', even: true } } } } }, () => 'ok')
  assert.equal((await good.inject({ method: 'POST', url: '/', payload: { n: 3 } })).statusCode, 400)
  assert.equal((await good.inject({ method: 'POST', url: '/', payload: { n: 4 } })).statusCode, 200)
})
