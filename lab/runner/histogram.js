// A latency histogram with about 1 % precision, recorded in microseconds.
// autocannon's own latency histogram counts whole milliseconds, too coarse
// for a percentile curve of a server that answers in 300 µs.
//
// Bucketing: values below 128 µs get a bucket each; above, every power of two
// is split into 64 buckets (log-linear, like HdrHistogram with 7 bits).

const SUB = 64

/** @param {number} us a non-negative integer */
export function bucketOf (us) {
  if (us < 2 * SUB) return us
  const e = 31 - Math.clz32(us) - 6 // us >> e is in [64, 128)
  return SUB + e * SUB + ((us >>> e) - SUB)
}

/** The largest value a bucket holds (what a percentile reports). */
export function bucketTop (b) {
  if (b < 2 * SUB) return b
  const e = Math.floor((b - SUB) / SUB)
  const m = (b - SUB) % SUB + SUB
  return ((m + 1) << e) - 1
}

export class Histogram {
  constructor () {
    /** @type {number[]} */
    this.counts = []
    this.total = 0
    this.max = 0
    this.min = Infinity
  }

  /** @param {number} ms a latency in milliseconds (float) */
  recordMs (ms) {
    const us = ms > 0 ? Math.round(ms * 1000) : 0
    const b = bucketOf(us)
    this.counts[b] = (this.counts[b] || 0) + 1
    this.total++
    if (us > this.max) this.max = us
    if (us < this.min) this.min = us
  }

  /**
   * The latency in ms within which p % of the recorded requests were served.
   * @param {number} p 0..100
   */
  percentileMs (p) {
    if (this.total === 0) return null
    if (p <= 0) return this.min / 1000
    if (p >= 100) return this.max / 1000
    const want = Math.ceil((p / 100) * this.total)
    let seen = 0
    for (let b = 0; b < this.counts.length; b++) {
      seen += this.counts[b] || 0
      if (seen >= want) return Math.min(bucketTop(b), this.max) / 1000
    }
    return this.max / 1000
  }
}
