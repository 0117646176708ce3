// The `startup` profile: how long an app of many schema routes takes from
// the framework's import to ready() and to its first answer, per process
// (not requests per second). For each size, each round starts one process
// per target (targets/startup.js), the targets alternating in rotating
// order as the other profiles' rounds do, pinned to the server CPU; the
// figures are medians across rounds with min and max.

import { spawn } from 'node:child_process'
import path from 'node:path'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { choosePinning, rotation } from './run.js'
import { captureEnv } from './env.js'
import { spread } from './stats.js'
import { baseName } from './output.js'
import { csvField } from '../report/csv.js'
import { renderRows } from '../report/table.js'
import { hotpathEntryUrl } from './hotpath-entry.js'

const APP = fileURLToPath(new URL('../targets/startup.js', import.meta.url))

/** The startup targets: each a framework targets/startup.js builds the app with. */
export const startupTargets = [
  { id: 'hotpath', label: 'hotpath', schemas: true },
  { id: 'fastify', label: 'Fastify 5', schemas: true },
  { id: 'express', label: 'Express 5 (no schemas: routes and express.json())', schemas: false },
  { id: 'hono', label: 'Hono (no schemas: routes, c.req.json())', schemas: false }
]
export const startupTargetIds = startupTargets.map((t) => t.id)

/**
 * @typedef {object} StartupOptions
 * @property {string[]} targets
 * @property {number[]} routes          app sizes
 * @property {number} rounds
 * @property {Record<string, number>} roundsBySize  fewer rounds for the sizes where a process takes long
 * @property {number} timeout           seconds one process may take
 * @property {string | null} baselineHotpath  another hotpath package directory, timed as `hotpath-baseline`
 * @property {{ server: number, loader: number } | null | 'auto'} pin
 * @property {string} out
 */

/**
 * One process: the app of `routes` routes on `target`; its figures, or the
 * reason it gave none.
 * @param {{ target: string, routes: number, cpu: number | null, timeout: number, hotpathEntry?: string }} o
 * @returns {Promise<{ ok: true, figures: any } | { ok: false, reason: string }>}
 */
export function startupProcess ({ target, routes, cpu, timeout, hotpathEntry }) {
  const env = { ...process.env, LAB_STARTUP_TARGET: target === 'hotpath-baseline' ? 'hotpath' : target, LAB_ROUTES: String(routes) }
  if (hotpathEntry) env.LAB_HOTPATH_ENTRY = hotpathEntry
  let argv = [process.execPath, APP]
  if (cpu !== null) argv = ['taskset', '-c', String(cpu), ...argv]
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { err = (err + d).slice(-2000) })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout * 1000)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (signal === 'SIGKILL') return resolve({ ok: false, reason: `over ${timeout} s` })
      if (code !== 0) return resolve({ ok: false, reason: `exit ${code}: ${err.trim().split('\n').slice(-2).join(' | ')}` })
      try {
        resolve({ ok: true, figures: JSON.parse(out.trim().split('\n').pop() ?? '') })
      } catch {
        resolve({ ok: false, reason: `no figures: ${out.slice(-200)}` })
      }
    })
  })
}

/**
 * @param {StartupOptions} opts
 * @param {{ log: (line: string) => void }} io
 */
export async function runStartup (opts, { log }) {
  const pinning = choosePinning(opts.pin)
  const startedAt = new Date()
  const env = captureEnv({ loader: { name: 'none', version: '' }, pinning })
  const ids = [...opts.targets]
  /** @type {string | undefined} */
  let hotpathEntry
  if (opts.baselineHotpath !== null) {
    hotpathEntry = hotpathEntryUrl(opts.baselineHotpath)
    ids.splice(ids.indexOf('hotpath') + 1, 0, 'hotpath-baseline')
  }
  const results = {
    schema: 1,
    kind: 'startup',
    startedAt: startedAt.toISOString(),
    finishedAt: /** @type {string | null} */ (null),
    env: { ...env, nodes: [process.version] },
    options: { profile: 'startup', targets: ids, routes: opts.routes, rounds: opts.rounds, roundsBySize: opts.roundsBySize, timeout: opts.timeout, baselineHotpath: opts.baselineHotpath },
    samples: /** @type {any[]} */ ([]),
    failures: /** @type {any[]} */ ([]),
    summaries: /** @type {any[]} */ ([])
  }
  log(`pinning: ${pinning.note}; node ${process.version}`)
  for (const routes of opts.routes) {
    const rounds = Math.min(opts.rounds, opts.roundsBySize[String(routes)] ?? opts.rounds)
    /** @type {Set<string>} */
    const broken = new Set()
    for (let round = 0; round < rounds; round++) {
      for (const target of rotation(ids, round)) {
        if (broken.has(target)) continue
        log(`startup · ${routes} routes · ${target} · round ${round + 1}/${rounds}`)
        const r = await startupProcess({ target, routes, cpu: pinning.server, timeout: opts.timeout, hotpathEntry: target === 'hotpath-baseline' ? hotpathEntry : undefined })
        if (r.ok) {
          const { importMs, registerMs, readyMs, firstAnswerMs, firstRequestMs, rss } = r.figures
          results.samples.push({ target, routes, round, importMs, registerMs, readyMs, firstAnswerMs, firstRequestMs, rss })
        } else {
          // a target that failed or ran out of time once is not started again at this size
          broken.add(target)
          results.failures.push({ target, routes, round, reason: r.reason })
          log(`startup · ${routes} routes · ${target}: ${r.reason}`)
        }
      }
    }
  }
  results.finishedAt = new Date().toISOString()
  results.summaries = summarizeStartup(results)
  return results
}

