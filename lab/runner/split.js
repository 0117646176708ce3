// --split: where a server's time goes under load, by whose code runs. Every
// target of the run is started with --cpu-prof, pinned to the server CPU as
// for timing, checked for correct answers, warmed up, then loaded in the
// profile's interleaved rounds by the loader pinned to the other CPU. Only the
// samples taken inside the measured runs count (V8 stamps its samples with
// CLOCK_MONOTONIC in microseconds, the clock of process.hrtime, so the
// runner's own readings cut the profile), and each sample's self time goes
// to one share: the framework's own files, the scenario's plugins (and the
// packages only they load), other packages, generated code, the lab's app,
// node internals, native code, (program), garbage collection or idle. The
// kernel's part is read apart, from /proc utime and stime around each run:
// a profile charges time in a system call to the function that made it.

import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { getTarget } from '../targets/index.js'
import { getScenario } from '../scenarios/index.js'
import { startServer } from './server.js'
import { checkTarget } from './conformance.js'
import { createLoader } from './loaders/index.js'
import { captureEnv } from './env.js'
import { cpuTimes } from './proc.js'
import { choosePinning, rotation, withBaselines, withFloorWork, loadJob } from './run.js'

const LAB = fileURLToPath(new URL('../', import.meta.url))
const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** The shares, in the order the table prints them. `framework` is the target's own package. */
export const SHARES = [
  { id: 'framework', label: 'framework\'s own code' },
  { id: 'plugins', label: 'plugins (and what only they load)' },
  { id: 'dependencies', label: 'other packages' },
  { id: 'generated', label: 'generated code (new Function)' },
  { id: 'application', label: 'the lab\'s app (targets/)' },
  { id: 'node', label: 'node internals (node:*)' },
  { id: 'native', label: 'native (builtins, bindings)' },
  { id: 'program', label: '(program)' },
  { id: 'gc', label: 'garbage collection' }
]

/** The directory a package resolves to from `fromDir` (node_modules upwards), real path; null when absent. */
export function packageDir (name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const json = path.join(dir, 'node_modules', name, 'package.json')
    if (fs.existsSync(json)) return fs.realpathSync(path.dirname(json))
    if (path.dirname(dir) === dir) return null
  }
}

/**
 * The packages `names` load, themselves included: dependencies and optional
 * dependencies, transitively, each resolved from the package that needs it.
 * @param {string[]} names
 * @param {string} fromDir
 * @returns {Set<string>}
 */
export function dependencyClosure (names, fromDir) {
  const seen = new Set()
  const visit = (name, from) => {
    if (seen.has(name)) return
    const dir = packageDir(name, from)
    if (!dir) return
    seen.add(name)
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    for (const dep of Object.keys({ ...json.dependencies, ...json.optionalDependencies })) visit(dep, dir)
  }
  for (const name of names) visit(name, fromDir)
  return seen
}

