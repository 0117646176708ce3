// The HTML report: one self-contained file (inline CSS and SVG, no scripts,
// no network), so it can be attached to an issue or opened offline.
// Per scenario: req/s bars (median, with the min–max whisker across rounds)
// and latency percentile curves ("percentage of requests served within a
// given time"), then the figures as a table.

import { LATENCY_PERCENTILES } from '../runner/stats.js'
import { fmtInt, fmtMs, fmtRatio, fmtPct, fmtMiB, fmtUs, ratioOf, baselineOf, baselineLabel } from './format.js'
import { evaluateGoals } from './goals.js'
import { ratioMatrix } from './table.js'

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#393b79', '#637939']

export function escapeHtml (s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])
}

const num = (n) => (Math.round(n * 10) / 10).toString()

/** Horizontal bars of median req/s with min–max whiskers. */
export function barChart (rows, { width = 720 } = {}) {
  const labelW = 130
  const rowH = 26
  const valueW = 150
  const plotW = width - labelW - valueW
  const height = rows.length * rowH + 30
  const max = Math.max(1, ...rows.map((r) => r.max ?? r.median ?? 0))
  const x = (v) => labelW + (v / max) * plotW
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="bars" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="requests per second">`]
  rows.forEach((r, i) => {
    const y = 10 + i * rowH
    parts.push(`<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(r.label)}</text>`)
    parts.push(`<rect x="${labelW}" y="${y + 3}" width="${num(Math.max(1, x(r.median) - labelW))}" height="${rowH - 8}" fill="${r.color}"><title>${escapeHtml(r.label)}: ${fmtInt(r.median)} req/s</title></rect>`)
    if (r.min != null && r.max != null) {
      const cy = y + rowH / 2 - 1
      parts.push(`<path d="M${num(x(r.min))} ${cy}H${num(x(r.max))}M${num(x(r.min))} ${cy - 5}v10M${num(x(r.max))} ${cy - 5}v10" stroke="#222" stroke-width="1.2" fill="none"/>`)
    }
    parts.push(`<text x="${num(x(r.max ?? r.median) + 6)}" y="${y + 15}">${fmtInt(r.median)}${r.ratio != null ? ` (${fmtRatio(r.ratio)})` : ''}</text>`)
  })
  parts.push(`<line x1="${labelW}" y1="6" x2="${labelW}" y2="${height - 20}" stroke="#999"/>`)
  parts.push(`<text x="${labelW}" y="${height - 5}" class="axis">0</text><text x="${labelW + plotW}" y="${height - 5}" text-anchor="end" class="axis">${fmtInt(max)} req/s</text>`)
  parts.push('</svg>')
  return parts.join('')
}

/** x position of a percentile on a "nines" scale: 0, 90, 99, 99.9 … equally spaced. */
export function ninesX (p) {
  return p >= 100 ? 5 : p <= 0 ? 0 : -Math.log10(1 - p / 100)
}

/** Latency percentile curves, one line per target, log-scaled latency. */
export function latencyChart (series, { width = 720, height = 300 } = {}) {
  const left = 60
  const right = 130
  const top = 12
  const bottom = 40
  const pts = LATENCY_PERCENTILES.filter((p) => p < 100)
  const xmax = ninesX(pts[pts.length - 1])
  const values = series.flatMap((s) => pts.map((p) => s.latency[p])).filter((v) => v != null && v > 0)
  if (values.length === 0) return '<p class="note">no latency data</p>'
  const lo = Math.floor(Math.log10(Math.min(...values)))
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...values))))
  const pw = width - left - right
  const ph = height - top - bottom
  const X = (p) => left + (ninesX(p) / xmax) * pw
  const Y = (ms) => top + ph - ((Math.log10(Math.max(ms, 10 ** lo)) - lo) / (hi - lo)) * ph
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="curves" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="latency by percentile">`]
  for (let e = lo; e <= hi; e++) {
    const y = num(Y(10 ** e))
    parts.push(`<line x1="${left}" y1="${y}" x2="${left + pw}" y2="${y}" stroke="#e3e3e3"/><text x="${left - 6}" y="${y}" text-anchor="end" dy="4" class="axis">${fmtMs(10 ** e).replace('.00 ', ' ')}</text>`)
  }
  for (const p of [0, 50, 90, 99, 99.9, 99.99]) {
    const xx = num(X(p))
    parts.push(`<line x1="${xx}" y1="${top}" x2="${xx}" y2="${top + ph}" stroke="#e3e3e3"/><text x="${xx}" y="${top + ph + 16}" text-anchor="middle" class="axis">${p === 0 ? 'min' : `p${p}`}</text>`)
  }
  parts.push(`<text x="${left + pw / 2}" y="${height - 4}" text-anchor="middle" class="axis">percentage of requests served within the latency (log scale)</text>`)
  series.forEach((s, i) => {
    const d = pts.filter((p) => s.latency[p] != null).map((p, j) => `${j ? 'L' : 'M'}${num(X(p))} ${num(Y(s.latency[p]))}`).join('')
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"><title>${escapeHtml(s.label)}</title></path>`)
    const ly = top + 8 + i * 16
    parts.push(`<rect x="${left + pw + 12}" y="${ly - 8}" width="12" height="4" fill="${s.color}"/><text x="${left + pw + 30}" y="${ly - 3}">${escapeHtml(s.label)}</text>`)
  })
  parts.push('</svg>')
  return parts.join('')
}

