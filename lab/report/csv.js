// One CSV row per target × scenario × round (× Node version): every raw sample.

import { LATENCY_PERCENTILES } from '../runner/stats.js'

/** RFC 4180 field quoting. */
export function csvField (v) {
  if (v === null || v === undefined) return ''
  const s = typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : String(v)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

const latencyCols = LATENCY_PERCENTILES.map((p) => (p === 0 ? 'latency_min_ms' : p === 100 ? 'latency_max_ms' : `latency_p${String(p).replace('.', '_')}_ms`))

export const CSV_COLUMNS = ['node', 'target', 'scenario', 'round', 'requests', 'duration_s', 'rps', 'throughput_bytes_per_s', ...latencyCols, 'latency_mean_ms', 'latency_sd_ms',
  'errors', 'timeouts', 'non2xx', 'cpu_us_per_req', 'server_cpu', 'loader_cpu', 'rss_peak_bytes', 'gc_ms', 'gc_share', 'spans_per_req', 'flags']

/** @param {any} results */
export function renderCsv (results) {
  const rows = [CSV_COLUMNS.join(',')]
  for (const s of results.samples) {
    rows.push([s.node, s.target, s.scenario, s.round + 1, s.requests, s.duration, s.rps, s.throughput, ...LATENCY_PERCENTILES.map((p) => s.latency?.[p]), s.latencyMean, s.latencySd,
      s.errors, s.timeouts, s.non2xx, s.cpuUsPerReq, s.serverCpu, s.loaderCpu, s.rss, s.gcMs, s.gcShare, s.spansPerReq, (s.flags || []).join(' ')].map(csvField).join(','))
  }
  return rows.join('\r\n') + '\r\n'
}