/** The npm package a file belongs to (the name after its last node_modules/), or null. */
export function packageOf (file) {
  const at = file.lastIndexOf('/node_modules/')
  if (at < 0) return null
  const parts = file.slice(at + '/node_modules/'.length).split('/')
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

/**
 * Sorts a profile's call frames into shares. A package that both the
 * plugins and the framework load (`shared`: the `cookie` parser, a cache) is
 * left to the caller: splitProfile gives it to whoever calls it.
 * @param {{ frameworkDir: string | null, pluginPackages: Set<string>, sharedPackages?: Set<string> }} o
 *   frameworkDir: the target's own package, real path; pluginPackages: the
 *   scenario's plugins and the packages only they load; sharedPackages: the
 *   packages the plugins load that the framework loads too
 * @returns {(frame: { functionName: string, url: string, scriptId: string | number }) => { share: string, pkg: string | null, file: string }}
 */
export function createClassifier ({ frameworkDir, pluginPackages, sharedPackages = new Set() }) {
  const frameworkPrefix = frameworkDir ? frameworkDir.replace(/\/?$/, '/') : null
  return (frame) => {
    const url = frame.url || ''
    if (!url) {
      if (frame.functionName === '(idle)') return { share: 'idle', pkg: null, file: '' }
      if (frame.functionName === '(garbage collector)') return { share: 'gc', pkg: null, file: '' }
      if (frame.functionName === '(program)' || frame.functionName === '(root)') return { share: 'program', pkg: null, file: '' }
      // a script without a URL is code compiled at run time (ajv's validators,
      // fast-json-stringify's serializers); script 0 is V8's and the bindings'
      return { share: Number(frame.scriptId) === 0 ? 'native' : 'generated', pkg: null, file: '' }
    }
    if (url.startsWith('node:')) return { share: 'node', pkg: null, file: url }
    const file = url.startsWith('file://') ? fileURLToPath(url) : url
    if (frameworkPrefix && file.startsWith(frameworkPrefix)) return { share: 'framework', pkg: null, file }
    const pkg = packageOf(file)
    if (pkg) return { share: pluginPackages.has(pkg) ? 'plugins' : sharedPackages.has(pkg) ? 'shared' : 'dependencies', pkg, file }
    return { share: 'application', pkg: null, file }
  }
}

/** The shares that are someone's JavaScript: node internals, native code, (program) and GC are charged to them in the "with callees" view. */
const OWNERS = new Set(['framework', 'plugins', 'dependencies', 'generated', 'application'])

/**
 * The self time of the samples inside `windows`, by share, function and
 * package; and, in `withCallees`, the same time charged to the nearest
 * frame above it that is someone's JavaScript (a socket write to the code
 * that wrote, an HMAC to the JWT library), which is what that code costs.
 * @param {{ nodes: any[], samples: number[], timeDeltas: number[], startTime: number, endTime: number }} profile
 * @param {{ start: number, end: number }[]} windows  µs, CLOCK_MONOTONIC
 * @param {ReturnType<typeof createClassifier>} classify
 */
export function splitProfile (profile, windows, classify) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const parents = new Map()
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id)
  const sorted = new Map()
  const sortNode = (id) => {
    let c = sorted.get(id)
    if (c) return c
    const frame = nodes.get(id).callFrame
    c = { ...classify(frame), frame, owner: '', fn: null, ownerFn: null }
    const parent = parents.get(id)
    const above = parent === undefined || nodes.get(parent).callFrame.functionName === '(root)' ? null : sortNode(parent)
    // a package both sides load is the plugins' when a plugin calls it
    if (c.share === 'shared') c.share = above?.owner === 'plugins' ? 'plugins' : 'dependencies'
    c.fn = functionOf(c)
    const owns = OWNERS.has(c.share) || !above
    c.owner = owns ? c.share : above.owner
    c.ownerFn = owns ? c.fn : above.ownerFn
    sorted.set(id, c)
    return c
  }
  const functions = new Map()
  /** One entry per function (name and place), whichever stacks it was sampled in. */
  const functionOf = (c) => {
    const key = `${c.frame.functionName}\0${c.frame.url}\0${c.frame.lineNumber}\0${c.frame.columnNumber}`
    let f = functions.get(key)
    if (!f) {
      f = { name: c.frame.functionName || '(anonymous)', file: path.isAbsolute(c.file) ? path.relative(REPO, c.file) : c.file, line: c.frame.lineNumber + 1, share: c.share, pkg: c.pkg, us: 0, withCallees: 0 }
      functions.set(key, f)
    }
    return f
  }
  /** @type {Record<string, number>} */
  const shares = { idle: 0 }
  /** @type {Record<string, number>} */
  const withCallees = { idle: 0 }
  for (const s of SHARES) { shares[s.id] = 0; withCallees[s.id] = 0 }
  const packages = new Map()
  const n = profile.samples.length
  const times = new Float64Array(n)
  let t = profile.startTime
  for (let i = 0; i < n; i++) { t += profile.timeDeltas[i]; times[i] = t }
  let samples = 0
  for (let i = 0; i < n; i++) {
    const at = times[i]
    if (!windows.some((w) => at >= w.start && at < w.end)) continue
    // a sample stands for the time until the next one (how DevTools weighs them)
    const us = Math.max(0, (i + 1 < n ? times[i + 1] : profile.endTime) - at)
    const c = sortNode(profile.samples[i])
    samples++
    shares[c.share] += us
    withCallees[c.owner] += us
    if (c.share === 'idle') continue
    c.fn.us += us
    c.ownerFn.withCallees += us
    if (c.pkg) {
      const k = `${c.share}\0${c.pkg}`
      packages.set(k, { share: c.share, pkg: c.pkg, us: (packages.get(k)?.us ?? 0) + us })
    }
  }
  return {
    samples,
    shares,
    withCallees,
    functions: [...functions.values()].filter((f) => f.us > 0 || f.withCallees > 0).sort((a, b) => b.us - a.us),
    packages: [...packages.values()].sort((a, b) => b.us - a.us)
  }
}

