// connect-timeout (503 after 100 ms, req.timedout) and express-rate-limit
// (429 past the limit, its headers, one budget per client address).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup, sleep, fieldCount } from './helpers.js'
import { TIMEOUT_MS, RATE_LIMIT } from '../middleware/limits.js'

eachMode('connect-timeout', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {boolean[]} */
  const timedOut = []
  before(async () => { s = await setup(mode, { timedOut }) })
  after(() => s.close())

  test('a route slower than the timeout: 503 once it passes, and the route then sees req.timedout', async () => {
    const started = Date.now()
    const res = await s.request('/slow/wait')
    const took = Date.now() - started
    assert.equal(res.statusCode, 503)
    assert.equal(res.json().statusCode, 503)
    assert.ok(took < TIMEOUT_MS * 3, `answered after ${took} ms, the timeout is ${TIMEOUT_MS} ms`)
    for (let i = 0; i < 50 && timedOut.length === 0; i++) await sleep(20)
    assert.deepEqual(timedOut, [true])
  })

  test('a route faster than the timeout answers, and no 503 follows', async () => {
    const res = await s.request('/slow/fast')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { fast: true })
    await sleep(TIMEOUT_MS * 2)
    assert.equal((await s.request('/health')).statusCode, 200)
  })
})

eachMode('express-rate-limit', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode) })
  after(() => s.close())

  test(`the first ${RATE_LIMIT} requests pass, with the RateLimit headers`, async () => {
    for (let i = 1; i <= RATE_LIMIT; i++) {
      const res = await s.request('/limited')
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), { ok: true })
      assert.equal(res.headers['ratelimit-policy'], `${RATE_LIMIT};w=60`)
      assert.match(String(res.headers.ratelimit), new RegExp(`^limit=${RATE_LIMIT}, remaining=${RATE_LIMIT - i}, reset=\\d+$`))
      assert.equal(res.headers['x-ratelimit-limit'], String(RATE_LIMIT))
      assert.equal(res.headers['x-ratelimit-remaining'], String(RATE_LIMIT - i))
    }
  })

  test('past the limit: 429 with its message and Retry-After', async () => {
    const res = await s.request('/limited')
    assert.equal(res.statusCode, 429)
    assert.equal(res.body, 'Too many requests, please try again later.')
    assert.match(String(res.headers['retry-after']), /^\d+$/)
    assert.match(String(res.headers.ratelimit), new RegExp(`^limit=${RATE_LIMIT}, remaining=0, reset=\\d+$`))
  })

  test('the Date the limiter sets with its legacy headers is sent once, as node:http sends it', async () => {
    const res = await s.request('/limited')
    assert.ok(res.headers['x-ratelimit-reset'], 'the legacy headers are there')
    assert.equal(fieldCount(res, 'date'), 1)
  })

  test("the budget is the client address's (req.ip: 127.0.0.1)", async () => {
    const info = await s.app.rateLimiter.getKey('127.0.0.1')
    assert.ok(info, 'the store counts hits under the client address')
    assert.equal(info.totalHits, RATE_LIMIT + 2)
  })

  if (mode === 'inject') {
    test('another client address has a budget of its own', async () => {
      const res = await s.request({ url: '/limited', remoteAddress: '10.0.0.7' })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-ratelimit-remaining'], String(RATE_LIMIT - 1))
    })
  }

  test('resetKey() gives the address its budget back', async () => {
    await s.app.rateLimiter.resetKey('127.0.0.1')
    const res = await s.request('/limited')
    assert.equal(res.statusCode, 200)
  })
})
