// Checks a run against a profile's goals (issue 2 and issue 4 targets) and
// renders the verdicts. A report, never a test assertion.

import { fmtRatio } from './format.js'

/** @param {any} results */
export function evaluateGoals (results) {
  const out = []
  for (const node of results.env.nodes) {
    // only goals whose scenario and targets were part of this run
    const ran = (g) => results.scenarios.some((s) => s.id === g.scenario) && [g.target, g.vs].every((t) => results.targets.some((x) => x.id === t))
    for (const g of (results.goals || []).filter(ran)) {
      const a = results.summaries.find((s) => s.node === node && s.scenario === g.scenario && s.target === g.target)
      const b = results.summaries.find((s) => s.node === node && s.scenario === g.scenario && s.target === g.vs)
      let value = null
      /** @type {number | null} with a CPU goal: the target's req/s × the other's (a slower server pays more of the kernel's time a request) */
      let throughput = null
      if (a?.state === 'timed' && b?.state === 'timed') {
        if (g.metric === 'rps') value = a.rps.median / b.rps.median
        // a missing figure (a percentile the loader could not place) makes
        // the goal unknown, never met
        if (g.metric === 'p99') value = ratioOrNull(a.latency[99], b.latency[99])
        if (g.metric === 'rss') value = ratioOrNull(a.rss.max, b.rss.max)
        if (g.metric === 'cpu') {
          value = ratioOrNull(a.cpuUsPerReq?.median, b.cpuUsPerReq?.median)
          throughput = ratioOrNull(a.rps?.median, b.rps?.median)
        }
      }
      const met = value === null || !Number.isFinite(value) ? null : g.metric === 'rps' ? value >= g.ratio : value <= g.ratio
      const why = a?.state !== 'timed' || b?.state !== 'timed' ? `${a?.state !== 'timed' ? g.target : g.vs} not timed` : 'a figure is missing'
      out.push({ ...g, node, value, met, why: value === null ? why : null, ...(throughput !== null ? { throughput } : {}) })
    }
  }
  return out
}

export function renderGoals (verdicts) {
  if (!verdicts.length) return ''
  const lines = verdicts.map((v) => {
    const what = v.metric === 'rps' ? 'req/s' : v.metric === 'p99' ? 'p99 latency' : v.metric === 'cpu' ? 'CPU per request' : 'peak RSS'
    const cmp = v.metric === 'rps' ? '≥' : '≤'
    const mark = v.met === null ? '  ?' : v.met ? ' ok' : 'MISS'
    // CPU a request depends on the load: say at what throughput each ran
    const at = v.throughput === undefined || v.value === null ? '' : `, at ${fmtRatio(v.throughput)} its req/s`
    return `${mark.padStart(4)}  ${v.scenario}: ${v.target} ${what} / ${v.vs} = ${v.value === null ? `— (${v.why})` : fmtRatio(v.value)}${at} (goal ${cmp} ${v.ratio}, ${v.source})`
  })
  return `Goals (medians of one run; peak RSS: the highest round):\n${lines.join('\n')}`
}

/**
 * @param {number | null | undefined} a
 * @param {number | null | undefined} b
 */
function ratioOrNull (a, b) {
  return a == null || b == null || b === 0 ? null : a / b
}
