#!/usr/bin/env node
// npm run ecosystem [-- --only cookie,jwt] [--dry]
//
// Runs the official Fastify plugins' own test suites (plugins.js) twice: on
// Fastify, and with `require('fastify')` answering hotpath/fastify from this
// checkout. A plugin's figure is how many of the tests that pass on Fastify
// pass on hotpath too. The table in docs/ecosystem.md is rewritten with the
// figures (unless --dry); every failing test and its error is written to
// <work dir>/results.json.
//
// Each plugin is fetched with `npm pack` and its dependencies installed in a
// work dir under the system temp folder (cached between runs). Tests run one
// file at a time, each file killed after 120 s, each test after 15 s.

import { spawnSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { plugins, notRun, unneeded } from './plugins.js'
import { leafResults, tapLines, compare, renderTable, renderNotRun, replaceSection, percent, globToRegExp } from './results.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = join(here, '..', '..')
const hotpathFastify = join(root, 'packages', 'hotpath', 'lib', 'fastify.js')
const hotpathSymbols = join(root, 'packages', 'hotpath', 'lib', 'fastify-internals', 'symbols.js')
const hotpathReply = join(root, 'packages', 'hotpath', 'lib', 'fastify-internals', 'reply.js')
const hotpathErrors = join(root, 'packages', 'hotpath', 'lib', 'fastify-internals', 'errors.js')
const reporter = join(here, 'reporter.mjs')
const page = join(root, 'docs', 'ecosystem.md')
const work = join(tmpdir(), 'hotpath-ecosystem')

const { values: args } = parseArgs({ options: { only: { type: 'string' }, dry: { type: 'boolean', default: false } } })
const only = args.only ? args.only.split(',').map((s) => s.trim().replace(/^@fastify\//, '')) : null
const chosen = plugins.filter((p) => only === null || only.includes(p.name.replace('@fastify/', '')))
if (chosen.length === 0) throw new Error(`no plugin matches --only ${args.only}`)

/** @param {string} cmd @param {string[]} argv @param {string} cwd @param {Record<string, string>} [env] */
function run (cmd, argv, cwd, env) {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed in ${cwd}:\n${r.stderr || r.stdout}`)
  return r.stdout
}

/**
 * The plugin's package, unpacked, with its dependencies and the development
 * dependencies its tests use installed, and its build run.
 * @param {import('./plugins.js').Plugin} plugin
 */
function prepare (plugin) {
  const dir = join(work, `${plugin.name.replace('/', '__')}@${plugin.version}`)
  const pkgDir = join(dir, 'package')
  if (existsSync(join(pkgDir, '.installed'))) return pkgDir
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const tarball = run('npm', ['pack', `${plugin.name}@${plugin.version}`, '--silent'], dir).trim().split('\n').pop()
  run('tar', ['xzf', tarball], dir)
  const pkgFile = join(pkgDir, 'package.json')
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'))
  for (const dep of Object.keys(pkg.devDependencies ?? {})) if (unneeded.test(dep)) delete pkg.devDependencies[dep]
  delete pkg.scripts
  writeFileSync(pkgFile, JSON.stringify(pkg, null, 2))
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--loglevel=error'], pkgDir)
  if (plugin.build) run(plugin.build[0], plugin.build.slice(1), pkgDir, plugin.env)
  writeFileSync(join(pkgDir, '.installed'), '')
  return pkgDir
}

/**
 * The plugin's test files: those its `files` patterns name (as its own test
 * runner's configuration lists them), else test/**\/*.test.{js,cjs,mjs}, or,
 * without any, the files in test/ that use node:test (or tap, for a tap
 * suite); less those its `skip` names.
 * @param {string} pkgDir
 * @param {import('./plugins.js').Plugin} plugin
 */
function testFiles (pkgDir, plugin) {
  const all = []
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (/\.(c|m)?js$/.test(e.name)) all.push(p)
    }
  }
  if (existsSync(join(pkgDir, 'test'))) walk(join(pkgDir, 'test'))
  const rel = all.map((f) => relative(pkgDir, f))
  const uses = plugin.runner === 'tap' ? /require\(['"]tap['"]\)|from ['"]tap['"]/ : /['"]node:test['"]/
  const patterns = (plugin.files ?? []).map(globToRegExp)
  const named = rel.filter((f) => /\.test\.(c|m)?js$/.test(f))
  const files = patterns.length > 0
    ? rel.filter((f) => patterns.some((re) => re.test(f)))
    : named.length > 0 ? named : rel.filter((f) => uses.test(readFileSync(join(pkgDir, f), 'utf8')))
  return files.filter((f) => !(f in (plugin.skip ?? {}))).sort()
}

/**
 * Points `require('fastify')` inside the plugin at hotpath (or back at
 * Fastify): the real package is moved aside and a stand-in that returns
 * hotpath/fastify's factory takes its place.
 * @param {string} pkgDir
 * @param {'fastify' | 'hotpath'} target
 */
function useFramework (pkgDir, target) {
  const real = join(pkgDir, 'node_modules', 'fastify')
  const aside = join(pkgDir, 'node_modules', '.fastify-real')
  if (existsSync(aside)) {
    rmSync(real, { recursive: true, force: true })
    renameSync(aside, real)
  }
  if (target === 'fastify') return
  const version = JSON.parse(readFileSync(join(real, 'package.json'), 'utf8')).version
  renameSync(real, aside)
  mkdirSync(real)
  writeFileSync(join(real, 'package.json'), JSON.stringify({ name: 'fastify', version, main: 'index.js' }))
  writeFileSync(join(real, 'index.js'), [
    "'use strict'",
    `const { fastify } = require(${JSON.stringify(hotpathFastify)})`,
    'module.exports = fastify',
    'module.exports.fastify = fastify',
    'module.exports.default = fastify',
    ''
  ].join('\n'))
  // `fastify/lib/symbols`, `fastify/lib/reply` and `fastify/lib/errors` are
  // hotpath's (as the hotpath-fastify package gives them); the other `fastify/lib/*` files
  // forward to Fastify's own, so that a test file importing them loads at
  // all; a test that depends on those internals being the app's still fails.
  const ours = { 'symbols.js': hotpathSymbols, 'reply.js': hotpathReply, 'errors.js': hotpathErrors }
  const forward = (from, to) => {
    mkdirSync(from, { recursive: true })
    for (const e of readdirSync(to, { withFileTypes: true })) {
      if (e.isDirectory()) forward(join(from, e.name), join(to, e.name))
      else if (e.name.endsWith('.js')) writeFileSync(join(from, e.name), `module.exports = require(${JSON.stringify(from === join(real, 'lib') && ours[e.name] ? ours[e.name] : join(to, e.name))})\n`)
    }
  }
  if (existsSync(join(aside, 'lib'))) forward(join(real, 'lib'), join(aside, 'lib'))
}

/**
 * Runs one test file; resolves its leaf results. A node:test file runs under
 * `node --test` with the JSON-lines reporter; a tap file runs by itself, as
 * tap's runner runs it, and its TAP output is read. A file that reports no
 * test at all is one test, passing if it exits with 0.
 * @param {string} pkgDir
 * @param {string} file
 * @param {import('./plugins.js').Plugin} plugin
 */
function runFile (pkgDir, file, plugin) {
  const argv = plugin.runner === 'tap'
    ? [file]
    : ['--test', `--test-reporter=${reporter}`, `--test-timeout=${plugin.testTimeout ?? 15_000}`, file]
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, {
      cwd: pkgDir, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_TEST_CONTEXT: undefined, NODE_ENV: 'test', ...plugin.env }
    })
    let out = ''
    child.stdout.on('data', (c) => { out += c })
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      const results = leafResults(file, plugin.runner === 'tap' ? tapLines(out) : out)
      if (results.size === 0) results.set(file, code === 0 ? { ok: true } : { ok: false, error: `exited with ${code}` })
      resolve(results)
    })
  })
}

