// One run of the application's own test command, unchanged, on Fastify or
// on hotpath: the same command, cwd and environment but for NODE_OPTIONS,
// which every process of the run (the runner's workers and any child the
// suite starts) inherits: ./collect.js and node:test's ./node-test-reporter.js
// on both runs, and on hotpath's, hotpath in Fastify's place
// (lib/as-fastify/register.js) with HOTPATH_ENGINE.
import { spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync, readdirSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tapResults, namedFailures, summaryCounts } from './output.js'

const here = new URL('.', import.meta.url)
const COLLECT = new URL('collect.js', here).href
const REPORTER = new URL('node-test-reporter.js', here).href
const REGISTER = new URL('../lib/as-fastify/register.js', here).href

/**
 * @typedef {import('./output.js').TestResult} TestResult
 * @typedef {{
 *   label: string, exitCode: number | null, signal: string | null, timedOut: boolean, seconds: number,
 *   results: Map<string, TestResult> | null, failuresOnly: boolean,
 *   counts: { passed: number, failed: number, skipped: number } | null,
 *   source: 'reporter' | 'tap' | 'failure lines' | 'summary' | 'exit code', logFile: string
 * }} Run
 */

/**
 * @param {{ command: string, args: string[], cwd: string, engine?: string, label: string,
 *   keepReporters: boolean, timeoutMs: number, verbose: boolean, logDir: string }} options
 * @returns {Promise<Run>}
 */
export async function runSuite (options) {
  const { command, args, cwd, engine, label, timeoutMs, verbose, logDir } = options
  const results = mkdtempSync(join(tmpdir(), 'hotpath-check-results-'))
  const imports = [`--import=${COLLECT}`]
  if (engine !== undefined) imports.push(`--import=${REGISTER}`)
  // node:test keeps one reporter per --test-reporter: the spec reporter for
  // the run's own output, and the one that records each test (its own
  // destination stays empty; not the null device, which Node 22 and later
  // fsync as they close it, and fail)
  const reporters = options.keepReporters ? [] : ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${join(results, 'reporter.out')}`]
  const env = {
    ...process.env,
    NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...imports, ...reporters].join(' ').trim(),
    HOTPATH_CHECK_RESULTS: results,
    HOTPATH_ENGINE: engine ?? '',
    FORCE_COLOR: '0',
    NO_COLOR: '1'
  }
  const logFile = join(logDir, `${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.log`)
  const log = createWriteStream(logFile)
  const started = process.hrtime.bigint()
  let output = ''
  let timedOut = false
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', shell: process.platform === 'win32' })
  const take = (/** @type {Buffer} */ chunk) => {
    output += chunk.toString('utf8')
    log.write(chunk)
    if (verbose) process.stderr.write(chunk)
  }
  child.stdout.on('data', take)
  child.stderr.on('data', take)
  const timer = setTimeout(() => {
    timedOut = true
    killTree(child)
  }, timeoutMs)
  /** @type {[number | null, string | null]} */
  const [exitCode, signal] = await new Promise((resolve) => {
    child.on('error', (err) => { take(Buffer.from(`\n${err.message}\n`)); resolve([127, null]) })
    child.on('close', (code, sig) => resolve([code, sig]))
  })
  clearTimeout(timer)
  await new Promise((resolve) => log.end(resolve))
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  return { label, exitCode, signal, timedOut, seconds, logFile, ...read(results, output) }
}

/** @param {import('node:child_process').ChildProcess} child */
function killTree (child) {
  try {
    if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL')
    else child.kill('SIGKILL')
  } catch {
    child.kill('SIGKILL')
  }
}

/**
 * The run's results: those its processes recorded, else what its output
 * names, else its summary's counts.
 * @param {string} dir @param {string} output
 */
function read (dir, output) {
  /** @type {TestResult[]} */
  const recorded = []
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) if (line !== '') recorded.push(JSON.parse(line))
    }
  }
  const summary = summaryCounts(output)
  if (recorded.length > 0) return { results: byKey(recorded), failuresOnly: false, counts: countOf(recorded), source: /** @type {const} */ ('reporter') }
  const tap = tapResults(output)
  if (tap.length > 0) return { results: byKey(tap), failuresOnly: false, counts: countOf(tap), source: /** @type {const} */ ('tap') }
  const failures = namedFailures(output)
  if (failures.length > 0 || (summary !== null && summary.failed === 0 && (summary.runner === 'jest' || summary.runner === 'vitest'))) {
    return { results: byKey(failures), failuresOnly: true, counts: summary, source: /** @type {const} */ ('failure lines') }
  }
  if (summary !== null) return { results: null, failuresOnly: false, counts: summary, source: /** @type {const} */ ('summary') }
  return { results: null, failuresOnly: false, counts: null, source: /** @type {const} */ ('exit code') }
}

/** @param {TestResult[]} list */
function byKey (list) {
  /** @type {Map<string, TestResult>} */
  const map = new Map()
  for (const r of list) {
    const base = `${r.file ?? ''}::${r.name}`
    let key = base
    for (let n = 2; map.has(key); n++) key = `${base}#${n}`
    map.set(key, r)
  }
  return map
}

/** @param {TestResult[]} list */
function countOf (list) {
  let passed = 0; let failed = 0; let skipped = 0
  for (const r of list) {
    if (r.skipped) skipped++
    else if (r.ok) passed++
    else failed++
  }
  return { passed, failed, skipped }
}
