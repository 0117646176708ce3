// Command-line options of `npm run bench`: parsing, defaults from a profile,
// validation (a bad option is an error message, never a half-run), and --help.

import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { targetIds, targetGroups, isHotpathTarget } from '../targets/index.js'
import { scenarioIds, scenarioGroups, getScenario, protocolOf } from '../scenarios/index.js'
import { profiles } from './profiles.js'
import { wrkVersion } from './loaders/wrk.js'
import { loaderProtocols } from './loaders/index.js'
import { startupTargetIds } from './startup.js'
import { idleTargetIds } from './idle.js'

export const DEFAULT_OUT = fileURLToPath(new URL('../results/', import.meta.url))

const spec = {
  profile: { type: 'string' },
  targets: { type: 'string' },
  scenarios: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  rounds: { type: 'string' },
  connections: { type: 'string' },
  pipelining: { type: 'string' },
  node: { type: 'string' },
  loader: { type: 'string' },
  out: { type: 'string' },
  compare: { type: 'boolean' },
  cmd: { type: 'string' },
  url: { type: 'string' },
  pin: { type: 'string' },
  'no-pin': { type: 'boolean' },
  'no-html': { type: 'boolean' },
  list: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  routes: { type: 'string' },
  'baseline-hotpath': { type: 'string' },
  timeout: { type: 'string' },
  split: { type: 'boolean' },
  top: { type: 'string' },
  'prof-interval': { type: 'string' },
  'floor-work': { type: 'string' },
  'heap-snapshots': { type: 'string' }
}

