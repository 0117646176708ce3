// One benchmark run: for each Node version and scenario, start every target,
// check its answers, warm it up, then time the targets in interleaved rounds
// (rotating the order each round) and collect every raw sample.

import { getTarget, baselineTwin, isHotpathTarget } from '../targets/index.js'
import { getScenario, protocolOf } from '../scenarios/index.js'
import { startServer } from './server.js'
import { checkTarget } from './conformance.js'
import { createLoader } from './loaders/index.js'
import { resolveNodes } from './node-versions.js'
import { captureEnv } from './env.js'
import { allowedCpus } from './proc.js'
import { summarize } from './stats.js'
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { hotpathEntryUrl } from './hotpath-entry.js'

/** Decides the CPUs of server and loader, and says why. */
export function choosePinning (pin, { hasTaskset = tasksetExists(), cpus = allowedCpus() } = {}) {
  if (pin === null) return { server: null, loader: null, enabled: false, note: 'disabled by --no-pin' }
  if (!hasTaskset) return { server: null, loader: null, enabled: false, note: 'taskset not found: server and loader share CPUs, figures are less stable' }
  if (pin !== 'auto') return { ...pin, enabled: true, note: `server on CPU ${pin.server}, loader on CPU ${pin.loader}` }
  if (!cpus || cpus.length < 2) return { server: null, loader: null, enabled: false, note: `only ${cpus ? cpus.length : 'unknown'} CPU(s) allowed: no pinning` }
  return { server: cpus[0], loader: cpus[1], enabled: true, note: `server on CPU ${cpus[0]}, loader on CPU ${cpus[1]}` }
}

function tasksetExists () {
  try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true } catch { return false }
}

/** The round-r order of targets: A B C, then B C A, then C A B. */
export function rotation (ids, round) {
  const k = round % ids.length
  return [...ids.slice(k), ...ids.slice(0, k)]
}

/** A scenario for --cmd: GET the user's path, any 2xx is right. */
function customScenario (url) {
  return { id: 'custom', title: `GET ${url} of your server`, request: { method: 'GET', path: url }, expect: { status: 0 } }
}

/**
 * Figures of one measured run, from the loader's result and the server's
 * counters read before and after.
 */
export function makeSample ({ node, target, scenario, round, result, before, after, peakRss, pinned, traced = false }) {
  const requests = result.requests
  const seconds = result.duration || 0
  const cpu = before.cpu !== null && after.cpu !== null ? after.cpu - before.cpu : null
  const gcMs = before.gcMs !== null && after.gcMs !== null ? after.gcMs - before.gcMs : null
  // spans leave in batches (512, or every 5 s), so a round's count is the
  // batches exported during it: close to its requests' spans, never exact
  const spans = typeof after.counters?.spansExported === 'number' ? after.counters.spansExported - (before.counters?.spansExported ?? 0) : null
  const sample = {
    node,
    target,
    scenario,
    round,
    requests,
    duration: seconds,
    rps: seconds > 0 ? requests / seconds : 0,
    throughput: seconds > 0 ? result.bytes / seconds : 0,
    latency: result.latency,
    // mean and standard deviation, from loaders that report them (h2load, which has no percentiles)
    latencyMean: result.latencyMean ?? null,
    latencySd: result.latencySd ?? null,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerReq: cpu !== null && requests > 0 ? (cpu / requests) * 1e6 : null,
    serverCpu: cpu !== null && seconds > 0 ? cpu / seconds : null,
    loaderCpu: result.loaderCpuSeconds != null && seconds > 0 ? result.loaderCpuSeconds / seconds : null,
    rss: peakRss,
    gcMs,
    gcShare: gcMs !== null && seconds > 0 ? gcMs / (seconds * 1000) : null,
    spansPerReq: spans !== null && requests > 0 ? spans / requests : null,
    flags: []
  }
  if (requests === 0) sample.flags.push('no-requests')
  if (sample.errors + sample.timeouts + sample.non2xx > 0) sample.flags.push('errors')
  // a traced target's figure counts as traced only when spans came out of it
  if (traced && !spans) sample.flags.push('no-spans')
  // With one CPU each, a loader near 100 % and a server well below it means
  // the figure is the loader's ceiling, not the server's.
  if (pinned && sample.loaderCpu !== null && sample.serverCpu !== null && sample.loaderCpu > 0.9 && sample.serverCpu < 0.85) sample.flags.push('loader-bound')
  return sample
}

/**
 * @param {import('./options.js').Options} opts
 * @param {{ log: (line: string) => void, progress: { start(total: number): void, tick(label: string): void, done(): void } }} io
 */
