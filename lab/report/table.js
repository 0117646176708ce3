// The terminal table: one block per scenario, targets by median req/s, with
// the ratio to the scenario's baseline (node:http unless it names another).

import { fmtInt, fmtMs, fmtRatio, fmtPct, fmtMiB, fmtUs, ratioOf, baselineOf, baselineLabel } from './format.js'

function pad (cells, widths, aligns) {
  return cells.map((c, i) => (aligns[i] === 'l' ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')
}

/** @param {string[][]} rows first row is the header */
export function renderRows (rows, aligns) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)))
  const lines = rows.map((r) => pad(r, widths, aligns).trimEnd())
  lines.splice(1, 0, widths.map((w) => '─'.repeat(w)).join('  '))
  return lines.join('\n')
}

/** @param {any} results */
export function renderTable (results) {
  const blocks = []
  const many = results.env.nodes.length > 1
  for (const node of results.env.nodes) {
    for (const sc of results.scenarios) {
      const vs = baselineOf(sc)
      const list = results.summaries.filter((s) => s.node === node && s.scenario === sc.id)
      const timed = list.filter((s) => s.state === 'timed').sort((a, b) => (b.rps.median ?? 0) - (a.rps.median ?? 0))
      // a loader without percentiles (h2load) gives mean and standard deviation instead
      const percentiles = !timed.length || timed.some((s) => s.latency[50] != null)
      const rows = [['target', 'req/s', 'min–max', `× ${baselineLabel(results, sc)}`, ...(percentiles ? ['p50', 'p99'] : ['mean', 'sd']), 'CPU µs/req', 'peak RSS', 'GC', 'notes']]
      for (const s of timed) {
        rows.push([s.target, fmtInt(s.rps.median), `${fmtInt(s.rps.min)}–${fmtInt(s.rps.max)}`, fmtRatio(ratioOf(results.summaries, { node, scenario: sc.id, target: s.target, vs })),
          ...(percentiles ? [fmtMs(s.latency[50]), fmtMs(s.latency[99])] : [fmtMs(s.latencyMean), fmtMs(s.latencySd)]), fmtUs(s.cpuUsPerReq.median), fmtMiB(s.rss.max), fmtPct(s.gcShare), s.flags.join(', ')])
      }
      for (const s of list.filter((x) => x.state !== 'timed')) rows.push([s.target, s.state, '', '', '', '', '', '', '', ''])
      const depth = sc.pipelining > 1 ? ` (${sc.protocol === 'h2' ? `${sc.pipelining} streams per connection` : `pipelining ${sc.pipelining}`})` : ''
      const title = `${sc.id}${many ? ` · node ${node}` : ''} — ${sc.title}${depth}`
      blocks.push(`${title}\n${renderRows(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'])}`)
    }
  }
  return blocks.join('\n\n')
}

/** Why targets were not timed, one line each. */
export function renderProblems (results) {
  return results.status.filter((s) => s.state !== 'timed').map((s) => `  ${s.scenario} · ${s.target}: ${s.state}${s.reason ? ` — ${s.reason}` : ''}`).join('\n')
}

/**
 * Targets × scenarios, median req/s as a ratio to node:http: who wins where
 * at a glance. Rows: targets in the run's order; null where not timed.
 * @param {any} results
 * @param {string} node
 */
export function ratioMatrix (results, node) {
  return results.targets.map((t) => ({
    target: t.id,
    cells: results.scenarios.map((sc) => {
      const s = results.summaries.find((x) => x.node === node && x.scenario === sc.id && x.target === t.id)
      return s?.state === 'timed' ? ratioOf(results.summaries, { node, scenario: sc.id, target: t.id }) : null
    })
  }))
}

/** @param {any} results */
export function renderMatrix (results) {
  if (!results.targets.some((t) => t.id === 'node-http') || results.scenarios.length < 2) return ''
  return results.env.nodes.map((node) => {
    const rows = [['× node:http', ...results.scenarios.map((s) => s.id)]]
    for (const r of ratioMatrix(results, node)) rows.push([r.target, ...r.cells.map((c) => (c === null ? '—' : fmtRatio(c)))])
    return `Median req/s relative to node:http${results.env.nodes.length > 1 ? ` (node ${node})` : ''}\n${renderRows(rows, ['l', ...results.scenarios.map(() => 'r')])}`
  }).join('\n\n')
}
