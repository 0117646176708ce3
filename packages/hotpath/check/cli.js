// hotpath check [--engine wire|node|h2]... [--json file] [--entry file]
//               [--timeout seconds] [--verbose] -- <the app's test command>
//
// Runs the application's own test command on Fastify, then on hotpath (each
// engine asked, by default wire and node) with every `fastify` of the
// process resolving to hotpath/fastify, and lists every difference. Exits 1
// when a test that passes on Fastify does not on hotpath (or the entry's
// start-up check differs), 0 when none does, 2 on a usage error.
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createRequire } from 'node:module'
import { runSuite } from './run.js'
import { compare, renderText, renderJson } from './compare.js'
import { checkEntry, renderEntry } from './entry.js'

const USAGE = `usage: hotpath check [options] -- <test command>

  Runs the test command on Fastify and on hotpath and lists every test
  that passes on one and fails on the other.

  --engine <wire|node|h2>  the engine of the hotpath run (repeatable; default: wire and node)
  --entry <file>           also start this entry under both and compare its GET routes
  --json <file>            write the report as JSON too
  --timeout <seconds>      stop a run after this long (default 600)
  --verbose                show each run's output as it runs
  -h, --help               this text

  example: npx hotpath check -- npm test
`

const ENGINES = ['wire', 'node', 'h2']

/** @param {string[]} argv @returns {Promise<number>} the exit code */
export async function check (argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        engine: { type: 'string', multiple: true },
        entry: { type: 'string' },
        json: { type: 'string' },
        timeout: { type: 'string', default: '600' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false }
      }
    })
  } catch (err) {
    process.stderr.write(`hotpath check: ${/** @type {Error} */ (err).message}\n\n${USAGE}`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const engines = values.engine ?? ['wire', 'node']
  const unknown = engines.filter((e) => !ENGINES.includes(e))
  const timeout = Number(values.timeout)
  if (unknown.length > 0 || positionals.length === 0 || !(timeout > 0)) {
    const why = unknown.length > 0 ? `unknown engine ${unknown.join(', ')} (wire, node or h2)` : positionals.length === 0 ? 'no test command given after --' : `--timeout must be a number of seconds, got ${values.timeout}`
    process.stderr.write(`hotpath check: ${why}\n\n${USAGE}`)
    return 2
  }
  const cwd = process.cwd()
  const [command, ...args] = positionals
  const commandLine = positionals.join(' ')
  const logDir = mkdtempSync(join(tmpdir(), 'hotpath-check-'))
  const keepReporters = passesReporters(cwd, positionals)
  const common = { command, args, cwd, keepReporters, timeoutMs: timeout * 1000, verbose: values.verbose, logDir }

  const installed = installedFastify(cwd)
  if (installed !== 'fastify') process.stderr.write(`hotpath check: ${installed}: the first run may not be on Fastify\n`)
  process.stderr.write(`hotpath check: running \`${commandLine}\` on Fastify…\n`)
  const fastify = await runSuite({ ...common, label: 'Fastify' })
  progress(fastify)
  const comparisons = []
  for (const engine of engines) {
    process.stderr.write(`hotpath check: running \`${commandLine}\` on hotpath (${engine})…\n`)
    const run = await runSuite({ ...common, label: `hotpath ${engine}`, engine })
    progress(run)
    comparisons.push(compare(fastify, run, engine))
  }
  const report = { command: commandLine, cwd, fastify, comparisons }
  let text = renderText(report)
  /** @type {any} */
  const json = renderJson(report)
  let entryDiffers = false
  if (values.entry !== undefined) {
    const entry = await checkEntry(resolve(cwd, values.entry), engines, cwd)
    text += '\n' + renderEntry(entry, cwd)
    json.entry = entry
    entryDiffers = entry.differs
  }
  process.stdout.write(text)
  if (values.json !== undefined) writeFileSync(resolve(cwd, values.json), JSON.stringify(json, null, 2) + '\n')
  return comparisons.some((c) => c.regressed) || entryDiffers ? 1 : 0
}

/**
 * What `fastify` is where the command runs: 'fastify', or what else it is
 * (hotpath-fastify installed under its name, or nothing).
 * @param {string} cwd
 */
function installedFastify (cwd) {
  try {
    const file = createRequire(join(cwd, 'package.json')).resolve('fastify/package.json')
    const { name, version } = JSON.parse(readFileSync(file, 'utf8'))
    return name === 'fastify' ? 'fastify' : `\`fastify\` here is ${name}@${version}, not Fastify`
  } catch {
    return '`fastify` is not installed here'
  }
}

/** @param {import('./run.js').Run} run */
function progress (run) {
  const counts = run.counts ? `${run.counts.passed} passed, ${run.counts.failed} failed` : `exit code ${run.exitCode}`
  process.stderr.write(`  ${counts} (${run.seconds.toFixed(1)} s${run.timedOut ? ', timed out' : ''})\n`)
}

/**
 * Whether the command names node:test reporters of its own (directly, or in
 * the package.json script `npm test`/`npm run x` runs): node:test then
 * needs a destination for each reporter, and the check's own are not added
 * (results are read from the output instead).
 * @param {string} cwd @param {string[]} command
 */
function passesReporters (cwd, command) {
  let text = command.join(' ')
  const pkgFile = join(cwd, 'package.json')
  if ((command[0] === 'npm' || command[0] === 'pnpm' || command[0] === 'yarn') && existsSync(pkgFile)) {
    const scripts = JSON.parse(readFileSync(pkgFile, 'utf8')).scripts ?? {}
    text += ' ' + Object.values(scripts).join(' ')
  }
  return /--test-reporter\b/.test(text)
}
