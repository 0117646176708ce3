// A JSON body nested deeper than jsonDepthLimit is refused with a 400 at
// parsing, before JSON.parse builds it (a 100,000-deep array used to parse,
// then overflow the stack in the serializer: a 500). Other body types carry
// the same bytes as text and stay answerable.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

const deepArray = (/** @type {number} */ n) => '['.repeat(n) + ']'.repeat(n)
const deepObject = (/** @type {number} */ n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
const json = { 'content-type': 'application/json' }

eachMode('JSON depth limit', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let small
  before(async () => {
    const build = (/** @type {any} */ app) => {
      app.post('/echo', (/** @type {any} */ req) => req.body)
      app.post('/length', (/** @type {any} */ req) => ({ type: typeof req.body, length: typeof req.body === 'string' ? req.body.length : Object.keys(req.body).length }))
    }
    s = await setup(mode, build)
    small = await setup(mode, build, { jsonDepthLimit: 3 })
  })
  after(async () => {
    await s.close()
    await small.close()
  })

  test('a 100,000-deep array is a 400 at parsing, not a 500 at serialization', async () => {
    const res = await s.request({ method: 'POST', url: '/echo', headers: json, payload: deepArray(100_000) })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', code: 'HP_ERR_JSON_TOO_DEEP', message: 'JSON body is nested deeper than 64 levels' })
  })

  test('deep objects too; the default admits 64 levels and refuses 65', async () => {
    const at = await s.request({ method: 'POST', url: '/echo', headers: json, payload: deepObject(64) })
    assert.equal(at.statusCode, 200)
    assert.equal(at.body, deepObject(64))
    const over = await s.request({ method: 'POST', url: '/echo', headers: json, payload: deepObject(65) })
    assert.equal(over.statusCode, 400)
    assert.equal(over.json().code, 'HP_ERR_JSON_TOO_DEEP')
    const arrays = await s.request({ method: 'POST', url: '/echo', headers: json, payload: deepArray(65) })
    assert.equal(arrays.json().code, 'HP_ERR_JSON_TOO_DEEP')
  })

  test('many openers side by side are not depth; brackets inside strings do not count', async () => {
    const wide = JSON.stringify(Array.from({ length: 500 }, (_, i) => [{ i }]))
    const res = await s.request({ method: 'POST', url: '/echo', headers: json, payload: wide })
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, wide)
    // 70 '[' in a string, escaped quotes before them, 3 real levels
    const strings = JSON.stringify([[['\\"' + '['.repeat(70), '"{'.repeat(70)]]])
    const r2 = await small.request({ method: 'POST', url: '/echo', headers: json, payload: strings })
    assert.equal(r2.statusCode, 200)
    assert.equal(r2.body, strings)
  })

  test('jsonDepthLimit sets the limit', async () => {
    const ok = await small.request({ method: 'POST', url: '/echo', headers: json, payload: deepArray(3) })
    assert.equal(ok.statusCode, 200)
    const res = await small.request({ method: 'POST', url: '/echo', headers: json, payload: '{"a":[{"b":[1]}]}' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'JSON body is nested deeper than 3 levels')
  })

  test('the same deep bytes as text/plain or a form are plain strings, never a 500', async () => {
    const deep = deepArray(100_000)
    const text = await s.request({ method: 'POST', url: '/length', headers: { 'content-type': 'text/plain' }, payload: deep })
    assert.equal(text.statusCode, 200)
    assert.deepEqual(text.json(), { type: 'string', length: 200_000 })
    const form = await s.request({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a' + '[b]'.repeat(30_000) + '=' + deep.slice(0, 1000) })
    assert.equal(form.statusCode, 200)
    assert.equal(Object.keys(form.json()).length, 1)
  })
})

test('jsonDepthLimit must be a positive integer', () => {
  for (const v of [0, -1, 1.5, '64', null]) {
    assert.throws(() => hotpath({ jsonDepthLimit: v }), { code: 'HP_ERR_INVALID_OPTION' })
  }
})