export const HELP = `Usage: npm run bench -- [options]

Measures hotpath against raw node:http and its peers on this machine. Every
target is checked for correct answers first, then timed in interleaved rounds
with the server and the load generator pinned to different CPUs.

Options
  --profile NAME       ${Object.entries(profiles).map(([k, p]) => `${k}: ${p.description}`).join('\n                       ')}
                       (default: default). Options below override it.
  --targets LIST       comma-separated target ids, or "all" (every target without tracing),
                       "hotpath" (both engines), "otel" (the targets with OpenTelemetry)
                       or "h2" (the HTTP/2 servers)
                       ${targetIds.join(', ')}
  --scenarios LIST     comma-separated scenario ids, or "all" (every HTTP/1.1 scenario)
                       ${scenarioIds.join(', ')}
  --duration S         seconds per measured run (whole seconds)
  --warmup S           seconds of discarded warm-up per target and scenario (0: none)
  --rounds N           measured rounds per target and scenario, interleaved
  --connections N      concurrent connections (default: the profile's, else 100)
  --pipelining N       requests in flight per connection (default: the scenario's, 1 or 10);
                       over HTTP/2, concurrent streams per connection
  --loader NAME        autocannon (default, from npm) or wrk (when on the PATH) for
                       HTTP/1.1; h2load (nghttp2-client, on the PATH) for HTTP/2
  --node LIST          Node majors to run the servers on, e.g. 20,22,24; each binary is
                       installed once from npm (node-<os>-<arch>@<major>) into lab/.cache
  --pin S:L            server CPU and loader CPU (default: the first two allowed CPUs)
  --no-pin             do not pin with taskset
  --out DIR            where the JSON, CSV and HTML go (default lab/results/)
  --no-html            skip the HTML report
  --cmd 'COMMAND'      benchmark your own server: COMMAND gets PORT and HOST in its
                       environment; --url /path is requested (GET, any 2xx counts)
  --url /PATH          the path for --cmd (default /)
  --baseline-hotpath DIR
                       also time the hotpath package in DIR (packages/hotpath of another
                       checkout, its dependencies installed): each hotpath target gets a
                       twin, <id>-baseline, in the same interleaved rounds
  --compare A.json B.json
                       print the change from run A to run B per scenario and target,
                       with the noise band (min-max around the median) of each side
  --list               list targets and scenarios
  --split              profile instead of timing: each target runs with --cpu-prof under the
                       same load (pinned, warmed up, interleaved rounds), and the report splits
                       the main thread's self time into the framework's own code, the
                       scenario's plugins, other packages, node internals, native code, GC and
                       idle, with the kernel's part from /proc, side by side per target
  --top N              with --split: how many of the framework's functions to list (default 15)
  --prof-interval US   with --split: microseconds between samples (default 1000, V8's own; shorter slows the server)
  --floor-work N       net-canned, net-route and net-parsed run a loop of N iterations on each request (about
                       6 ns each on the 2-core reference VM), to time them at a slower server's
                       throughput: the kernel's cost a request grows as a server slows

Startup profile (--profile startup: start-up time per process, not req/s)
  --targets LIST       ${startupTargetIds.join(', ')}
  --routes LIST        app sizes in routes, e.g. 100,1000,10000
  --rounds N           processes per target and size, alternating (10,000 routes: 1)
  --timeout S          seconds one process may take (default 120)
  --baseline-hotpath DIR
                       also time the hotpath package in DIR (packages/hotpath of another
                       checkout, its dependencies installed) as target hotpath-baseline

Idle profile (--profile idle: memory per idle keep-alive connection, not req/s)
  --targets LIST       ${idleTargetIds.join(', ')}
                       ("all": every one; net-canned is raw node:net, the floor of any Node server)
  --connections N      keep-alive connections held open per server (default 10000); the
                       server and the client each need N + 64 open files: the soft limit is
                       raised up to the hard one (ulimit -Hn), else the run says so and stops
  --rounds N           server processes per target, alternating (default 3)
  --heap-snapshots DIR write a heap snapshot of each server with its connections open
                       (first round; 20 to 60 MB each at 10,000 connections)
  --baseline-hotpath DIR
                       also measure the hotpath package in DIR (packages/hotpath of another
                       checkout, its dependencies installed) on wire, as hotpath-wire-baseline
  -h, --help           this text

Examples
  npm run bench
  npm run bench -- --targets node-http,fastify,hotpath --scenarios hello,json-post --rounds 5
  npm run bench -- --profile wire --loader wrk
  npm run bench -- --profile h2
  npm run bench -- --cmd 'node my-server.js' --url /health --duration 5
  npm run bench -- --compare lab/results/main.json lab/results/branch.json
  npm run bench -- --profile plugins --split --targets hotpath-wire,fastify
  npm run bench -- --profile startup --routes 1000 --targets hotpath,fastify
  npm run bench -- --profile idle --targets node-http,hotpath-wire,fastify --connections 5000
`

