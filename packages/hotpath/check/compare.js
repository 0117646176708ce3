// The differences between the run on Fastify and each run on hotpath: test
// by test where both runs tell their tests apart, else by the failures they
// name, else by their counts and exit codes, saying which.
import { relative } from 'node:path'

/**
 * @typedef {import('./run.js').Run} Run
 * @typedef {import('./output.js').TestResult} TestResult
 * @typedef {{ name: string, file: string | null, error: string | null }} Difference
 * @typedef {{
 *   engine: string, run: Run, basis: string,
 *   failingOnHotpath: Difference[], failingOnFastify: Difference[], missingOnHotpath: Difference[],
 *   regressed: boolean
 * }} Comparison
 */

/**
 * @param {Run} fastify @param {Run} hotpath @param {string} engine
 * @returns {Comparison}
 */
export function compare (fastify, hotpath, engine) {
  /** @type {Difference[]} */ const failingOnHotpath = []
  /** @type {Difference[]} */ const failingOnFastify = []
  /** @type {Difference[]} */ const missingOnHotpath = []
  const exitDiffers = (fastify.exitCode === 0) !== (hotpath.exitCode === 0)
  let basis
  const a = fastify.results
  const b = hotpath.results
  if (a !== null && b !== null && !fastify.failuresOnly && !hotpath.failuresOnly) {
    basis = 'test by test'
    for (const [key, r] of a) {
      const o = b.get(key)
      if (r.skipped) continue
      if (o === undefined) { if (r.ok) missingOnHotpath.push(diff(r, null)); continue }
      if (o.skipped) continue
      if (r.ok && !o.ok) failingOnHotpath.push(diff(o, o.error))
      else if (!r.ok && o.ok) failingOnFastify.push(diff(r, r.error))
    }
  } else if (a !== null && b !== null) {
    // only failures are named (Jest, Vitest): a test failing on one run and
    // not named on the other passed there if the totals agree
    basis = 'by the failures the runner names'
    for (const [key, r] of b) if (!a.has(key)) failingOnHotpath.push(diff(r, r.error))
    for (const [key, r] of a) if (!b.has(key)) failingOnFastify.push(diff(r, r.error))
  } else if (fastify.counts !== null && hotpath.counts !== null) {
    basis = 'by the runner\'s summary counts (tests not told apart)'
  } else {
    basis = 'by the exit codes only (no test results could be read)'
  }
  const countsWorse = fastify.counts !== null && hotpath.counts !== null && hotpath.counts.failed > fastify.counts.failed
  const regressed = failingOnHotpath.length > 0 || missingOnHotpath.length > 0 || countsWorse ||
    (exitDiffers && hotpath.exitCode !== 0) || hotpath.timedOut
  return { engine, run: hotpath, basis, failingOnHotpath, failingOnFastify, missingOnHotpath, regressed }
}

/** @param {TestResult} r @param {string | null} error @returns {Difference} */
function diff (r, error) {
  return { name: r.name, file: r.file, error }
}

/**
 * The report as text.
 * @param {{ command: string, cwd: string, fastify: Run, comparisons: Comparison[] }} report
 */
export function renderText ({ command, cwd, fastify, comparisons }) {
  const lines = []
  const rel = (/** @type {string | null} */ f) => f === null ? '' : relative(cwd, f.replace(/^file:\/\//, ''))
  lines.push(`hotpath check: \`${command}\` on Fastify and on hotpath`, '')
  const runs = [fastify, ...comparisons.map((c) => c.run)]
  const cell = (/** @type {any} */ v) => String(v ?? '–')
  const rows = [
    ['', ...runs.map((r) => r.label)],
    ['passed', ...runs.map((r) => cell(r.counts?.passed))],
    ['failed', ...runs.map((r) => cell(r.counts?.failed))],
    ['skipped', ...runs.map((r) => cell(r.counts?.skipped))],
    ['exit code', ...runs.map((r) => r.timedOut ? 'timed out' : cell(r.exitCode ?? r.signal))],
    ['seconds', ...runs.map((r) => r.seconds.toFixed(1))],
    ['read from', ...runs.map((r) => r.source)]
  ]
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  for (const row of rows) lines.push(row.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join('   '))
  for (const c of comparisons) {
    lines.push('', `${c.run.label}, compared ${c.basis}:`)
    section(lines, `passing on Fastify, failing on hotpath`, c.failingOnHotpath, rel)
    section(lines, `run on Fastify, not run on hotpath`, c.missingOnHotpath, rel)
    section(lines, `failing on Fastify, passing on hotpath`, c.failingOnFastify, rel)
    if (c.run.results === null || fastify.results === null) {
      lines.push(`  tests could not be told apart: ${c.regressed ? 'the hotpath run did worse (see its log)' : 'no difference in what could be read'}`)
    }
    lines.push(`  log: ${c.run.logFile}`)
  }
  lines.push('', `Fastify's log: ${fastify.logFile}`)
  if (fastify.exitCode !== 0 && fastify.counts === null) {
    lines.push(`The run on Fastify itself failed (exit code ${fastify.exitCode ?? fastify.signal}) and no test result could be read: is the command right? Its output is in the log above.`)
  }
  const worse = comparisons.filter((c) => c.regressed).map((c) => c.engine)
  lines.push(worse.length === 0 ? 'No test that passes on Fastify fails on hotpath.' : `Differences found on: ${worse.join(', ')}.`)
  return lines.join('\n') + '\n'
}

/**
 * @param {string[]} lines @param {string} title @param {Difference[]} list
 * @param {(f: string | null) => string} rel
 */
function section (lines, title, list, rel) {
  lines.push(`  ${title}: ${list.length}`)
  for (const d of list) {
    lines.push(`    ${d.file ? `${rel(d.file)} › ` : ''}${d.name}`)
    if (d.error) lines.push(`      ${d.error.replace(/\(\/[^)]*\)$/, (m) => `(${rel(m.slice(1, -1))})`)}`)
  }
}

/**
 * The report as JSON (--json).
 * @param {{ command: string, cwd: string, fastify: Run, comparisons: Comparison[] }} report
 */
export function renderJson ({ command, cwd, fastify, comparisons }) {
  const run = (/** @type {Run} */ r) => ({
    label: r.label, exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, seconds: Number(r.seconds.toFixed(2)),
    counts: r.counts, readFrom: r.source, log: r.logFile
  })
  return {
    command,
    cwd,
    fastify: run(fastify),
    hotpath: comparisons.map((c) => ({
      engine: c.engine,
      run: run(c.run),
      comparedBy: c.basis,
      passingOnFastifyFailingOnHotpath: c.failingOnHotpath,
      runOnFastifyNotOnHotpath: c.missingOnHotpath,
      failingOnFastifyPassingOnHotpath: c.failingOnFastify,
      differs: c.regressed
    }))
  }
}
