// Number formatting shared by the terminal table, the CSV and the HTML report.

export const fmtInt = (n) => (n == null ? '—' : Math.round(n).toLocaleString('en-US'))
export const fmtMs = (ms) => (ms == null ? '—' : ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`)
export const fmtRatio = (r) => (r == null ? '—' : `${r.toFixed(2)}×`)
export const fmtPct = (f) => (f == null ? '—' : `${(f * 100).toFixed(1)} %`)
export const fmtMiB = (b) => (b == null ? '—' : `${(b / 1048576).toFixed(0)} MiB`)
export const fmtUs = (us) => (us == null ? '—' : `${us.toFixed(1)}`)

/**
 * The target a scenario's ratios are taken against: node-http, or the
 * scenario's own baseline where node:http does not serve it (middleware).
 * Results written before scenarios had one have node-http.
 * @param {{ baseline?: string }} scenario an entry of results.scenarios
 */
export const baselineOf = (scenario) => scenario.baseline ?? 'node-http'

/** The baseline's label for a column head: "node:http", "Express". */
export function baselineLabel (results, scenario) {
  const id = baselineOf(scenario)
  return results.targets.find((t) => t.id === id)?.label ?? id
}

/** Median req/s of `target` over median req/s of `vs`, in one run. */
export function ratioOf (summaries, { node, scenario, target, vs = 'node-http' }) {
  const a = summaries.find((s) => s.node === node && s.scenario === scenario && s.target === target)
  const b = summaries.find((s) => s.node === node && s.scenario === scenario && s.target === vs)
  if (!a || !b || !a.rps.median || !b.rps.median || a.state !== 'timed' || b.state !== 'timed') return null
  return a.rps.median / b.rps.median
}
