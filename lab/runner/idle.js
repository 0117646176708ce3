// The `idle` profile: what a kept-alive connection costs a server while it
// waits for the client's next request (not requests per second). A server
// that holds 10,000 such connections holds 10,000 of whatever it keeps per
// connection between requests.
//
// For each round and target (rotating order, one fresh server process each,
// pinned to the server CPU): the target answers `hello` correctly first
// (conformance); a few connections warm it up (its first requests load and
// compile what any request needs) and are let go; the server is left to go
// idle, garbage collection is forced and its memory read (the baseline);
// the client (./idle-client.js, pinned to the loader CPU) opens N keep-alive
// connections and makes one request on each; the server is left to go idle
// again, collected and read again. The growth divided by the connections
// still open is the figure: resident set (what the machine pays), heap used
// (the JavaScript objects a connection keeps), external and arrayBuffers
// (the native memory V8 is told about). Every server runs with
// `--expose-gc` and ./idle-probe.js, which collects and reads the same way
// in every target and holds every server's keep-alive timeout at the
// profile's value, so that no framework's default closes the connections
// while they are opened and measured.

import { spawn, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { choosePinning, rotation } from './run.js'
import { captureEnv } from './env.js'
import { spread } from './stats.js'
import { baseName } from './output.js'
import { startServer } from './server.js'
import { cpuSeconds } from './proc.js'
import { checkTarget } from './conformance.js'
import { getScenario } from '../scenarios/index.js'
import { targets, targetGroups } from '../targets/index.js'
import { csvField } from '../report/csv.js'
import { renderRows } from '../report/table.js'
import { hotpathEntryUrl } from './hotpath-entry.js'

const CLIENT = fileURLToPath(new URL('./idle-client.js', import.meta.url))
const PROBE = fileURLToPath(new URL('./idle-probe.js', import.meta.url))

/**
 * Every HTTP/1.1 target of the lab, after the floor: raw node:net answering
 * the same bytes without parsing HTTP and keeping nothing per connection
 * (targets/net-canned.js).
 * @type {{ id: string, label: string, file: string, env?: Record<string, string> }[]}
 */
export const idleTargets = [
  ...targets.filter((t) => t.id === 'net-canned'),
  ...targets.filter((t) => targetGroups.all.includes(t.id))
]
export const idleTargetIds = idleTargets.map((t) => t.id)

/** Connections opened and let go before the baseline: enough to run each code path, few enough that the memory they leave free weighs nothing on the figure. */
export const WARM_CONNECTIONS = 50
/** File descriptors a process needs besides its connections (stdio, IPC, the listener, node's own). */
const FD_SLACK = 64

/**
 * @typedef {object} IdleOptions
 * @property {string[]} targets
 * @property {number} connections     kept-alive connections per server
 * @property {number} rounds
 * @property {number} concurrency     connections being opened at once
 * @property {number} keepAliveMs     every server's keep-alive timeout during the run
 * @property {string | null} heapSnapshots  a directory for one heap snapshot per target (first round), or null
 * @property {string | null} baselineHotpath  another hotpath package directory, measured on wire as `hotpath-wire-baseline`
 * @property {{ server: number, loader: number } | null | 'auto'} pin
 * @property {string} out
 */

export class IdleSetupError extends Error {}

/**
 * The soft and hard limits on open files of this process (and of the
 * processes it starts, which inherit them); Infinity for unlimited.
 */
export function fdLimits () {
  try {
    const [soft, hard] = execFileSync('sh', ['-c', 'ulimit -Sn; ulimit -Hn'], { encoding: 'utf8' }).trim().split('\n')
    const n = (/** @type {string} */ s) => (s.trim() === 'unlimited' ? Infinity : Number(s))
    return { soft: n(soft), hard: n(hard) }
  } catch {
    return { soft: NaN, hard: NaN }
  }
}

/**
 * How server and client get the file descriptors `connections` take: as
 * they are, under a raised soft limit (through `sh -c 'ulimit -S -n'`), or
 * not at all, which is an error that says what to do.
 * @param {number} connections
 * @param {{ soft: number, hard: number }} limits
 * @returns {{ need: number, launcher: string[], note: string }}
 */
export function fdPlan (connections, limits) {
  const need = connections + FD_SLACK
  if (!(limits.soft >= 0)) return { need, launcher: [], note: `open-file limit unknown; ${need} needed per process` }
  if (limits.soft >= need) return { need, launcher: [], note: `open-file limit ${limits.soft} (ulimit -n), ${need} needed per process` }
  if (limits.hard >= need) {
    return {
      need,
      launcher: ['sh', '-c', `ulimit -S -n ${need} && exec "$@"`, 'sh'],
      note: `open-file limit raised from ${limits.soft} to ${need} for server and client (ulimit -S -n; hard limit ${limits.hard})`
    }
  }
  throw new IdleSetupError(`--connections ${connections} needs ${need} open files in the server and in the client, ` +
    `and this shell allows at most ${limits.hard} (ulimit -Hn). Raise the hard limit (as root: ulimit -n ${need}, ` +
    `or nofile in /etc/security/limits.conf) or pass --connections ${Math.max(1, limits.hard - FD_SLACK)} or fewer.`)
}

/** The local ports a client may connect from (Linux), or null. */
function localPorts () {
  try {
    const [lo, hi] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    return hi - lo + 1
  } catch { return null }
}

/**
 * The client process, and a way to ask it things over IPC.
 * @param {{ cpu: number | null, launcher: string[] }} o
 */
function startClient ({ cpu, launcher }) {
  let argv = [process.execPath, CLIENT]
  if (cpu !== null) argv = ['taskset', '-c', String(cpu), ...argv]
  argv = [...launcher, ...argv]
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  let err = ''
  child.stderr?.on('data', (d) => { err = (err + d).slice(-2000) })
  let seq = 0
  /** @type {Map<number, (msg: any) => void>} */
  const pending = new Map()
  child.on('message', (/** @type {any} */ msg) => {
    if (msg && pending.has(msg.id)) { /** @type {(m: any) => void} */ (pending.get(msg.id))(msg); pending.delete(msg.id) }
  })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => {
    for (const done of pending.values()) done(null)
    pending.clear()
    resolve({ code, signal })
  }))
  const ready = new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('error', reject)
    exited.then(() => reject(new Error(`the idle client exited: ${err.trim().split('\n').slice(-2).join(' | ')}`)))
  })
  return {
    ready,
    /**
     * @param {{ type: string } & Record<string, any>} msg
     * @param {number} timeoutMs
     * @returns {Promise<any>}
     */
    ask (msg, timeoutMs) {
      return new Promise((resolve) => {
        if (!child.connected) return resolve(null)
        const id = ++seq
        const timer = setTimeout(() => { pending.delete(id); resolve(null) }, timeoutMs)
        pending.set(id, (answer) => { clearTimeout(timer); resolve(answer) })
        child.send({ ...msg, id })
      })
    },
    async close () {
      if (child.exitCode !== null || child.signalCode !== null) return
      if (child.connected) child.send({ type: 'close' })
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
  }
}

