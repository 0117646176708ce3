// How a failed validation becomes an answer: hotpath's 400 body and
// Fastify's (hotpath/fastify), schemaErrorFormatter at every level,
// attachValidation, and what a custom validator may answer.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, engineOption, H2Client, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'

const body = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }

eachMode('validation errors', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.post('/plain', { schema: { body } }, (req) => req.body)
      app.post('/attached', { schema: { body }, attachValidation: true }, (req, reply) => {
        const err = req.validationError
        if (err === undefined) return { ok: true }
        reply.code(422)
        return { context: err.validationContext, message: err.message, keywords: err.validation.map((/** @type {any} */ e) => e.keyword) }
      })
      app.post('/route-formatter', {
        schema: { body },
        schemaErrorFormatter: (/** @type {any[]} */ errors, /** @type {string} */ part) => new Error(`${part}: ${errors.length} problem(s)`)
      }, (req) => req.body)
      app.post('/coerced', { schema: { body: { type: 'integer', maximum: 10 } }, attachValidation: true }, (req) => ({ body: req.body, type: typeof req.body }))
      app.post('/custom', {
        schema: { body: { type: 'object' } },
        validatorCompiler: () => (/** @type {any} */ data) => {
          if (data.bad) return { error: new Error('custom refusal') }
          if ('replace' in data) return { value: data.replace }
          if (data.boom) throw new Error('validator broke')
          return true
        }
      }, (req) => ({ body: req.body }))
      app.register(async (child) => {
        child.setSchemaErrorFormatter(function (/** @type {any[]} */ errors, /** @type {string} */ part) {
          const e = /** @type {any} */ (new Error(`plugin says ${part} is wrong (${this.prefix})`))
          e.statusCode = 422
          return e
        })
        child.post('/formatted', { schema: { body } }, (req) => req.body)
      }, { prefix: '/p' })
    })
  })
  after(() => s.close())

  test("hotpath's 400 names the field and carries validation and validationContext", async () => {
    const res = await s.request({ method: 'POST', url: '/plain', payload: {} })
    assert.equal(res.statusCode, 400)
    const b = res.json()
    assert.equal(b.code, 'HP_ERR_VALIDATION')
    assert.equal(b.message, "body must have required property 'name'")
    assert.equal(b.validationContext, 'body')
    assert.equal(b.validation[0].keyword, 'required')
  })

  test('attachValidation hands the error to the handler instead of answering 400', async () => {
    const bad = await s.request({ method: 'POST', url: '/attached', payload: {} })
    assert.equal(bad.statusCode, 422)
    assert.deepEqual(bad.json(), { context: 'body', message: "body must have required property 'name'", keywords: ['required'] })
    const good = await s.request({ method: 'POST', url: '/attached', payload: { name: 'a' } })
    assert.deepEqual(good.json(), { ok: true })
  })

  test("a route's schemaErrorFormatter builds the error, given 400 and the validation code", async () => {
    const res = await s.request({ method: 'POST', url: '/route-formatter', payload: {} })
    assert.equal(res.statusCode, 400)
    // a plain Error: hotpath shows its message only with exposeErrorMessages
    assert.equal(res.json().statusCode, 400)
  })

  test("a plugin's formatter applies to its routes, with the plugin's instance as this, its status kept", async () => {
    const res = await s.request({ method: 'POST', url: '/p/formatted', payload: {} })
    assert.equal(res.statusCode, 422)
  })

  test('an absent body is validated as null', async () => {
    const res = await s.request({ method: 'POST', url: '/plain' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'body must be object')
  })

  test("a custom validator's { error } fails, { value } replaces the data, a throw answers 500", async () => {
    const bad = await s.request({ method: 'POST', url: '/custom', payload: { bad: true } })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().message, 'body custom refusal')
    for (const value of [0, '', false, null]) {
      const res = await s.request({ method: 'POST', url: '/custom', payload: { replace: value } })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), { body: value })
    }
    const boom = await s.request({ method: 'POST', url: '/custom', payload: { boom: true } })
    assert.equal(boom.statusCode, 500)
  })

  test("hotpath's own bodies are not coerced, even at the root", async () => {
    const res = await s.request({ method: 'POST', url: '/coerced', payload: '"7"', headers: { 'content-type': 'application/json' } })
    assert.deepEqual(res.json(), { body: '7', type: 'string' })
  })
})