/** Every file of the suite, on one framework. */
async function runSuite (pkgDir, files, target, plugin) {
  useFramework(pkgDir, target)
  try {
    const results = new Map()
    for (const file of files) for (const [k, v] of await runFile(pkgDir, file, plugin)) results.set(k, v)
    return results
  } finally {
    useFramework(pkgDir, 'fastify')
  }
}

mkdirSync(work, { recursive: true })
const rows = []
/** @type {{ name: string, why: string }[]} */
const unmeasured = []
const details = {}
for (const plugin of chosen) {
  process.stdout.write(`${plugin.name}@${plugin.version}: `)
  let pkgDir
  try {
    pkgDir = prepare(plugin)
  } catch (err) {
    console.log(`not measured: ${err.message.split('\n').slice(0, 3).join(' ')}`)
    unmeasured.push({ name: plugin.name, why: `not measured this time: its install failed (${plugin.version})` })
    continue
  }
  const files = testFiles(pkgDir, plugin)
  const started = Date.now()
  const onFastify = await runSuite(pkgDir, files, 'fastify', plugin)
  const onHotpath = await runSuite(pkgDir, files, 'hotpath', plugin)
  const { total, passing, failing } = compare(onFastify, onHotpath)
  console.log(`${passing}/${total} (${percent(passing, total)}), ${files.length} files, ${Math.round((Date.now() - started) / 1000)} s`)
  rows.push({ name: plugin.name, version: plugin.version, passing, total })
  details[plugin.name] = { version: plugin.version, files, passing, total, failing }
  writeFileSync(join(pkgDir, '..', 'results.json'), JSON.stringify({ node: process.version, date: new Date().toISOString(), ...details[plugin.name] }, null, 2))
}

const resultsFile = join(work, 'results.json')
writeFileSync(resultsFile, JSON.stringify({ node: process.version, date: new Date().toISOString(), plugins: details }, null, 2))
const table = renderTable(rows)
console.log('\n' + table + `\n\nfailing tests and their errors: ${resultsFile}`)

if (!args.dry && only === null) {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim()
  const stamp = `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node}, hotpath at ${commit || 'an uncommitted tree'}, by \`npm run ecosystem\`.`
  writeFileSync(page, replaceSection(readFileSync(page, 'utf8'), `${table}\n\n${stamp}\n\n${renderNotRun([...notRun, ...unmeasured])}`))
  console.log(`updated ${relative(root, page)}`)
} else if (!args.dry) {
  console.log('(--only: the page is left as it is; it lists every plugin or none)')
}