/**
 * @param {import('./options.js').Options} opts
 * @param {{ log: (line: string) => void, progress: { start(total: number, seconds: number): void, tick(label: string): void, skip(n: number): void, done(): void } }} io
 */
export async function runSplit (opts, { log, progress }) {
  const pinning = choosePinning(opts.pin)
  const loader = await createLoader(opts.loader, { cpu: pinning.loader })
  const startedAt = new Date()
  const stamp = startedAt.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')
  const profileDir = path.resolve(opts.out, `${stamp}-split`)
  fs.mkdirSync(profileDir, { recursive: true })
  try {
    const env = captureEnv({ loader: { name: loader.name, version: loader.version }, pinning })
    const results = {
      kind: 'split',
      startedAt: startedAt.toISOString(),
      finishedAt: null,
      env: { ...env, nodes: [process.version] },
      options: { profile: opts.profile, targets: opts.targets, baselineHotpath: opts.baselineHotpath, scenarios: opts.scenarios, duration: opts.duration, warmup: opts.warmup, rounds: opts.rounds, connections: opts.connections, loader: opts.loader, interval: opts.profInterval },
      profileDir,
      runs: []
    }
    log(`pinning: ${pinning.note}; loader: ${loader.name} ${loader.version}; CPU profile every ${opts.profInterval} µs; profiles in ${path.relative(process.cwd(), profileDir) || profileDir}`)
    const ticks = opts.rounds + (opts.warmup ? 1 : 0)
    const servers = opts.scenarios.length * withBaselines(opts.targets.map(getTarget), opts.baselineHotpath).length
    progress.start(servers * ticks, servers * (opts.warmup + opts.rounds * opts.duration))
    for (const id of opts.scenarios) {
      results.runs.push(...await splitScenario({ scenario: getScenario(id), opts, loader, pinning, profileDir, log, progress }))
    }
    results.finishedAt = new Date().toISOString()
    results.env.loadAverageAfter = (await import('node:os')).loadavg()
    return results
  } finally {
    progress.done()
    await loader.close()
  }
}

