import { test } from 'node:test'
import assert from 'node:assert/strict'
import { percentile, median, spread, noise, summarize, LATENCY_PERCENTILES } from '../runner/stats.js'
import { Histogram, bucketOf, bucketTop } from '../runner/histogram.js'

test('percentile interpolates between closest ranks; ignores non-numbers', () => {
  assert.equal(percentile([], 50), null)
  assert.equal(percentile([7], 99), 7)
  assert.equal(percentile([1, 2, 3, 4], 50), 2.5)
  assert.equal(percentile([4, 1, 3, 2], 0), 1)
  assert.equal(percentile([4, 1, 3, 2], 100), 4)
  assert.equal(percentile([10, 20, 30, 40, 50], 90), 46)
  assert.equal(median([3, null, 1, NaN, 2]), 2)
})

test('spread and noise of rounds', () => {
  assert.deepEqual(spread([30, 10, 20]), { median: 20, min: 10, max: 30, n: 3 })
  assert.deepEqual(spread([]), { median: null, min: null, max: null, n: 0 })
  assert.equal(noise({ median: 20, min: 10, max: 30 }), 1)
  assert.equal(noise({ median: null, min: null, max: null }), null)
})

test('summarize: medians across rounds, failed samples left out, errors counted, flags merged', () => {
  const lat = (base) => Object.fromEntries(LATENCY_PERCENTILES.map((p) => [p, base + p / 100]))
  const s = (rps, extra = {}) => ({ rps, latency: lat(rps / 1000), throughput: rps * 100, cpuUsPerReq: 1e6 / rps, serverCpu: 1, loaderCpu: 0.5, rss: 1000, gcShare: 0.01, errors: 0, timeouts: 0, non2xx: 0, flags: [], ...extra })
  const sum = summarize([s(1000), s(3000, { non2xx: 2, flags: ['errors'] }), s(2000), s(99999, { failed: true })])
  assert.equal(sum.rounds, 3)
  assert.deepEqual(sum.rps, { median: 2000, min: 1000, max: 3000, n: 3 })
  assert.equal(sum.latency[50], 2.5)
  assert.equal(sum.throughput, 200000)
  assert.equal(sum.errors, 2)
  assert.deepEqual(sum.flags, ['errors'])
})

test('histogram buckets: every value is at most its bucket top, within 1.6 %', () => {
  for (let us = 0; us < 5_000_000; us = us < 300 ? us + 1 : Math.ceil(us * 1.013)) {
    const top = bucketTop(bucketOf(us))
    assert.ok(top >= us, `top ${top} < ${us}`)
    assert.ok(top - us <= Math.max(0, us * 0.016), `bucket of ${us} too wide (${top})`)
    if (us > 0) assert.ok(bucketOf(us) >= bucketOf(us - 1), 'buckets are monotonic')
  }
})

test('histogram percentiles of a known distribution', () => {
  const h = new Histogram()
  for (let i = 1; i <= 10000; i++) h.recordMs(i / 1000) // 1 µs … 10 ms uniformly
  assert.equal(h.percentileMs(0), 0.001)
  assert.equal(h.percentileMs(100), 10)
  for (const p of [10, 50, 90, 99, 99.9]) {
    const want = (p / 100) * 10
    const got = h.percentileMs(p)
    assert.ok(Math.abs(got - want) / want < 0.02, `p${p}: ${got} vs ${want}`)
  }
  assert.equal(new Histogram().percentileMs(50), null)
})