export async function runBench (opts, { log, progress }) {
  const pinning = choosePinning(opts.pin)
  const loader = await createLoader(opts.loader, { cpu: pinning.loader })
  const startedAt = new Date()
  try {
    const nodes = resolveNodes(opts.node, log)
    const env = captureEnv({ loader: { name: loader.name, version: loader.version }, pinning })
    const scenarios = opts.cmd ? [customScenario(opts.url)] : opts.scenarios.map(getScenario)
    const targetList = opts.cmd
      ? [{ id: 'custom', label: opts.cmd, cmd: opts.cmd }]
      : withFloorWork(withBaselines(opts.targets.map((id) => ({ ...getTarget(id) })), opts.baselineHotpath), opts.floorWork)
    const results = {
      schema: 1,
      startedAt: startedAt.toISOString(),
      finishedAt: null,
      env: { ...env, nodes: nodes.map((n) => n.version) },
      options: {
        profile: opts.profile, targets: targetList.map((t) => t.id), scenarios: scenarios.map((s) => s.id), duration: opts.duration,
        warmup: opts.warmup, rounds: opts.rounds, connections: opts.connections, pipelining: opts.pipelining, loader: opts.loader, cmd: opts.cmd, url: opts.cmd ? opts.url : undefined,
        ...(opts.floorWork > 0 ? { floorWork: opts.floorWork } : {})
      },
      scenarios: scenarios.map((s) => ({ id: s.id, title: s.title, protocol: protocolOf(s), pipelining: opts.pipelining ?? s.pipelining ?? 1, baseline: s.baseline ?? 'node-http' })),
      targets: targetList.map((t) => ({ id: t.id, label: t.label, ...(t.untraced ? { untraced: t.untraced } : {}) })),
      status: [],
      samples: [],
      summaries: [],
      goals: opts.goals
    }
    const unspoken = scenarios.filter((s) => !loader.protocols.includes(protocolOf(s)))
    if (unspoken.length) throw new Error(`${loader.name} does not speak ${protocolOf(unspoken[0])}, the protocol of ${unspoken.map((s) => s.id).join(', ')}`)
    log(`pinning: ${pinning.note}; loader: ${loader.name} ${loader.version}; node ${nodes.map((n) => n.version).join(', ')}`)
    const perTarget = opts.warmup + opts.rounds * opts.duration
    progress.start(nodes.length * scenarios.length * targetList.length * (opts.rounds + (opts.warmup ? 1 : 0)), nodes.length * scenarios.length * targetList.length * perTarget)

    for (const node of nodes) {
      for (const scenario of scenarios) {
        await runScenario({ node, scenario, targetList, opts, loader, pinning, results, log, progress })
      }
    }
    results.finishedAt = new Date().toISOString()
    results.env.loadAverageAfter = (await import('node:os')).loadavg()
    results.summaries = summarizeAll(results)
    return results
  } finally {
    progress.done()
    await loader.close()
  }
}

/** Summaries per node × scenario × target, in the run's order. */
export function summarizeAll (results) {
  const out = []
  for (const node of results.env.nodes) {
    for (const s of results.scenarios) {
      for (const t of results.targets) {
        const status = results.status.find((x) => x.node === node && x.scenario === s.id && x.target === t.id)
        const samples = results.samples.filter((x) => x.node === node && x.scenario === s.id && x.target === t.id)
        out.push({ node, scenario: s.id, target: t.id, state: status ? status.state : 'missing', reason: status?.reason ?? null, ...summarize(samples) })
      }
    }
  }
  return out
}