eachMode('validation errors in hotpath/fastify', (mode) => {
  /** @type {any} */
  let app
  /** @type {string | null} */
  let base = null
  /** @type {H2Client | null} */
  let h2 = null
  /** @type {unknown} */
  let formatterThis
  before(async () => {
    app = fastify({
      ...engineOption(mode),
      schemaErrorFormatter (/** @type {any[]} */ errors, /** @type {string} */ part) {
        formatterThis = this
        return new Error(`app formatter: ${part}${errors[0].instancePath} ${errors[0].message}`)
      }
    })
    app.post('/app', { schema: { body } }, (/** @type {any} */ req) => req.body)
    app.post('/route', { schema: { body }, schemaErrorFormatter: () => new Error('route formatter') }, (/** @type {any} */ req) => req.body)
    app.post('/throws', { schema: { body }, schemaErrorFormatter: () => { throw new Error('formatter broke') } }, (/** @type {any} */ req) => req.body)
    app.post('/coerced', { schema: { body: { type: 'integer', maximum: 10 } } }, (/** @type {any} */ req) => ({ body: req.body, type: typeof req.body }))
    app.post('/custom', {
      schema: { body: { type: 'object' } },
      validatorCompiler: () => () => ({ error: new Error('custom refusal') })
    }, (/** @type {any} */ req) => req.body)
    app.register(async (/** @type {any} */ child) => {
      child.post('/default', { schema: { body } }, (/** @type {any} */ req) => req.body)
    })
    await app.ready()
    if (mode !== 'inject') base = await app.listen({ port: 0, host: '127.0.0.1' })
    if (mode === 'h2') h2 = new H2Client(Number(new URL(/** @type {string} */ (base)).port))
  })
  after(async () => {
    if (h2 !== null) await h2.close()
    await app.close()
  })

  /** @param {string} url @param {string} [payload] */
  async function post (url, payload = '{}') {
    if (base === null || h2 !== null) {
      const o = { method: 'POST', url, payload, headers: { 'content-type': 'application/json' } }
      const r = await (h2 !== null ? h2.request(o) : app.inject(o))
      return { status: r.statusCode, body: r.json() }
    }
    const r = await fetch(base + url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } })
    return { status: r.status, body: await r.json() }
  }

  test("the app's schemaErrorFormatter, called on the app; Fastify's body, FST_ERR_VALIDATION", async () => {
    const r = await post('/app')
    assert.equal(r.status, 400)
    assert.deepEqual(r.body, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: "app formatter: body must have required property 'name'" })
    assert.equal(formatterThis, app)
  })

  test("a route's formatter wins over the app's; one that throws answers 500 with its message", async () => {
    assert.deepEqual((await post('/route')).body, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'route formatter' })
    assert.deepEqual(await post('/throws'), { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'formatter broke' } })
  })

  test("a custom validator's Error is answered as it is, and bodies are coerced as Fastify's ajv does", async () => {
    assert.deepEqual((await post('/custom')).body, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'custom refusal' })
    assert.deepEqual(await post('/coerced', '"10"'), { status: 200, body: { body: 10, type: 'number' } })
  })
})

describe('schemaErrorFormatter is checked when it is set', () => {
  test('a value that is not a function, or an async function, is refused', () => {
    assert.throws(() => hotpath({ schemaErrorFormatter: /** @type {any} */ (500) }), { code: 'HP_ERR_SCHEMA_ERROR_FORMATTER' })
    assert.throws(() => hotpath({ schemaErrorFormatter: /** @type {any} */ (async () => new Error('x')) }), { code: 'HP_ERR_SCHEMA_ERROR_FORMATTER' })
    assert.throws(() => /** @type {any} */ (hotpath()).setSchemaErrorFormatter(500), { code: 'HP_ERR_SCHEMA_ERROR_FORMATTER' })
    assert.throws(() => fastify({ schemaErrorFormatter: 500 }), { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN' })
  })

  test('a route with a formatter that is not a function does not start', async () => {
    const app = hotpath()
    app.post('/', { schema: { body }, schemaErrorFormatter: /** @type {any} */ ('nope') }, () => 'x')
    await assert.rejects(app.ready(), { code: 'HP_ERR_SCHEMA_ERROR_FORMATTER' })
  })
})
