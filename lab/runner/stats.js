// Small statistics for benchmark results: order statistics of a few rounds,
// and the summary of one target × scenario across rounds.

/** @param {number[]} values */
function sorted (values) {
  return values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b)
}

/**
 * The p-th percentile (0..100) by linear interpolation between closest ranks
 * (the definition spreadsheets use). null for no values.
 * @param {number[]} values
 * @param {number} p
 */
export function percentile (values, p) {
  const s = sorted(values)
  if (s.length === 0) return null
  if (p <= 0) return s[0]
  if (p >= 100) return s[s.length - 1]
  const rank = (p / 100) * (s.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.ceil(rank)
  return s[lo] + (s[hi] - s[lo]) * (rank - lo)
}

/** @param {number[]} values */
export const median = (values) => percentile(values, 50)

/**
 * median, min and max of the finite numbers in `values`.
 * @param {number[]} values
 * @returns {{ median: number | null, min: number | null, max: number | null, n: number }}
 */
export function spread (values) {
  const s = sorted(values)
  return { median: median(s), min: s.length ? s[0] : null, max: s.length ? s[s.length - 1] : null, n: s.length }
}

/** Noise band of a spread: (max - min) / median, as a fraction. */
export function noise ({ median, min, max }) {
  if (!median || min === null || max === null) return null
  return (max - min) / median
}

/** The latency percentiles every loader reports (and the report plots). */
export const LATENCY_PERCENTILES = [0, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.9, 99.99, 100]

/**
 * Summarizes the samples of one target × scenario (× node version).
 * Latency percentiles are the median across rounds of each round's percentile.
 * @param {object[]} samples rounds of one target × scenario
 */
export function summarize (samples) {
  const ok = samples.filter((s) => !s.failed)
  const pick = (f) => ok.map(f)
  const latency = {}
  for (const p of LATENCY_PERCENTILES) latency[p] = median(pick((s) => s.latency?.[p]))
  return {
    rounds: ok.length,
    rps: spread(pick((s) => s.rps)),
    latency,
    // mean and sd of each round, median across rounds (null where the loader gives percentiles only)
    latencyMean: median(pick((s) => s.latencyMean)),
    latencySd: median(pick((s) => s.latencySd)),
    throughput: median(pick((s) => s.throughput)),
    cpuUsPerReq: spread(pick((s) => s.cpuUsPerReq)),
    serverCpu: median(pick((s) => s.serverCpu)),
    loaderCpu: median(pick((s) => s.loaderCpu)),
    // RSS is the state of one server process, which serves every round: it
    // climbs from round to round as V8 grows its heap (node:http, hello:
    // 72, 72, 72, 85, 86 MiB). The server's peak under the measured load is
    // the highest round (rss.max), which the reports show; the median would
    // be the middle of the process's life, not its peak.
    rss: spread(pick((s) => s.rss)),
    gcShare: median(pick((s) => s.gcShare)),
    // spans exported per request, for a target with tracing on (null otherwise)
    spansPerReq: median(pick((s) => s.spansPerReq)),
    errors: ok.reduce((n, s) => n + s.errors + s.timeouts + s.non2xx, 0),
    flags: [...new Set(ok.flatMap((s) => s.flags || []))]
  }
}
