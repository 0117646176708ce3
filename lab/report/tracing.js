// The cost of tracing: each target that runs with OpenTelemetry beside the
// same server without it (targets/index.js `untraced`), per scenario, and the
// traced targets against the run's first traced one. Tracing is proven by the
// spans the server exported; a traced target that exported none is called
// out, never reported as traced.

import { fmtInt, fmtRatio, fmtUs } from './format.js'
import { renderRows } from './table.js'

/**
 * @param {any} results
 * @returns {{ rows: any[], warnings: string[] }}
 */
export function tracingCost (results) {
  const traced = results.targets.filter((t) => t.untraced)
  const rows = []
  const warnings = []
  if (traced.length === 0) return { rows, warnings }
  const find = (node, scenario, target) => results.summaries.find((s) => s.node === node && s.scenario === scenario && s.target === target)
  const timed = (s) => (s?.state === 'timed' ? s : null)
  const ratio = (a, b) => (a == null || b == null || b === 0 ? null : a / b)
  for (const node of results.env.nodes) {
    for (const sc of results.scenarios) {
      const ref = traced.map((t) => timed(find(node, sc.id, t.id))).find(Boolean)
      for (const t of traced) {
        const a = timed(find(node, sc.id, t.id))
        if (!a) continue
        const b = timed(find(node, sc.id, t.untraced))
        const status = results.status.find((x) => x.node === node && x.scenario === sc.id && x.target === t.id)
        const spansExported = status?.spansExported ?? null
        rows.push({
          node,
          scenario: sc.id,
          target: t.id,
          untraced: t.untraced,
          rps: a.rps.median,
          rpsVsUntraced: ratio(a.rps.median, b?.rps.median),
          cpuUsPerReq: a.cpuUsPerReq.median,
          cpuVsUntraced: ratio(a.cpuUsPerReq.median, b?.cpuUsPerReq.median),
          cpuAddedUs: a.cpuUsPerReq.median != null && b?.cpuUsPerReq.median != null ? a.cpuUsPerReq.median - b.cpuUsPerReq.median : null,
          spansPerReq: a.spansPerReq,
          spansExported,
          ref: ref?.target ?? null,
          rpsVsRef: ref && ref.target !== t.id ? ratio(a.rps.median, ref.rps.median) : null
        })
        if (!spansExported || a.flags.includes('no-spans')) {
          warnings.push(`warning: ${sc.id} · ${t.id} exported ${spansExported ?? 'no count of'} spans${a.flags.includes('no-spans') ? ' (none in some rounds)' : ''}: its figures are not those of a traced server`)
        }
      }
    }
  }
  return { rows, warnings }
}

/** @param {any} results */
export function renderTracing (results) {
  const { rows, warnings } = tracingCost(results)
  if (!rows.length && !warnings.length) return ''
  const many = results.env.nodes.length > 1
  const ref = rows.find((r) => r.ref)?.ref ?? '—'
  const table = [[...(many ? ['node'] : []), 'scenario', 'target', 'req/s', '× untraced', 'CPU µs/req', 'CPU × untraced', '+ CPU µs/req', 'spans/req', 'spans', `req/s × ${ref}`]]
  for (const r of rows) {
    table.push([...(many ? [r.node] : []), r.scenario, r.target, fmtInt(r.rps), fmtRatio(r.rpsVsUntraced), fmtUs(r.cpuUsPerReq), fmtRatio(r.cpuVsUntraced),
      r.cpuAddedUs == null ? '—' : `${r.cpuAddedUs >= 0 ? '+' : ''}${r.cpuAddedUs.toFixed(1)}`, r.spansPerReq == null ? '—' : r.spansPerReq.toFixed(2), fmtInt(r.spansExported), r.rpsVsRef == null ? '—' : fmtRatio(r.rpsVsRef)])
  }
  const head = 'Cost of tracing (medians; × untraced: the same server without OpenTelemetry; spans: exported by the server in the run)'
  return [head, rows.length ? renderRows(table, [...(many ? ['l'] : []), 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']) : '', ...warnings].filter(Boolean).join('\n')
}
