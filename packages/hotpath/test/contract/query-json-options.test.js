// Fastify's options for the query string and the built-in JSON parser:
// querystringParser, useSemicolonDelimiter, onProtoPoisoning and
// onConstructorPoisoning, on every engine and through inject.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { parse as nodeParse } from 'node:querystring'
import hotpath from '../../lib/index.js'
import { Request } from '../../lib/lifecycle/request.js'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('querystringParser and useSemicolonDelimiter', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const seen = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/items', (req) => ({ query: req.query, path: req.path, querystring: req.querystring }))
      app.get('/set', (req) => {
        req.query = { replaced: 'yes' }
        return { query: req.query }
      })
    }, {
      querystringParser: (/** @type {string} */ str) => {
        seen.push(str)
        return { ...nodeParse(str), parsedBy: 'app' }
      },
      useSemicolonDelimiter: true
    })
  })
  after(() => s.close())

  test("req.query comes from the app's parser, given the query string ('' when there is none)", async () => {
    seen.length = 0
    assert.deepEqual((await s.request('/items?a=1&a=2&b')).json().query, { a: ['1', '2'], b: '', parsedBy: 'app' })
    assert.deepEqual((await s.request('/items')).json().query, { parsedBy: 'app' })
    assert.deepEqual(seen, ['a=1&a=2&b', ''])
    assert.deepEqual((await s.request('/set?x=1')).json().query, { replaced: 'yes' })
  })

  test("';' ends the path and starts the query, as '?' does", async () => {
    const res = await s.request('/items;foo=bar')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { query: { foo: 'bar', parsedBy: 'app' }, path: '/items', querystring: 'foo=bar' })
    assert.equal((await s.request('/items?x=1;y=2')).json().querystring, 'x=1;y=2')
  })
})

eachMode('without the options', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/items;v=1', (req) => ({ query: req.query, path: req.path }))
    })
  })
  after(() => s.close())

  test("';' is part of the path", async () => {
    const res = await s.request('/items;v=1?a=1')
    assert.deepEqual(res.json(), { query: { a: '1' }, path: '/items;v=1' })
    assert.equal((await s.request('/items')).statusCode, 404)
  })
})

eachMode('onProtoPoisoning and onConstructorPoisoning', (mode) => {
  /** @type {Record<string, Awaited<ReturnType<typeof setup>>>} */
  const apps = {}
  before(async () => {
    for (const action of ['remove', 'ignore']) {
      apps[action] = await setup(mode, (app) => {
        app.post('/', (req) => ({
          own: Object.keys(/** @type {object} */ (req.body)),
          a: /** @type {any} */ (Object.assign({}, req.body)).a,
          polluted: /** @type {any} */ ({}).a !== undefined
        }))
      }, { onProtoPoisoning: action, onConstructorPoisoning: action })
    }
  })
  after(async () => {
    for (const s of Object.values(apps)) await s.close()
  })

  /** @param {string} action @param {string} body */
  const post = (action, body) => apps[action].request({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: body })

  test("'remove' drops the key, 'ignore' keeps it as an own property; the prototype is untouched either way", async () => {
    assert.deepEqual((await post('remove', '{"__proto__":{"a":42},"b":1}')).json(), { own: ['b'], polluted: false })
    assert.deepEqual((await post('ignore', '{"__proto__":{"a":42},"b":1}')).json(), { own: ['__proto__', 'b'], a: 42, polluted: false })
    assert.deepEqual((await post('remove', '{"constructor":{"prototype":{"a":1}},"b":1}')).json(), { own: ['b'], polluted: false })
  })
})

test('the options are checked when the app is created; without them the Request class is hotpath\'s own', async () => {
  assert.throws(() => hotpath({ querystringParser: /** @type {any} */ (10) }), { code: 'HP_ERR_QSP_NOT_FN', message: "querystringParser must be a function, got 'number'" })
  assert.throws(() => hotpath({ routerOptions: { querystringParser: /** @type {any} */ (10) } }), { code: 'HP_ERR_QSP_NOT_FN' })
  assert.throws(() => hotpath({ useSemicolonDelimiter: /** @type {any} */ ('yes') }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ onProtoPoisoning: /** @type {any} */ ('drop') }), { code: 'HP_ERR_INVALID_OPTION' })
  assert.throws(() => hotpath({ onConstructorPoisoning: /** @type {any} */ (true) }), { code: 'HP_ERR_INVALID_OPTION' })
  const app = hotpath()
  /** @type {unknown} */
  let proto = null
  app.get('/', (req) => {
    proto = Object.getPrototypeOf(req)
    return 'ok'
  })
  await app.inject('/')
  assert.equal(proto, Request.prototype)
})