function int (name, value, min, max) {
  const n = Number(value)
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`)
  return n
}

function list (name, value, known, groups = {}) {
  const out = []
  for (const raw of String(value).split(',').map((s) => s.trim()).filter(Boolean)) {
    if (raw === 'all') out.push(...(groups.all ?? known))
    else if (groups[raw]) out.push(...groups[raw])
    else if (known.includes(raw)) out.push(raw)
    else throw new UsageError(`unknown ${name.replace(/s$/, '')} "${raw}" (known: ${known.join(', ')})`)
  }
  if (out.length === 0) throw new UsageError(`--${name} is empty`)
  return [...new Set(out)]
}

export class UsageError extends Error {}

/**
 * @typedef {object} Options
 * @property {'run' | 'help' | 'list' | 'compare' | 'startup' | 'split' | 'idle'} mode
 * @property {string} profile
 * @property {string[]} targets
 * @property {string[]} scenarios
 * @property {number} duration
 * @property {number} warmup
 * @property {number} rounds
 * @property {number} connections
 * @property {number | null} pipelining
 * @property {string[] | null} node      majors, or null for the running Node
 * @property {'autocannon' | 'wrk' | 'h2load'} loader
 * @property {{ server: number, loader: number } | null | 'auto'} pin
 * @property {string} out
 * @property {boolean} html
 * @property {string | null} cmd
 * @property {string} url
 * @property {string[]} files            --compare inputs
 * @property {string | null} baselineHotpath  another hotpath package directory, timed as the hotpath targets' -baseline twins
 * @property {import('./profiles.js').Goal[]} goals
 * @property {import('./startup.js').StartupOptions} [startup]  the startup profile's options
 * @property {number} top                --split: the framework's functions listed
 * @property {number} profInterval       --split: µs between CPU profile samples
 * @property {number} floorWork          loop iterations the floor and its steps run on each request (0: none)
 * @property {import('./idle.js').IdleOptions} [idle]  the idle profile's options
 */

/**
 * @param {string[]} argv
 * @returns {Options}
 */
export function parseOptions (argv) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: spec, allowPositionals: true, strict: true })
  } catch (err) {
    throw new UsageError(err.message)
  }
  const v = parsed.values
  const profileName = v.profile ?? 'default'
  const profile = profiles[profileName]
  if (!profile) throw new UsageError(`unknown profile "${profileName}" (known: ${Object.keys(profiles).join(', ')})`)

  const base = { profile: profileName, files: [], goals: profile.goals || [] }
  // (the startup and idle profiles name targets of their own: help, list and compare take the default's)
  const usual = profile.mode === 'startup' || profile.mode === 'idle' ? profiles.default : profile
  if (v.help) return /** @type {Options} */ ({ ...defaults(usual), ...base, mode: 'help' })
  if (v.list) return /** @type {Options} */ ({ ...defaults(usual), ...base, mode: 'list' })
  if (v.compare) {
    if (parsed.positionals.length !== 2) throw new UsageError('--compare takes two results files: --compare A.json B.json')
    return /** @type {Options} */ ({ ...defaults(usual), ...base, mode: 'compare', files: parsed.positionals })
  }
  if (parsed.positionals.length) throw new UsageError(`unexpected argument "${parsed.positionals[0]}"`)
  if ((profile.mode === 'startup' || profile.mode === 'idle') && v['floor-work'] !== undefined) throw new UsageError(`--floor-work does not apply to --profile ${profileName}`)
  if (profile.mode === 'startup') {
    if (v.split) throw new UsageError('--split does not apply to --profile startup')
    if (v['heap-snapshots'] !== undefined) throw new UsageError('--heap-snapshots goes with --profile idle')
    return startupOptions(v, profile, base)
  }
  if (profile.mode === 'idle') {
    if (v.split) throw new UsageError('--split does not apply to --profile idle')
    return idleOptions(v, profile, base)
  }
  if (!v.split) for (const name of ['top', 'prof-interval']) if (v[name] !== undefined) throw new UsageError(`--${name} goes with --split`)
  for (const name of ['routes', 'timeout']) if (v[name] !== undefined) throw new UsageError(`--${name} goes with --profile startup`)
  if (v['heap-snapshots'] !== undefined) throw new UsageError('--heap-snapshots goes with --profile idle')

  const o = { ...defaults(profile), ...base, mode: /** @type {'run' | 'split'} */ (v.split ? 'split' : 'run') }
  if (v.top !== undefined) o.top = int('top', v.top, 1, 1000)
  if (v['prof-interval'] !== undefined) o.profInterval = int('prof-interval', v['prof-interval'], 10, 100000)
  if (v['floor-work'] !== undefined) o.floorWork = int('floor-work', v['floor-work'], 0, 1000000)
  if (v.targets !== undefined) o.targets = list('targets', v.targets, targetIds, targetGroups)
  if (v.scenarios !== undefined) o.scenarios = list('scenarios', v.scenarios, scenarioIds, scenarioGroups)
  if (v.duration !== undefined) o.duration = int('duration', v.duration, 1, 3600)
  if (v.warmup !== undefined) o.warmup = int('warmup', v.warmup, 0, 3600)
  if (v.rounds !== undefined) o.rounds = int('rounds', v.rounds, 1, 100)
  if (v.connections !== undefined) o.connections = int('connections', v.connections, 1, 10000)
  if (v.pipelining !== undefined) o.pipelining = int('pipelining', v.pipelining, 1, 1000)
  if (v.loader !== undefined) {
    if (!Object.hasOwn(loaderProtocols, v.loader)) throw new UsageError(`--loader must be autocannon, wrk or h2load, got "${v.loader}"`)
    o.loader = /** @type {Options['loader']} */ (v.loader)
  }
  if (v.node !== undefined) {
    o.node = String(v.node).split(',').map((s) => s.trim().replace(/^v/, '')).filter(Boolean)
    for (const m of o.node) if (!/^\d+$/.test(m)) throw new UsageError(`--node takes Node major versions such as 20,22,24, got "${m}"`)
    if (o.node.length === 0) throw new UsageError('--node is empty')
  }
  if (v['no-pin']) o.pin = null
  if (v.pin !== undefined) {
    if (v['no-pin']) throw new UsageError('--pin and --no-pin contradict each other')
    const m = /^(\d+):(\d+)$/.exec(v.pin)
    if (!m || m[1] === m[2]) throw new UsageError(`--pin takes two different CPU numbers as SERVER:LOADER, e.g. 0:1, got "${v.pin}"`)
    o.pin = { server: Number(m[1]), loader: Number(m[2]) }
  }
  if (v['baseline-hotpath'] !== undefined) {
    if (!o.targets.some(isHotpathTarget)) throw new UsageError('--baseline-hotpath goes with a hotpath target')
    o.baselineHotpath = v['baseline-hotpath']
  }
  if (v.out !== undefined) o.out = v.out
  if (v['no-html']) o.html = false
  if (v.url !== undefined && v.cmd === undefined) throw new UsageError('--url goes with --cmd')
  if (v.cmd !== undefined) {
    if (!v.cmd.trim()) throw new UsageError('--cmd is empty')
    if (v.targets !== undefined || v.scenarios !== undefined) throw new UsageError('--cmd measures your server alone: leave out --targets and --scenarios')
    if (v.split) throw new UsageError('--split profiles the lab\'s targets, not --cmd')
    o.cmd = v.cmd
    o.url = v.url ?? '/'
    if (!o.url.startsWith('/')) throw new UsageError(`--url must start with "/", got "${o.url}"`)
    o.targets = ['custom']
    o.scenarios = ['custom']
    o.goals = []
  }
  // a loader times only the protocol it speaks: say so now, not mid-run
  const speaks = loaderProtocols[o.loader]
  if (!o.cmd) {
    for (const id of o.scenarios) {
      const protocol = protocolOf(getScenario(id))
      if (!speaks.includes(protocol)) {
        throw new UsageError(protocol === 'h2'
          ? `scenario "${id}" is HTTP/2: it needs --loader h2load (the h2 profile), not ${o.loader}`
          : `scenario "${id}" is HTTP/1.1: --loader ${o.loader} times HTTP/2 only; use autocannon or wrk`)
      }
    }
  } else if (!speaks.includes('h1')) {
    throw new UsageError(`--cmd is checked over HTTP/1.1: --loader ${o.loader} times HTTP/2 only`)
  }
  return o
}

/**
 * The startup profile's options: its own targets (targets/startup.js),
 * sizes and rounds; the options of the req/s profiles do not apply.
 * @param {Record<string, any>} v
 * @param {any} profile
 * @param {{ profile: string, files: string[], goals: any[] }} base
 * @returns {Options}
 */
function startupOptions (v, profile, base) {
  for (const name of ['scenarios', 'duration', 'warmup', 'connections', 'pipelining', 'node', 'loader', 'cmd', 'url', 'compare']) {
    if (v[name] !== undefined) throw new UsageError(`--${name} does not apply to --profile startup`)
  }
  /** @type {import('./startup.js').StartupOptions} */
  const startup = {
    targets: list('targets', v.targets ?? profile.targets.join(','), startupTargetIds),
    routes: v.routes === undefined ? profile.routes : String(v.routes).split(',').map((x) => int('routes', x.trim(), 1, 100000)),
    rounds: v.rounds === undefined ? profile.rounds : int('rounds', v.rounds, 1, 100),
    roundsBySize: v.rounds === undefined ? profile.roundsBySize : {},
    timeout: v.timeout === undefined ? profile.timeout : int('timeout', v.timeout, 1, 3600),
    baselineHotpath: v['baseline-hotpath'] ?? null,
    pin: 'auto',
    out: v.out ?? DEFAULT_OUT
  }
  if (v['no-pin']) startup.pin = null
  if (v.pin !== undefined) {
    const m = /^(\d+):(\d+)$/.exec(v.pin)
    if (!m || m[1] === m[2] || v['no-pin']) throw new UsageError(`--pin takes two different CPU numbers as SERVER:LOADER, e.g. 0:1, got "${v.pin}"`)
    startup.pin = { server: Number(m[1]), loader: Number(m[2]) }
  }
  if (startup.baselineHotpath !== null && !startup.targets.includes('hotpath')) throw new UsageError('--baseline-hotpath goes with the hotpath target')
  return /** @type {Options} */ ({ ...defaults(profiles.default), ...base, mode: 'startup', startup })
}

/**
 * The idle profile's options: its own targets (runner/idle.js), the
 * connections held per server, rounds; the load options do not apply.
 * @param {Record<string, any>} v
 * @param {any} profile
 * @param {{ profile: string, files: string[], goals: any[] }} base
 * @returns {Options}
 */
function idleOptions (v, profile, base) {
  for (const name of ['scenarios', 'duration', 'warmup', 'pipelining', 'node', 'loader', 'cmd', 'url', 'compare', 'routes', 'timeout']) {
    if (v[name] !== undefined) throw new UsageError(`--${name} does not apply to --profile idle`)
  }
  /** @type {import('./idle.js').IdleOptions} */
  const idle = {
    targets: list('targets', v.targets ?? profile.targets.join(','), idleTargetIds, { all: idleTargetIds, hotpath: targetGroups.hotpath }),
    connections: v.connections === undefined ? profile.connections : int('connections', v.connections, 1, 100000),
    rounds: v.rounds === undefined ? profile.rounds : int('rounds', v.rounds, 1, 100),
    concurrency: profile.concurrency,
    keepAliveMs: profile.keepAliveMs,
    heapSnapshots: v['heap-snapshots'] ?? null,
    baselineHotpath: v['baseline-hotpath'] ?? null,
    pin: 'auto',
    out: v.out ?? DEFAULT_OUT
  }
  if (v['no-pin']) idle.pin = null
  if (v.pin !== undefined) {
    const m = /^(\d+):(\d+)$/.exec(v.pin)
    if (!m || m[1] === m[2] || v['no-pin']) throw new UsageError(`--pin takes two different CPU numbers as SERVER:LOADER, e.g. 0:1, got "${v.pin}"`)
    idle.pin = { server: Number(m[1]), loader: Number(m[2]) }
  }
  if (idle.baselineHotpath !== null && !idle.targets.includes('hotpath-wire')) throw new UsageError('--baseline-hotpath goes with the hotpath-wire target')
  return /** @type {Options} */ ({ ...defaults(profiles.default), ...base, mode: 'idle', idle })
}

/** @returns {Omit<Options, 'mode' | 'profile' | 'files' | 'goals'>} */
function defaults (profile) {
  return {
    targets: list('targets', profile.targets.join(','), targetIds, targetGroups),
    scenarios: list('scenarios', profile.scenarios.join(','), scenarioIds, scenarioGroups),
    duration: profile.duration,
    warmup: profile.warmup,
    rounds: profile.rounds,
    connections: profile.connections ?? 100,
    pipelining: null,
    node: null,
    loader: profile.loader === 'prefer-wrk' ? (wrkVersion() ? 'wrk' : 'autocannon') : profile.loader ?? 'autocannon',
    pin: 'auto',
    out: DEFAULT_OUT,
    html: true,
    cmd: null,
    url: '/',
    baselineHotpath: null,
    top: 15,
    profInterval: 1000,
    floorWork: 0
  }
}