/** Per size × target: median, min and max of each figure; RSS is the highest round's. */
export function summarizeStartup (results) {
  const out = []
  for (const routes of results.options.routes) {
    for (const target of results.options.targets) {
      const samples = results.samples.filter((s) => s.routes === routes && s.target === target)
      const failure = results.failures.find((f) => f.routes === routes && f.target === target)
      const of = (k) => spread(samples.map((s) => s[k]))
      out.push({ routes, target, rounds: samples.length, failure: failure?.reason ?? null, readyMs: of('readyMs'), firstAnswerMs: of('firstAnswerMs'), firstRequestMs: of('firstRequestMs'), importMs: of('importMs'), rss: of('rss') })
    }
  }
  return out
}

const ms = (v) => (v === null ? '—' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1))
const band = (s) => (s.median === null ? '—' : `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`)

/** The terminal table: one block per size, first answer × Fastify's. */
export function renderStartupTable (results) {
  const blocks = []
  for (const routes of results.options.routes) {
    const list = results.summaries.filter((s) => s.routes === routes)
    const fastify = list.find((s) => s.target === 'fastify')?.firstAnswerMs.median ?? null
    const rows = [['target', 'rounds', 'ready ms (min–max)', 'first answer ms (min–max)', 'first request ms', '× Fastify', 'RSS MiB', 'notes']]
    for (const s of list) {
      if (s.rounds === 0) { rows.push([s.target, '0', '—', '—', '—', '—', '—', s.failure ?? '']); continue }
      const ratio = fastify && s.firstAnswerMs.median !== null ? `${(s.firstAnswerMs.median / fastify).toFixed(2)}×` : '—'
      rows.push([s.target, String(s.rounds), band(s.readyMs), band(s.firstAnswerMs), ms(s.firstRequestMs.median), ratio, (s.rss.max / 1048576).toFixed(0), s.failure ?? ''])
    }
    blocks.push(`${routes.toLocaleString('en-US')} POST routes, each with its own params, body and response schema — from import to ready() and to the first answer\n${renderRows(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'])}`)
  }
  return blocks.join('\n\n')
}

export const STARTUP_CSV_COLUMNS = ['node', 'target', 'routes', 'round', 'import_ms', 'register_ms', 'ready_ms', 'first_answer_ms', 'first_request_ms', 'rss_bytes']

/** One row per process. */
export function renderStartupCsv (results) {
  const rows = [STARTUP_CSV_COLUMNS.join(',')]
  for (const s of results.samples) rows.push([results.env.nodes[0], s.target, s.routes, s.round + 1, s.importMs, s.registerMs, s.readyMs, s.firstAnswerMs, s.firstRequestMs, s.rss].map(csvField).join(','))
  return rows.join('\r\n') + '\r\n'
}

/** <date>-<node>-<host>-startup.json and .csv; no HTML report for this profile. */
export function writeStartupResults (results, dir) {
  fs.mkdirSync(dir, { recursive: true })
  const base = path.join(dir, `${baseName(results)}-startup`)
  const files = { json: `${base}.json`, csv: `${base}.csv` }
  fs.writeFileSync(files.json, JSON.stringify(results, null, 2) + '\n')
  fs.writeFileSync(files.csv, renderStartupCsv(results))
  return files
}
