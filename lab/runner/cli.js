// `npm run bench`: parses the options and runs, compares or lists.
// main() is also what packages/hotpath/bench/compare.js calls, so there is
// one measuring engine.

import fs from 'node:fs'
import path from 'node:path'
import { parseOptions, HELP, UsageError } from './options.js'
import { runBench } from './run.js'
import { runSplit } from './split.js'
import { renderSplit } from '../report/split.js'
import { runStartup, writeStartupResults, renderStartupTable } from './startup.js'
import { runIdle, writeIdleResults, renderIdleTable, IdleSetupError } from './idle.js'
import { writeResults } from './output.js'
import { createProgress } from './progress.js'
import { renderTable, renderProblems, renderMatrix } from '../report/table.js'
import { evaluateGoals, renderGoals } from '../report/goals.js'
import { renderTracing } from '../report/tracing.js'
import { compareRuns, renderComparison } from '../report/compare.js'
import { targets } from '../targets/index.js'
import { scenarios } from '../scenarios/index.js'

/**
 * @param {string[]} argv
 * @param {{ stdout?: NodeJS.WritableStream, stderr?: NodeJS.WriteStream }} [io]
 * @returns {Promise<{ code: number, results?: any, files?: any }>}
 */
export async function main (argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  let opts
  try {
    opts = parseOptions(argv)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    stderr.write(`bench: ${err.message}\nRun with --help for the options.\n`)
    return { code: 2 }
  }
  if (opts.mode === 'help') { stdout.write(HELP); return { code: 0 } }
  if (opts.mode === 'list') {
    stdout.write(`Targets:\n${targets.map((t) => `  ${t.id.padEnd(14)} ${t.label}`).join('\n')}\n\nScenarios:\n${scenarios.map((s) => `  ${s.id.padEnd(14)} ${s.title}`).join('\n')}\n`)
    return { code: 0 }
  }
  if (opts.mode === 'compare') {
    const [a, b] = opts.files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')))
    stdout.write(renderComparison(compareRuns(a, b), a, b) + '\n')
    return { code: 0 }
  }

  if (opts.mode === 'startup') {
    const startup = /** @type {import('./startup.js').StartupOptions} */ (opts.startup)
    const results = await runStartup(startup, { log: (line) => stderr.write(`${line}\n`) })
    const files = writeStartupResults(results, startup.out)
    stdout.write(`\n${renderStartupTable(results)}\n`)
    writeFilesAndLoad(stdout, files, results.env)
    return { code: 0, results, files }
  }

  if (opts.mode === 'split') {
    const progress = createProgress(stderr)
    const results = await runSplit(opts, { log: progress.log, progress })
    fs.mkdirSync(opts.out, { recursive: true })
    const file = path.join(opts.out, `${path.basename(results.profileDir)}.json`)
    fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
    stdout.write(`\n${renderSplit(results, { top: opts.top })}\n`)
    const rel = (f) => path.relative(process.cwd(), f) || f
    stdout.write(`Results: ${rel(file)}\nProfiles (Chrome DevTools, Performance → Load profile): ${rel(results.profileDir)}/\n`)
    if (results.env.pinning && !results.env.pinning.enabled) stdout.write(`Note: ${results.env.pinning.note}\n`)
    stdout.write(`Load average before the run: ${results.env.loadAverage.map((x) => x.toFixed(2)).join(', ')}\n`)
    return { code: 0, results, files: { json: file } }
  }

  if (opts.mode === 'idle') {
    const idle = /** @type {import('./idle.js').IdleOptions} */ (opts.idle)
    let results
    try {
      results = await runIdle(idle, { log: (line) => stderr.write(`${line}\n`) })
    } catch (err) {
      // what the machine does not allow (open files, local ports) is said before anything starts
      if (!(err instanceof IdleSetupError)) throw err
      stderr.write(`bench: ${err.message}\n`)
      return { code: 2 }
    }
    const files = writeIdleResults(results, idle.out)
    stdout.write(`\n${renderIdleTable(results)}\n`)
    writeFilesAndLoad(stdout, files, results.env)
    return { code: 0, results, files }
  }

  const progress = createProgress(stderr)
  const results = await runBench(opts, { log: progress.log, progress })
  const files = writeResults(results, opts.out, { html: opts.html })
  stdout.write(`\n${renderTable(results)}\n`)
  const matrix = renderMatrix(results)
  if (matrix) stdout.write(`\n${matrix}\n`)
  const tracing = renderTracing(results)
  if (tracing) stdout.write(`\n${tracing}\n`)
  const problems = renderProblems(results)
  if (problems) stdout.write(`\nNot timed:\n${problems}\n`)
  const goals = renderGoals(evaluateGoals(results))
  if (goals) stdout.write(`\n${goals}\n`)
  const rel = (f) => path.relative(process.cwd(), f) || f
  stdout.write(`\nResults: ${rel(files.json)}\n         ${rel(files.csv)}\n${files.html ? `         ${rel(files.html)}\n` : ''}`)
  if (results.env.pinning && !results.env.pinning.enabled) stdout.write(`Note: ${results.env.pinning.note}\n`)
  noteLoad(stdout, results.env)
  return { code: 0, results, files }
}

/**
 * Where a run's JSON and CSV went, then the load note.
 * @param {NodeJS.WritableStream} stdout
 * @param {{ json: string, csv: string }} files
 * @param {{ loadAverage: number[], cores: number }} env
 */
function writeFilesAndLoad (stdout, files, env) {
  const rel = (/** @type {string} */ f) => path.relative(process.cwd(), f) || f
  stdout.write(`\nResults: ${rel(files.json)}\n         ${rel(files.csv)}\n`)
  noteLoad(stdout, env)
}

/**
 * The load average before the run, when other work was competing. Only the
 * reading taken before the first server starts says anything about other
 * work: by the end, the benchmark's own server and loader keep every core
 * busy, so the closing load average is high on a quiet machine too.
 * @param {NodeJS.WritableStream} stdout
 * @param {{ loadAverage: number[], cores: number }} env
 */
function noteLoad (stdout, env) {
  const busy = env.loadAverage[0]
  if (busy >= 1) stdout.write(`Note: load average ${busy.toFixed(2)} before the run (of ${env.cores} CPUs): other work was competing, expect noisy figures\n`)
}