async function runScenario ({ node, scenario, targetList, opts, loader, pinning, results, log, progress }) {
  const ticks = opts.rounds + (opts.warmup ? 1 : 0)
  const setStatus = (target, state, reason = null, extra = {}) => {
    results.status.push({ node: node.version, scenario: scenario.id, target, state, reason, ...extra })
    if (state !== 'timed') log(`${scenario.id} · ${target}: ${state}${reason ? ` — ${reason}` : ''}`)
  }

  // Start every target for this scenario; they idle while others are timed.
  const servers = new Map()
  await Promise.all(targetList.map(async (t) => {
    try {
      const srv = await startServer({ file: t.file, cmd: t.cmd, env: { ...t.env, LAB_SCENARIO: scenario.id }, imports: t.imports, nodeBin: node.bin, cpu: pinning.server })
      servers.set(t.id, srv)
    } catch (err) {
      setStatus(t.id, err.unsupported ? 'unsupported' : 'failed to start', err.message)
      progress.skip(ticks)
    }
  }))

  try {
    // Conformance before any timing: a wrong answer is never timed.
    const live = []
    for (const t of targetList) {
      const srv = servers.get(t.id)
      if (!srv) continue
      const c = await checkTarget({ port: srv.port, scenario })
      if (!c.ok) {
        setStatus(t.id, 'failed conformance', c.problems.join('; '))
        progress.skip(ticks)
        continue
      }
      live.push({ t, srv, headBytes: c.headBytes, bodyBytes: c.bodyBytes })
    }

    /** @param {{ port: number }} srv @param {number} duration */
    const job = (srv, duration) => loadJob(scenario, opts, srv.port, duration)

    const broken = new Map()
    if (opts.warmup > 0) {
      for (const { t, srv } of live) {
        progress.tick(`${scenario.id} · ${t.id} · warm-up`)
        try { await loader.run(job(srv, opts.warmup)) } catch (err) { broken.set(t.id, `warm-up failed: ${err.message}`) }
      }
    }

    for (let round = 0; round < opts.rounds; round++) {
      for (const { t, srv } of rotation(live, round)) {
        progress.tick(`${scenario.id} · ${t.id} · round ${round + 1}/${opts.rounds}`)
        if (broken.has(t.id)) continue
        if (!srv.alive()) { broken.set(t.id, `server exited: ${srv.output().trim().split('\n').slice(-3).join(' | ')}`); continue }
        try {
          await settle()
          const before = await srv.sample()
          srv.resetPeak()
          const result = await loader.run(job(srv, opts.duration))
          const after = await srv.sample()
          const sample = makeSample({ node: node.version, target: t.id, scenario: scenario.id, round, result, before, after, peakRss: srv.peakRss(), pinned: pinning.enabled, traced: Boolean(t.untraced) })
          results.samples.push(sample)
          if (!srv.alive()) broken.set(t.id, 'server exited during the run')
        } catch (err) {
          broken.set(t.id, `run failed: ${err.message}`)
        }
      }
    }
    for (const { t, srv, headBytes, bodyBytes } of live) {
      if (broken.has(t.id)) setStatus(t.id, 'failed during the run', broken.get(t.id))
      else setStatus(t.id, 'timed', null, { headBytes, bodyBytes, ...(t.untraced ? { spansExported: await spansExported(srv) } : {}) })
    }
  } finally {
    await Promise.all([...servers.values()].map((s) => s.stop()))
  }
}

/**
 * The spans a traced server has exported since it started, read before it
 * stops (the last batch, under 512 spans, may still be queued); null when
 * it did not answer.
 * @param {import('./server.js').ServerHandle} srv
 */
async function spansExported (srv) {
  const { counters } = await srv.sample()
  return typeof counters?.spansExported === 'number' ? counters.spansExported : null
}

/** A short pause between runs, so the previous run's sockets are closed and the server is idle. */
function settle () {
  return new Promise((resolve) => setTimeout(resolve, 100))
}

/**
 * The targets, each hotpath one followed by its twin on the package in
 * `dir` (--baseline-hotpath), so both run in the same interleaved rounds.
 * @param {any[]} list
 * @param {string | null | undefined} dir
 */
export function withBaselines (list, dir) {
  if (!dir) return list
  const entry = hotpathEntryUrl(dir)
  return list.flatMap((t) => isHotpathTarget(t.id) ? [t, baselineTwin(t, entry)] : [t])
}

/**
 * --floor-work N: the floor and its steps (net-canned, net-route,
 * net-parsed) run a fixed loop of N iterations on each request, so that
 * they can be timed at the throughput of a slower server: on loopback, the
 * kernel's cost a request grows as a server slows (its client waits idle
 * more often, and is woken more often), which a comparison at different
 * throughputs charges to the slower server's code. Their labels say so.
 * @template {{ label: string, takesWork?: boolean, env?: Record<string, string> }} T
 * @param {T[]} list
 * @param {number} work
 * @returns {T[]}
 */
export function withFloorWork (list, work) {
  if (!(work > 0)) return list
  return list.map((t) => t.takesWork ? { ...t, label: `${t.label}, +${work} loop iterations a request`, env: { ...t.env, LAB_FLOOR_WORK: String(work) } } : t)
}

/**
 * What the loader is asked to send to a server for one timed (or warm-up) run.
 * @param {any} scenario
 * @param {{ connections: number, pipelining: number | null }} opts
 * @param {number} port
 * @param {number} duration  seconds
 */
export function loadJob (scenario, opts, port, duration) {
  return {
    url: `http://127.0.0.1:${port}${scenario.request.path}`,
    method: scenario.request.method,
    headers: scenario.request.headers,
    body: scenario.request.body,
    connections: opts.connections,
    pipelining: opts.pipelining ?? scenario.pipelining ?? 1,
    duration
  }
}