/** Bytes of the status line and headers a target sent (from conformance). */
function headBytesOf (results, node, scenario, target) {
  return results.status.find((x) => x.node === node && x.scenario === scenario && x.target === target)?.headBytes ?? null
}

/** @param {any} results */
export function renderHtml (results) {
  const colors = new Map(results.targets.map((t, i) => [t.id, PALETTE[i % PALETTE.length]]))
  const e = results.env
  const sections = []
  for (const node of e.nodes) {
    for (const sc of results.scenarios) {
      const list = results.summaries.filter((s) => s.node === node && s.scenario === sc.id)
      const vs = baselineOf(sc)
      const vsLabel = escapeHtml(baselineLabel(results, sc))
      const timed = list.filter((s) => s.state === 'timed' && s.rps.median != null).sort((a, b) => b.rps.median - a.rps.median)
      const bars = timed.map((s) => ({ label: s.target, color: colors.get(s.target), median: s.rps.median, min: s.rps.min, max: s.rps.max, ratio: ratioOf(results.summaries, { node, scenario: sc.id, target: s.target, vs }) }))
      // a loader without percentiles (h2load: min, mean, sd, max) gets those
      // columns and no curve: a line from min to max would invent the rest
      const percentiles = !timed.length || timed.some((s) => s.latency[50] != null)
      const curves = timed.map((s) => ({ label: s.target, color: colors.get(s.target), latency: s.latency }))
      const rows = timed.map((s) => `<tr><td>${escapeHtml(s.target)}</td><td>${fmtInt(s.rps.median)}</td><td>${fmtInt(s.rps.min)}–${fmtInt(s.rps.max)}</td><td>${fmtRatio(ratioOf(results.summaries, { node, scenario: sc.id, target: s.target, vs }))}</td>${(percentiles ? [s.latency[50], s.latency[90], s.latency[99], s.latency[99.9], s.latency[100]] : [s.latency[0], s.latencyMean, s.latencySd, s.latency[100]]).map((ms) => `<td>${fmtMs(ms)}</td>`).join('')}<td>${fmtUs(s.cpuUsPerReq.median)}</td><td>${fmtMiB(s.rss.max)}</td><td>${fmtPct(s.gcShare)}</td><td>${headBytesOf(results, node, sc.id, s.target) ?? '—'}</td><td>${escapeHtml(s.flags.join(', '))}</td></tr>`)
      const others = list.filter((s) => s.state !== 'timed').map((s) => `<li><b>${escapeHtml(s.target)}</b>: ${escapeHtml(s.state)}${s.reason ? ` — ${escapeHtml(s.reason)}` : ''}</li>`)
      sections.push(`<section id="${escapeHtml(sc.id)}-${escapeHtml(node)}">
<h2>${escapeHtml(sc.id)}${e.nodes.length > 1 ? ` · node ${escapeHtml(node)}` : ''}</h2>
<p class="note">${escapeHtml(sc.title)}${sc.pipelining > 1 ? ` · ${sc.protocol === 'h2' ? `${sc.pipelining} streams per connection` : `pipelining ${sc.pipelining}`}` : ''}</p>
${timed.length ? `<h3>Requests per second (median of ${results.options.rounds}, whiskers: min–max; × ${vsLabel})</h3>${barChart(bars)}
${percentiles ? `<h3>Latency by percentile</h3>${latencyChart(curves)}` : `<p class="note">${escapeHtml(results.env.loader?.name ?? 'The loader')} reports no latency percentiles: min, mean, standard deviation and max instead.</p>`}
<table><thead><tr><th>target</th><th>req/s</th><th>min–max</th><th>× ${vsLabel}</th>${(percentiles ? ['p50', 'p90', 'p99', 'p99.9', 'max'] : ['min', 'mean', 'sd', 'max']).map((h) => `<th>${h}</th>`).join('')}<th>CPU µs/req</th><th>peak RSS</th><th>GC</th><th>head bytes</th><th>notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : '<p>No target was timed.</p>'}
${others.length ? `<ul class="problems">${others.join('')}</ul>` : ''}
</section>`)
    }
  }
  const matrices = results.targets.some((t) => t.id === 'node-http') && results.scenarios.length > 1
    ? e.nodes.map((node) => {
      const m = ratioMatrix(results, node)
      const best = results.scenarios.map((_, i) => Math.max(...m.map((r) => r.cells[i] ?? -1)))
      const body = m.map((r) => `<tr><td>${escapeHtml(r.target)}</td>${r.cells.map((c, i) => `<td>${c === null ? '—' : c === best[i] ? `<b>${fmtRatio(c)}</b>` : fmtRatio(c)}</td>`).join('')}</tr>`).join('')
      return `<h3>Median req/s relative to node:http${e.nodes.length > 1 ? ` · node ${escapeHtml(node)}` : ''}</h3><table class="matrix"><thead><tr><th></th>${results.scenarios.map((s) => `<th><a href="#${escapeHtml(s.id)}-${escapeHtml(node)}">${escapeHtml(s.id)}</a></th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`
    }).join('')
    : ''
  const goals = evaluateGoals(results)
  const goalRows = goals.map((g) => `<tr class="${g.met === null ? 'unknown' : g.met ? 'met' : 'missed'}"><td>${escapeHtml(g.scenario)}</td><td>${escapeHtml(g.target)} / ${escapeHtml(g.vs)}</td><td>${escapeHtml(g.metric)}</td><td>${g.value === null ? '—' : fmtRatio(g.value)}</td><td>${g.metric === 'rps' ? '≥' : '≤'} ${g.ratio}</td><td>${g.met === null ? 'not measured' : g.met ? 'met' : 'missed'}</td><td>${escapeHtml(g.source)}</td></tr>`)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hotpath lab — ${escapeHtml(results.startedAt)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;max-width:1150px;padding:0 1em;color:#222}section>table{font-size:13px}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1em;margin:1.2em 0 .3em}
table{border-collapse:collapse;margin:.8em 0;font-variant-numeric:tabular-nums}td,th{padding:3px 8px;white-space:nowrap;border-bottom:1px solid #eee;text-align:right}td:first-child,th:first-child{text-align:left}
svg text{font-size:12px;fill:#222}svg .axis{fill:#666;font-size:11px}.note{color:#666}.problems{color:#a33}
tr.met td:nth-child(6){color:#2a7}tr.missed td:nth-child(6){color:#c33}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dt{color:#666}
</style></head><body>
<h1>hotpath lab</h1>
<p>Medians of ${results.options.rounds} interleaved round(s) of ${results.options.duration} s, ${results.options.connections} connections, after ${results.options.warmup} s of discarded warm-up per target. Ratios compare targets measured in this run only.</p>
<dl>
<dt>started</dt><dd>${escapeHtml(results.startedAt)} (finished ${escapeHtml(results.finishedAt ?? '—')})</dd>
<dt>machine</dt><dd>${escapeHtml(e.cpuModel)}, ${e.cores} CPUs, ${fmtMiB(e.memoryBytes)}, ${escapeHtml(e.os)}, host ${escapeHtml(e.host)}</dd>
<dt>load average</dt><dd>${e.loadAverage.map((n) => n.toFixed(2)).join(' ')} at start${e.loadAverageAfter ? `, ${e.loadAverageAfter.map((n) => n.toFixed(2)).join(' ')} at the end` : ''}</dd>
<dt>node</dt><dd>servers on ${escapeHtml(e.nodes.join(', '))}; runner ${escapeHtml(e.runnerNode)}</dd>
<dt>loader</dt><dd>${escapeHtml(e.loader.name)} ${escapeHtml(e.loader.version)}</dd>
<dt>pinning</dt><dd>${escapeHtml(e.pinning.note)}</dd>
<dt>packages</dt><dd>${escapeHtml(Object.entries(e.packages).map(([k, v]) => `${k} ${v ?? '?'}`).join(', '))}</dd>
<dt>commit</dt><dd>${escapeHtml(e.git?.commit ?? '—')}${e.git?.dirty ? ' (with uncommitted changes)' : ''}</dd>
</dl>
${matrices ? `<h2>At a glance</h2>${matrices}` : ''}
${goalRows.length ? `<h2>Goals</h2><table><thead><tr><th>scenario</th><th>target / vs</th><th>metric</th><th>ratio</th><th>goal</th><th>verdict</th><th>source</th></tr></thead><tbody>${goalRows.join('')}</tbody></table>` : ''}
${sections.join('\n')}
<h2>Method</h2>
<p class="note">Each target serves one scenario per process. Before timing, every target's answer is checked (status, media type, exact body bytes, bad input where the scenario has some); a target that answers wrongly is not timed. Server and load generator are pinned to different CPUs when taskset exists. CPU µs/req and peak RSS come from /proc (peak RSS: the highest of the rounds, since one server process serves them all and its resident set climbs from round to round); GC is the share of the run spent in garbage collection, from a PerformanceObserver inside the server. Flags: <i>errors</i> (socket errors, timeouts or non-2xx answers), <i>loader-bound</i> (the load generator used its whole CPU while the server did not: the figure is the loader's ceiling). Head bytes: the size of the status line and headers each target sends (the bodies are identical).</p>
</body></html>
`
}
