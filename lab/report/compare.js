// --compare A.json B.json: the change from run A to run B per scenario and
// target, with each side's noise band. A change is called only when the two
// min–max ranges do not overlap; otherwise it is within the noise.

import { fmtInt, fmtMs } from './format.js'
import { noise } from '../runner/stats.js'
import { renderRows } from './table.js'

/**
 * @param {any} a results of run A
 * @param {any} b results of run B
 */
export function compareRuns (a, b) {
  const rows = []
  for (const sb of b.summaries) {
    if (sb.state !== 'timed') continue
    // the same Node version when A has it, else A's only one
    const sa = a.summaries.find((s) => s.scenario === sb.scenario && s.target === sb.target && s.node === sb.node) ||
      (a.env.nodes.length === 1 ? a.summaries.find((s) => s.scenario === sb.scenario && s.target === sb.target) : undefined)
    if (!sa || sa.state !== 'timed') continue
    const change = sa.rps.median ? sb.rps.median / sa.rps.median - 1 : null
    const overlap = sa.rps.min <= sb.rps.max && sb.rps.min <= sa.rps.max
    const verdict = change === null ? '?' : sa.rps.n < 2 || sb.rps.n < 2 ? 'no noise band (1 round)' : overlap ? 'within noise' : change > 0 ? 'faster' : 'slower'
    rows.push({ scenario: sb.scenario, target: sb.target, node: sb.node, a: sa.rps, b: sb.rps, noiseA: noise(sa.rps), noiseB: noise(sb.rps), change, verdict, p99a: sa.latency[99], p99b: sb.latency[99] })
  }
  return rows
}

const pm = (n) => (n == null ? '' : ` ±${((n / 2) * 100).toFixed(1)}%`)

export function renderComparison (rows, a, b) {
  const head = [`A: ${a.startedAt} node ${a.env.nodes.join(',')} ${a.env.git?.commit?.slice(0, 8) ?? ''} (${a.env.loader.name}, ${a.options.rounds} rounds × ${a.options.duration} s)`,
    `B: ${b.startedAt} node ${b.env.nodes.join(',')} ${b.env.git?.commit?.slice(0, 8) ?? ''} (${b.env.loader.name}, ${b.options.rounds} rounds × ${b.options.duration} s)`]
  if (a.env.loader.name !== b.env.loader.name) head.push(`warning: A used ${a.env.loader.name}, B used ${b.env.loader.name}: absolute req/s are not comparable`)
  if (a.env.host !== b.env.host || a.env.cpuModel !== b.env.cpuModel) head.push('warning: A and B were measured on different machines; only ratios within each run compare')
  if (rows.length === 0) return `${head.join('\n')}\nno scenario and target was timed in both runs`
  const table = [['scenario', 'target', 'A req/s', 'B req/s', 'change', 'verdict', 'A p99', 'B p99']]
  for (const r of rows) {
    table.push([r.scenario, r.target, `${fmtInt(r.a.median)}${pm(r.noiseA)}`, `${fmtInt(r.b.median)}${pm(r.noiseB)}`,
      r.change === null ? '—' : `${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)} %`, r.verdict, fmtMs(r.p99a), fmtMs(r.p99b)])
  }
  return `${head.join('\n')}\n(noise band: half of min–max across rounds, around the median)\n\n${renderRows(table, ['l', 'l', 'r', 'r', 'r', 'l', 'r', 'r'])}`
}
