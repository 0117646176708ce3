#!/usr/bin/env node
// npm run test:loaded [-- --runs 5 --burners 2]
//
// The whole suite (`npm test`) on a busy machine: starts BURNERS processes
// that each keep a core busy (default 2, as many as this machine's cores),
// runs the suite RUNS times in a row (default 5), prints each run's summary
// line, and stops at the first run that fails, with the path of its full
// output and the tests that failed. The burners are stopped whatever
// happens (a burner also exits by itself once this process is gone).
// Exits 0 when every run passed. Not part of `npm test`: it takes minutes.

import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    burners: { type: 'string', default: '2' },
    help: { type: 'boolean', default: false }
  }
})
if (values.help) {
  console.log('npm run test:loaded [-- --runs N (default 5) --burners N (default 2)]')
  process.exit(0)
}
const runs = Math.max(1, Number(values.runs))
const burnerCount = Math.max(0, Number(values.burners))

// a busy loop that looks every few million turns whether its parent is alive
const BURN = 'const parent = process.ppid; for (let i = 1; ; i++) if ((i & 0x3ffffff) === 0) { try { process.kill(parent, 0) } catch { process.exit() } }'

/** @type {import('node:child_process').ChildProcess[]} */
const burners = []
function stopBurners () {
  for (const b of burners.splice(0)) b.kill('SIGKILL')
}
process.on('exit', stopBurners)
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    stopBurners()
    process.exit(130)
  })
}

/**
 * One `npm test`, its output into a file.
 * @param {string} logFile
 * @returns {Promise<{ code: number | null, text: string }>}
 */
function runSuite (logFile) {
  return new Promise((resolve) => {
    const out = fs.createWriteStream(logFile)
    const child = spawn('npm', ['test'], { cwd: path.join(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    /** @param {Buffer} d */
    const keep = (d) => { text += d; out.write(d) }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('close', (code) => out.end(() => resolve({ code, text })))
  })
}

/**
 * The summary line of a run, from the test runner's closing counts.
 * @param {string} text
 * @param {number | null} code
 */
function summary (text, code) {
  /** @param {string} name */
  const count = (name) => new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1]
  if (count('tests') === undefined) return `no test ran (exit code ${code}; the type-check failed?)`
  return `tests ${count('tests')}, pass ${count('pass')}, fail ${count('fail')}, cancelled ${count('cancelled')}, skipped ${count('skipped')}`
}

for (let i = 0; i < burnerCount; i++) {
  burners.push(spawn(process.execPath, ['-e', BURN], { stdio: 'ignore' }))
}
console.log(`${burnerCount} CPU burners on ${os.availableParallelism?.() ?? os.cpus().length} cores; npm test ${runs} times`)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-under-load-'))
let failed = false
try {
  for (let run = 1; run <= runs; run++) {
    const logFile = path.join(dir, `run-${run}.log`)
    const started = Date.now()
    const { code, text } = await runSuite(logFile)
    const seconds = Math.round((Date.now() - started) / 1000)
    console.log(`run ${run}/${runs}: ${summary(text, code)} (${seconds} s)`)
    if (code !== 0) {
      failed = true
      const notOk = text.split('\n').filter((l) => /^\s*not ok /.test(l))
      if (notOk.length > 0) console.log(notOk.map((l) => `  ${l.trim()}`).join('\n'))
      console.log(`  the run's output: ${logFile}`)
      break
    }
    fs.rmSync(logFile)
  }
} finally {
  stopBurners()
}
if (!failed) fs.rmSync(dir, { recursive: true, force: true })
console.log(failed ? 'FAILED' : `passed ${runs} times in a row under ${burnerCount} burners`)
process.exitCode = failed ? 1 : 0
