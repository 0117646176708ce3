#!/usr/bin/env node
// npm run soak:restart [-- --mode nginx,cluster --targets hotpath-wire,fastify
//                          --duration 5 --clients 16 --restarts 2 --drain-delay 1000
//                          --burners 0 --out results.json --time-limit 600]
//
// Do restarts lose requests? Under a steady GET + POST load over keep-alive
// connections, on 127.0.0.1 only:
// - nginx mode: two instances behind nginx (its own config, nginx.js); each
//   instance is restarted in turn (SIGTERM, exit, start on the same port,
//   ready and healthy), `restarts` rounds.
// - cluster mode: a node:cluster primary with two workers on one port;
//   the workers are replaced one at a time, `restarts` rounds. The HTTP/2
//   targets (h2c) run in this mode only.
// Each request's outcome is counted (load.js): its status, or the socket
// error that ended it. The table says how many requests were sent, how many
// got a 2xx, the other statuses, the socket errors, the restarts done and
// which instances served the 2xx. --burners n runs n CPU-burning processes
// beside each run (burners.js), as on a machine busy with something else.
// Exit 0 when every run finished and every
// request is accounted for (failures are reported, not fatal), 1 when a run
// could not finish, 2 when nginx mode is asked for and nginx is missing.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { killAll, killChildrenOnExit } from './children.js'
import { startBurners } from './burners.js'
import { runCluster } from './cluster-run.js'
import { INSTALL_HINT, findNginx } from './nginx.js'
import { runNginx } from './nginx-run.js'
import { table } from './report.js'

/** target name → what app.js runs */
const TARGETS = {
  'hotpath-wire': { entry: 'hotpath', engine: 'wire' },
  'hotpath-node': { entry: 'hotpath', engine: 'node' },
  'fastify-hotpath-wire': { entry: 'fastify-hotpath', engine: 'wire' },
  'fastify-hotpath-node': { entry: 'fastify-hotpath', engine: 'node' },
  fastify: { entry: 'fastify', engine: 'node' },
  // HTTP/2 (h2c), cluster mode only: nginx speaks HTTP/1.1 to its upstreams
  'hotpath-h2': { entry: 'hotpath', engine: 'h2' },
  'fastify-hotpath-h2': { entry: 'fastify-hotpath', engine: 'h2' },
  'fastify-h2': { entry: 'fastify', engine: 'h2' }
}
// fastify-h2 only when named: on Node 20 and 22, Fastify's close() leaves
// HTTP/2 sessions open until their clients close them (its
// http2SessionTimeout, 72 s, for an idle one), so a worker under load
// never exits and its replacement fails the soak's 30 s step
const DEFAULT_TARGETS = Object.keys(TARGETS).filter((t) => t !== 'fastify-h2')
const MODES = ['nginx', 'cluster']

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: MODES.join(',') },
    targets: { type: 'string', default: DEFAULT_TARGETS.join(',') },
    duration: { type: 'string', default: '5' },
    clients: { type: 'string', default: '16' },
    restarts: { type: 'string', default: '2' },
    'drain-delay': { type: 'string', default: '1000' },
    burners: { type: 'string', default: '0' },
    out: { type: 'string' },
    'time-limit': { type: 'string', default: '600' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false }
  }
})
if (args.help) {
  console.log(`usage: npm run soak:restart -- [--mode ${MODES.join(',')}] [--targets ${Object.keys(TARGETS).join(',')}]
       [--duration s] [--clients n] [--restarts n] [--drain-delay ms|off] [--burners n] [--out file.json] [--time-limit s] [--quiet]
Restarts two instances behind nginx, and node:cluster workers, under GET + POST load on 127.0.0.1,
and counts every request's outcome. --drain-delay off: the apps close without drain.
--burners n: n CPU-burning processes run beside each run.`)
  process.exit(0)
}

const modes = args.mode.split(',').map((s) => s.trim()).filter(Boolean)
const targets = args.targets.split(',').map((s) => s.trim()).filter(Boolean)
const durationMs = seconds(args.duration, 'duration') * 1000
const timeLimitMs = seconds(args['time-limit'], 'time-limit') * 1000
const clients = count(args.clients, 'clients', 1, 512)
const restarts = count(args.restarts, 'restarts', 0, 20)
const burners = count(args.burners, 'burners', 0, 16)
// 'off': the apps close as their entry does by default, without drain
const drainDelay = args['drain-delay'] === 'off' ? 'off' : count(args['drain-delay'], 'drain-delay', 0, 60_000)
for (const m of modes) if (!MODES.includes(m)) usage(`unknown mode ${m} (${MODES.join(', ')})`)
for (const t of targets) if (!(t in TARGETS)) usage(`unknown target ${t} (${Object.keys(TARGETS).join(', ')})`)