async function splitScenario ({ scenario, opts, loader, pinning, profileDir, log, progress }) {
  const ticks = opts.rounds + (opts.warmup ? 1 : 0)
  // with --baseline-hotpath, each hotpath target's twin on the other package, in the same rounds
  const targets = withFloorWork(withBaselines(opts.targets.map(getTarget), opts.baselineHotpath), opts.floorWork)
  const servers = new Map()
  /** the targets that answered correctly, with their measured windows */
  const live = []
  await Promise.all(targets.map(async (t) => {
    const name = `${t.id}-${scenario.id}.cpuprofile`
    try {
      const srv = await startServer({
        file: t.file,
        env: { ...t.env, LAB_SCENARIO: scenario.id },
        imports: t.imports,
        nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}`, `--cpu-prof-interval=${opts.profInterval}`],
        nodeBin: process.execPath,
        cpu: pinning.server
      })
      servers.set(t.id, { srv, file: path.join(profileDir, name) })
    } catch (err) {
      log(`${scenario.id} · ${t.id}: ${err.unsupported ? 'unsupported' : 'failed to start'} — ${err.message}`)
      progress.skip(ticks)
    }
  }))
  try {
    for (const t of targets) {
      const s = servers.get(t.id)
      if (!s) continue
      const c = await checkTarget({ port: s.srv.port, scenario })
      if (!c.ok) {
        log(`${scenario.id} · ${t.id}: failed conformance — ${c.problems.join('; ')}`)
        progress.skip(ticks)
        continue
      }
      live.push({ t, ...s, windows: [], requests: 0, user: 0, system: 0 })
    }
    /** @param {{ port: number }} srv @param {number} duration */
    const job = (srv, duration) => loadJob(scenario, opts, srv.port, duration)
    if (opts.warmup > 0) {
      for (const { t, srv } of live) {
        progress.tick(`${scenario.id} · ${t.id} · warm-up`)
        await loader.run(job(srv, opts.warmup))
      }
    }
    for (let round = 0; round < opts.rounds; round++) {
      for (const run of rotation(live, round)) {
        progress.tick(`${scenario.id} · ${run.t.id} · round ${round + 1}/${opts.rounds}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
        const before = cpuTimes(run.srv.pid)
        const start = Number(process.hrtime.bigint() / 1000n)
        const result = await loader.run(job(run.srv, opts.duration))
        const end = Number(process.hrtime.bigint() / 1000n)
        const after = cpuTimes(run.srv.pid)
        run.windows.push({ start, end })
        run.requests += result.requests
        if (before && after) { run.user += after.user - before.user; run.system += after.system - before.system }
      }
    }
  } finally {
    // the profile is written at exit: serializing a long one takes a while
    await Promise.all([...servers.values()].map((s) => s.srv.stop(60_000)))
  }
  const runs = []
  for (const run of live) {
    const { t } = run
    if (!fs.existsSync(run.file)) { log(`${scenario.id} · ${t.id}: no profile was written (${run.file})`); continue }
    const frameworkDir = t.env?.LAB_HOTPATH_ENTRY ? fs.realpathSync(/** @type {string} */ (opts.baselineHotpath)) : t.pkg ? packageDir(t.pkg, LAB) : null
    const { pluginPackages, sharedPackages } = pluginPackagesOf(scenario.plugins ?? [], t.pkg)
    const profile = JSON.parse(fs.readFileSync(run.file, 'utf8'))
    const split = splitProfile(profile, run.windows, createClassifier({ frameworkDir, pluginPackages, sharedPackages }))
    const seconds = run.windows.reduce((sum, w) => sum + (w.end - w.start) / 1e6, 0)
    runs.push({
      target: t.id,
      scenario: scenario.id,
      framework: t.pkg,
      frameworkDir: frameworkDir && path.relative(REPO, frameworkDir),
      pluginPackages: [...pluginPackages].sort(),
      sharedPackages: [...sharedPackages].sort(),
      profileFile: run.file,
      windows: run.windows,
      requests: run.requests,
      seconds,
      rps: seconds > 0 ? run.requests / seconds : 0,
      userSeconds: run.user,
      systemSeconds: run.system,
      ...split,
      // the framework's functions all, the others' heaviest
      functions: split.functions.filter((f, i) => i < 200 || f.share === 'framework')
    })
  }
  return runs
}

/**
 * The scenario's plugins and the packages only they load (their dependency
 * closure less the framework's), and the packages both load: those count as
 * the plugins' where a plugin calls them (`cookie` under @fastify/cookie),
 * as other packages where the framework does.
 * @param {string[]} plugins
 * @param {string | null} framework
 */
export function pluginPackagesOf (plugins, framework) {
  const pluginClosure = dependencyClosure(plugins, LAB)
  const frameworkClosure = framework ? dependencyClosure([framework], LAB) : new Set()
  const pluginPackages = new Set()
  const sharedPackages = new Set()
  for (const name of pluginClosure) (frameworkClosure.has(name) ? sharedPackages : pluginPackages).add(name)
  return { pluginPackages, sharedPackages }
}