/**
 * Waits until the server has used (almost) no CPU for three polls in a row:
 * the answers are out, and what the connections' arrival set going (lazy
 * compilation, the JIT, timers) has settled.
 * @param {number} pid
 * @param {number} maxMs
 * @returns {Promise<boolean>} false when it was still busy at maxMs
 */
export async function untilIdle (pid, maxMs = 10_000) {
  const started = Date.now()
  let last = cpuSeconds(pid)?.self ?? null
  let quiet = 0
  await sleep(300)
  while (Date.now() - started < maxMs) {
    await sleep(100)
    const now = cpuSeconds(pid)?.self ?? null
    // without /proc, the fixed wait has to do
    if (now === null || last === null) return true
    quiet = now - last < 0.002 ? quiet + 1 : 0
    last = now
    if (quiet >= 3) return true
  }
  return false
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * One server process: its figures, or why it gave none.
 * @param {{ target: typeof idleTargets[number], round: number, opts: IdleOptions, pinning: any, launcher: string[], client: ReturnType<typeof startClient> }} o
 */
async function measureOne ({ target, round, opts, pinning, launcher, client }) {
  const scenario = getScenario('hello')
  let srv
  try {
    srv = await startServer({ file: target.file, env: { ...target.env, LAB_SCENARIO: 'hello' }, nodeArgs: ['--expose-gc'], imports: [PROBE], launcher, nodeBin: process.execPath, cpu: pinning.server })
  } catch (err) {
    return { ok: false, reason: `${/** @type {any} */ (err).unsupported ? 'unsupported' : 'failed to start'}: ${/** @type {Error} */ (err).message}` }
  }
  try {
    const c = await checkTarget({ port: srv.port, scenario })
    if (!c.ok) return { ok: false, reason: `failed conformance: ${c.problems.join('; ')}` }
    const keepAlive = await srv.ask({ type: 'lab:keep-alive', ms: opts.keepAliveMs }, 10_000)
    if (keepAlive === null) return { ok: false, reason: 'the server did not answer the probe (started without it?)' }
    const open = (/** @type {number} */ count) => client.ask({ type: 'open', port: srv.port, count, concurrency: opts.concurrency, request: scenario.request, expect: scenario.expect }, 600_000)
    const warm = await open(Math.min(WARM_CONNECTIONS, opts.connections))
    if (warm === null || warm.failed > 0) return { ok: false, reason: `warm-up failed: ${warm === null ? 'no answer from the client' : warm.problems.join('; ')}` }
    await client.ask({ type: 'release' }, 30_000)
    /** @type {string[]} */
    const flags = []
    if (!await untilIdle(srv.pid)) flags.push('busy-before')
    const before = await srv.ask({ type: 'lab:memory' }, 60_000)
    if (before === null || !before.collected) return { ok: false, reason: 'no memory reading before (is --expose-gc refused?)' }
    const opened = await open(opts.connections)
    if (opened === null) return { ok: false, reason: 'the client did not finish opening the connections' }
    if (!await untilIdle(srv.pid)) flags.push('busy-after')
    const after = await srv.ask({ type: 'lab:memory' }, 120_000)
    const count = await client.ask({ type: 'count' }, 30_000)
    if (after === null || count === null) return { ok: false, reason: 'no memory reading after the connections' }
    const held = count.open
    if (opened.failed > 0) flags.push('failed')
    if (held < opened.ok) flags.push('closed')
    if (held === 0) return { ok: false, reason: `no connection stayed open (${opened.problems.join('; ') || 'closed by the server'})` }
    let snapshot = null
    if (opts.heapSnapshots !== null && round === 0) {
      fs.mkdirSync(opts.heapSnapshots, { recursive: true })
      const r = await srv.ask({ type: 'lab:snapshot', file: path.resolve(opts.heapSnapshots, `${target.id}-${held}.heapsnapshot`) }, 600_000)
      snapshot = r?.file ?? null
    }
    const per = (/** @type {string} */ k) => (after[k] - before[k]) / held
    return {
      ok: true,
      sample: {
        target: target.id,
        round,
        connections: opts.connections,
        opened: opened.ok,
        failed: opened.failed,
        problems: opened.problems,
        held,
        openMs: opened.ms,
        keepAliveSet: keepAlive.set,
        before: pick(before),
        after: pick(after),
        // the figure: the resident set less V8's young generation (see
        // ./idle-probe.js), which is the old generation's resident pages
        // plus everything outside V8's heap
        rssPerConn: per('rss') - per('youngPhysical'),
        heapUsedPerConn: per('heapUsed'),
        oldHeapPerConn: per('heapPhysical') - per('youngPhysical'),
        outsideHeapPerConn: per('rss') - per('heapPhysical'),
        youngPerConn: per('youngPhysical'),
        rawRssPerConn: per('rss'),
        externalPerConn: per('external'),
        arrayBuffersPerConn: per('arrayBuffers'),
        snapshot,
        flags
      }
    }
  } finally {
    // the client's resets first, while the server still holds its ends
    // (a reset of a connection its server already closed can keep the
    // client's descriptor open on Node 20)
    await client.ask({ type: 'release' }, 30_000)
    await srv.stop()
  }
}

/** @param {any} m */
const pick = (m) => ({ rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, heapPhysical: m.heapPhysical, youngPhysical: m.youngPhysical, external: m.external, arrayBuffers: m.arrayBuffers })

/**
 * @param {IdleOptions} opts
 * @param {{ log: (line: string) => void }} io
 */
export async function runIdle (opts, { log }) {
  const fd = fdPlan(opts.connections, fdLimits())
  const ports = localPorts()
  if (ports !== null && opts.connections > ports) throw new IdleSetupError(`--connections ${opts.connections} is more than the ${ports} local ports a client may connect from (/proc/sys/net/ipv4/ip_local_port_range)`)
  const pinning = choosePinning(opts.pin)
  const startedAt = new Date()
  const env = captureEnv({ loader: { name: 'idle-client', version: '' }, pinning })
  const list = [...idleTargets]
  const ids = [...opts.targets]
  if (opts.baselineHotpath !== null) {
    const entry = hotpathEntryUrl(opts.baselineHotpath)
    const wire = /** @type {typeof idleTargets[number]} */ (idleTargets.find((t) => t.id === 'hotpath-wire'))
    list.push({ ...wire, id: 'hotpath-wire-baseline', label: `hotpath (wire) from ${opts.baselineHotpath}`, env: { ...wire.env, LAB_HOTPATH_ENTRY: entry } })
    const at = ids.indexOf('hotpath-wire')
    ids.splice(at === -1 ? ids.length : at + 1, 0, 'hotpath-wire-baseline')
  }
  const results = {
    schema: 1,
    kind: 'idle',
    startedAt: startedAt.toISOString(),
    finishedAt: /** @type {string | null} */ (null),
    env: { ...env, nodes: [process.version], fd: fd.note },
    options: { profile: 'idle', targets: ids, baselineHotpath: opts.baselineHotpath, connections: opts.connections, rounds: opts.rounds, concurrency: opts.concurrency, keepAliveMs: opts.keepAliveMs, warmConnections: Math.min(WARM_CONNECTIONS, opts.connections) },
    samples: /** @type {any[]} */ ([]),
    failures: /** @type {any[]} */ ([]),
    summaries: /** @type {any[]} */ ([])
  }
  log(`pinning: ${pinning.note}; node ${process.version}; ${fd.note}`)
  const client = startClient({ cpu: pinning.loader, launcher: fd.launcher })
  try {
    await client.ready
    /** @type {Set<string>} */
    const broken = new Set()
    for (let round = 0; round < opts.rounds; round++) {
      for (const id of rotation(ids, round)) {
        if (broken.has(id)) continue
        const target = /** @type {typeof idleTargets[number]} */ (list.find((t) => t.id === id))
        log(`idle · ${id} · round ${round + 1}/${opts.rounds} · ${opts.connections.toLocaleString('en-US')} connections`)
        const r = await measureOne({ target, round, opts, pinning, launcher: fd.launcher, client })
        if (r.ok) {
          results.samples.push(r.sample)
          if (r.sample.flags.length) log(`idle · ${id}: ${r.sample.flags.join(', ')}${r.sample.problems.length ? ` (${r.sample.problems.join('; ')})` : ''}`)
        } else {
          // a target that failed once is not started again
          broken.add(id)
          results.failures.push({ target: id, round, reason: r.reason })
          log(`idle · ${id}: ${r.reason}`)
        }
      }
    }
  } finally {
    await client.close()
  }
  results.finishedAt = new Date().toISOString()
  results.summaries = summarizeIdle(results)
  return results
}

/** Per target: median, min and max of each per-connection figure. */
export function summarizeIdle (results) {
  return results.options.targets.map((/** @type {string} */ target) => {
    const samples = results.samples.filter((/** @type {any} */ s) => s.target === target)
    const failure = results.failures.find((/** @type {any} */ f) => f.target === target)
    const of = (/** @type {string} */ k) => spread(samples.map((/** @type {any} */ s) => s[k]))
    return {
      target,
      rounds: samples.length,
      failure: failure?.reason ?? null,
      flags: [...new Set(samples.flatMap((/** @type {any} */ s) => s.flags))],
      held: spread(samples.map((/** @type {any} */ s) => s.held)),
      rssPerConn: of('rssPerConn'),
      heapUsedPerConn: of('heapUsedPerConn'),
      oldHeapPerConn: of('oldHeapPerConn'),
      outsideHeapPerConn: of('outsideHeapPerConn'),
      youngPerConn: of('youngPerConn'),
      rawRssPerConn: of('rawRssPerConn'),
      externalPerConn: of('externalPerConn'),
      arrayBuffersPerConn: of('arrayBuffersPerConn'),
      rssBefore: spread(samples.map((/** @type {any} */ s) => s.before.rss))
    }
  })
}

const bytes = (/** @type {number | null} */ v) => (v === null ? '—' : Math.round(v).toLocaleString('en-US'))
const band = (/** @type {{ median: number | null, min: number | null, max: number | null }} */ s) =>
  (s.median === null ? '—' : `${bytes(s.median)} (${bytes(s.min)}–${bytes(s.max)})`)

/** The terminal table: bytes per idle connection, × node:http. */
export function renderIdleTable (results) {
  const base = results.summaries.find((/** @type {any} */ s) => s.target === 'node-http')?.rssPerConn.median ?? null
  const rows = [['target', 'rounds', 'RSS B/conn (min–max)', '× node:http', 'heap used B/conn (min–max)', 'V8 heap resident', 'outside V8 heap', 'RSS before MiB', 'notes']]
  for (const s of results.summaries) {
    if (s.rounds === 0) { rows.push([s.target, '0', '—', '—', '—', '—', '—', '—', s.failure ?? '']); continue }
    const ratio = base && s.rssPerConn.median !== null ? `${(s.rssPerConn.median / base).toFixed(2)}×` : '—'
    const notes = [...s.flags, ...(s.failure ? [s.failure] : [])].join('; ')
    rows.push([s.target, String(s.rounds), band(s.rssPerConn), ratio, band(s.heapUsedPerConn), bytes(s.oldHeapPerConn.median), bytes(s.outsideHeapPerConn.median),
      ((s.rssBefore.median ?? 0) / 1048576).toFixed(1), notes])
  }
  const n = results.options.connections.toLocaleString('en-US')
  return `${n} idle keep-alive connections, each after one GET / (hello), garbage collection forced — growth per connection held open, in bytes\n` +
    'RSS: the resident set less V8\'s young generation (empty after the collection; V8 gives its pages back 10-20 s after the process goes idle),\n' +
    'that is the V8 heap\'s resident pages (old generation) plus what is outside the V8 heap (the sockets\' native side, libuv, malloc)\n' +
    renderRows(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'])
}

export const IDLE_CSV_COLUMNS = ['node', 'target', 'round', 'connections', 'held', 'failed', 'open_ms',
  'rss_before', 'rss_after', 'heap_used_before', 'heap_used_after', 'heap_physical_before', 'heap_physical_after', 'young_physical_before', 'young_physical_after',
  'external_before', 'external_after', 'array_buffers_before', 'array_buffers_after',
  'rss_per_conn', 'heap_used_per_conn', 'old_heap_per_conn', 'outside_heap_per_conn', 'young_per_conn', 'raw_rss_per_conn', 'external_per_conn', 'array_buffers_per_conn', 'flags']

/** One row per server process. */
export function renderIdleCsv (results) {
  const rows = [IDLE_CSV_COLUMNS.join(',')]
  const f = (/** @type {number} */ v) => v.toFixed(1)
  for (const s of results.samples) {
    const b = s.before
    const a = s.after
    rows.push([results.env.nodes[0], s.target, s.round + 1, s.connections, s.held, s.failed, s.openMs,
      b.rss, a.rss, b.heapUsed, a.heapUsed, b.heapPhysical, a.heapPhysical, b.youngPhysical, a.youngPhysical,
      b.external, a.external, b.arrayBuffers, a.arrayBuffers,
      f(s.rssPerConn), f(s.heapUsedPerConn), f(s.oldHeapPerConn), f(s.outsideHeapPerConn), f(s.youngPerConn), f(s.rawRssPerConn), f(s.externalPerConn), f(s.arrayBuffersPerConn),
      s.flags.join(' ')].map(csvField).join(','))
  }
  return rows.join('\r\n') + '\r\n'
}

/** <date>-<node>-<host>-idle.json and .csv; no HTML report for this profile. */
export function writeIdleResults (results, dir) {
  fs.mkdirSync(dir, { recursive: true })
  const base = path.join(dir, `${baseName(results)}-idle`)
  const files = { json: `${base}.json`, csv: `${base}.csv` }
  fs.writeFileSync(files.json, JSON.stringify(results, null, 2) + '\n')
  fs.writeFileSync(files.csv, renderIdleCsv(results))
  return files
}
