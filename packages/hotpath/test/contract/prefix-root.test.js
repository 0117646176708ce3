// A route declared as '/' inside a plugin's prefix: '/v1' and '/v1/' by
// default, one of them with the route's prefixTrailingSlash, and no
// conflict with ignoreTrailingSlash.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('\'/\' inside a prefix', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const seen = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.addHook('onRoute', (/** @type {any} */ opts) => { if (opts.method === 'GET') seen.push(opts.url) })
      app.register(async (child) => { child.get('/', () => 'both') }, { prefix: '/both' })
      app.register(async (child) => { child.get('/', { prefixTrailingSlash: 'no-slash' }, () => 'no-slash') }, { prefix: '/bare' })
      app.register(async (child) => { child.get('/', { prefixTrailingSlash: 'slash' }, () => 'slash') }, { prefix: '/slashed' })
    })
  })
  after(() => s.close())

  test('by default both /prefix and /prefix/', async () => {
    assert.equal((await s.request('/both')).body, 'both')
    assert.equal((await s.request('/both/')).body, 'both')
  })

  test('prefixTrailingSlash: \'no-slash\' answers /prefix only', async () => {
    assert.equal((await s.request('/bare')).body, 'no-slash')
    assert.equal((await s.request('/bare/')).statusCode, 404)
  })

  test('prefixTrailingSlash: \'slash\' answers /prefix/ only, and says so to onRoute', async () => {
    assert.equal((await s.request('/slashed/')).body, 'slash')
    assert.equal((await s.request('/slashed')).statusCode, 404)
    assert.deepEqual(seen, ['/both', '/bare', '/slashed/'])
  })
})

eachMode('\'/\' inside a prefix, ignoreTrailingSlash', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.register(async (child) => { child.get('/', () => 'root') }, { prefix: '/v1' })
    }, { ignoreTrailingSlash: true })
  })
  after(() => s.close())

  test('one route answers /prefix and /prefix/', async () => {
    assert.equal((await s.request('/v1')).body, 'root')
    assert.equal((await s.request('/v1/')).body, 'root')
  })
})
