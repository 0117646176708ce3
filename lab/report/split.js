// The terminal report of --split: per scenario, one column pair per target
// (share of the busy main thread, microseconds per request), the kernel's
// part from /proc, then the framework's top functions and the packages
// behind the plugins' and the other packages' shares.

import { SHARES } from '../runner/split.js'

const pct = (part, whole) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}` : '—')
const perReq = (us, requests) => (requests > 0 ? (us / requests).toFixed(2) : '—')

/** Sum of the shares that are not idle: the main thread's busy time. */
export function busyUs (run) {
  return SHARES.reduce((sum, s) => sum + run.shares[s.id], 0)
}

/**
 * @param {any} results what runSplit returns
 * @param {{ top?: number }} [o]
 */
export function renderSplit (results, { top = 15 } = {}) {
  const out = []
  for (const scenario of results.options.scenarios) {
    const runs = results.runs.filter((r) => r.scenario === scenario)
    if (!runs.length) continue
    out.push(`${scenario}: self time of the main thread while loaded (${results.options.rounds} × ${results.options.duration} s per target, a sample every ${results.options.interval} µs), and the process's CPU time from /proc`)
    const head = ['', ...runs.flatMap((r) => [`${r.target} % busy`, 'µs/req', '+callees'])]
    const rows = []
    for (const s of SHARES) {
      const label = s.id === 'framework' ? `framework's own code (${runs.map((r) => r.framework ?? '—').join(' / ')})` : s.label
      rows.push([label, ...runs.flatMap((r) => [pct(r.shares[s.id], busyUs(r)), perReq(r.shares[s.id], r.requests), perReq(r.withCallees[s.id], r.requests)])])
    }
    rows.push(['busy main thread (all above)', ...runs.flatMap((r) => ['100.0', perReq(busyUs(r), r.requests), perReq(busyUs(r), r.requests)])])
    rows.push(['idle, % of the sampled time', ...runs.flatMap((r) => [pct(r.shares.idle, busyUs(r) + r.shares.idle), '', ''])])
    rows.push(['/proc: user, % of CPU', ...runs.flatMap((r) => [pct(r.userSeconds, r.userSeconds + r.systemSeconds), perReq(r.userSeconds * 1e6, r.requests), ''])])
    rows.push(['/proc: kernel (stime), % of CPU', ...runs.flatMap((r) => [pct(r.systemSeconds, r.userSeconds + r.systemSeconds), perReq(r.systemSeconds * 1e6, r.requests), ''])])
    rows.push(['/proc: CPU, all threads', ...runs.flatMap((r) => ['', perReq((r.userSeconds + r.systemSeconds) * 1e6, r.requests), ''])])
    rows.push(['req/s while profiled', ...runs.flatMap((r) => [Math.round(r.rps).toLocaleString('en-US'), '', ''])])
    rows.push(['samples', ...runs.flatMap((r) => [r.samples.toLocaleString('en-US'), '', ''])])
    out.push(table(head, rows))
    out.push('(% busy, µs/req: self time. +callees: the node internals and native code a function calls charged to it, so the\n' +
      'socket write goes to the code that wrote and the HMAC to the JWT library; what no JavaScript above called stays where it is.)')
    for (const r of runs) {
      const own = r.functions.filter((f) => f.share === 'framework').sort((a, b) => b.withCallees - a.withCallees).slice(0, top)
      if (own.length) {
        out.push(`\n${r.target}: top functions of ${r.framework}'s own code, by self time with the node internals and native code they call`)
        out.push(table(['% busy', 'µs/req', '+callees', 'function', 'where'], own.map((f) => [pct(f.us, busyUs(r)), perReq(f.us, r.requests), perReq(f.withCallees, r.requests), f.name, `${f.file}:${f.line}`])))
      }
      for (const share of ['plugins', 'dependencies']) {
        const pkgs = r.packages.filter((p) => p.share === share).slice(0, 8)
        if (pkgs.length) out.push(`${r.target}: ${share === 'plugins' ? 'plugins' : 'other packages'} by package: ${pkgs.map((p) => `${p.pkg} ${pct(p.us, busyUs(r))} %`).join(', ')}`)
      }
    }
    out.push('')
  }
  return out.join('\n')
}

/** Left-aligned first column, right-aligned figures. */
function table (head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
  const line = (cells) => cells.map((c, i) => (i === 0 || (head[i] === 'function' || head[i] === 'where') ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd()
  return [line(head), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('\n')
}