const nginx = modes.includes('nginx') ? findNginx() : null
if (modes.includes('nginx') && nginx === null) {
  console.error(INSTALL_HINT)
  process.exit(2)
}

killChildrenOnExit()
// The whole soak is bounded: past the limit every child is killed.
setTimeout(() => {
  console.error(`time limit of ${timeLimitMs / 1000} s reached: stopping`)
  killAll()
  process.exit(1)
}, timeLimitMs).unref()

/** @param {string} s */
const log = (s) => { if (!args.quiet) console.error(s) }

const commit = git(['rev-parse', '--short', 'HEAD']) + (git(['status', '--porcelain', '--untracked-files=no']) ? '+changes' : '')
log(`restart soak at ${commit}: ${modes.join(', ')} × ${targets.join(', ')}; ${clients} clients, ~${durationMs / 1000} s and ${restarts} restart round(s) each, drain ${drainDelay === 'off' ? 'off' : `delay ${drainDelay} ms`}${burners > 0 ? `, ${burners} CPU burner(s)` : ''}`)

/** @type {any[]} */
const runs = []
const started = Date.now()
for (const mode of modes) {
  for (const target of targets) {
    const { entry, engine } = TARGETS[/** @type {keyof typeof TARGETS} */ (target)]
    if (mode === 'nginx' && engine === 'h2') {
      log(`${mode} ${target}: skipped (nginx proxies HTTP/1.1 to its upstreams; HTTP/2 targets run in cluster mode)`)
      continue
    }
    log(`${mode} ${target}`)
    const common = { entry, engine, clients, durationMs, restarts, drainDelay, log }
    // the burners spin through the run, and end by themselves at the soak's time limit at the latest
    const burning = burners > 0 ? startBurners(burners, timeLimitMs - (Date.now() - started)) : null
    try {
      const result = mode === 'nginx'
        ? await runNginx({ ...common, nginx: /** @type {string} */ (nginx) })
        : await runCluster(common)
      // in nginx mode each of the two instances restarts once per round; in cluster mode each of the two workers is replaced once
      runs.push({ mode, target, entry, engine, restartsPlanned: restarts * 2, ...result })
    } catch (err) {
      log(`  failed: ${err instanceof Error ? err.stack : err}`)
      runs.push({ mode, target, entry, engine, restartsPlanned: restarts * 2, error: err instanceof Error ? err.message : String(err) })
    } finally {
      await burning?.stop()
    }
  }
}

console.log(table(runs))
const report = {
  commit,
  node: process.version,
  nginx: nginx === null ? null : (spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr ?? '').trim(),
  options: { modes, targets, durationMs, clients, restarts, drainDelay, burners },
  runs
}
if (args.out) {
  writeFileSync(args.out, JSON.stringify(report, null, 2) + '\n')
  log(`written to ${args.out}`)
}
process.exit(runs.some((r) => r.error || !r.accounted) ? 1 : 0)

/** @param {string[]} argv */
function git (argv) {
  const r = spawnSync('git', argv, { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : ''
}

/** @param {string} v @param {string} name */
function seconds (v, name) {
  const n = Number(v)
  if (!(n > 0 && n <= 3600)) usage(`--${name} takes seconds, 0 < n <= 3600`)
  return n
}

/** @param {string} v @param {string} name @param {number} min @param {number} max */
function count (v, name, min, max) {
  const n = Number(v)
  if (!(Number.isInteger(n) && n >= min && n <= max)) usage(`--${name} takes an integer from ${min} to ${max}`)
  return n
}

/** @param {string} message @returns {never} */
function usage (message) {
  console.error(`${message}\nusage: node scripts/restart/index.js [--mode nginx,cluster] [--targets ${Object.keys(TARGETS).join(',')}] [--duration s] [--clients n] [--restarts n] [--drain-delay ms|off] [--burners n] [--out file.json] [--time-limit s]`)
  process.exit(64)
}
