// nginx mode: two instances behind nginx, the load through nginx, and the
// instances restarted one after the other (a, b, a, b… `restarts` rounds)
// while the load runs.
import { freePort } from './free-port.js'
import { accounted, startLoad } from './load.js'
import { startInstance, stopInstance } from './instance.js'
import { startNginx } from './nginx.js'
import { sleep } from './wait.js'

/** how long a restarted instance may take to get a request from nginx again (fail_timeout is 2 s) */
const ROTATION_MS = 10_000

/**
 * @param {{ nginx: string, entry: string, engine: string, clients: number, durationMs: number, restarts: number, drainDelay: number | 'off', log: (s: string) => void }} o
 */
export async function runNginx (o) {
  const slots = [
    { label: 'a', port: await freePort(), generation: 0 },
    { label: 'b', port: await freePort(), generation: 0 }
  ]
  /** @type {import('node:child_process').ChildProcess[]} */
  const children = []
  /** @type {Set<string>} */
  const health = new Set()
  const nginxPort = await freePort()
  /** @type {Awaited<ReturnType<typeof startNginx>>} */
  let nginx
  try {
    for (const [i, s] of slots.entries()) {
      const started = await startInstance({ entry: o.entry, engine: o.engine, port: s.port, label: `${s.label}#0`, drainDelay: o.drainDelay })
      children[i] = started.child
      health.add(started.health)
    }
    nginx = await startNginx({ bin: o.nginx, port: nginxPort, upstreams: slots.map((s) => s.port) })
  } catch (err) {
    for (const c of children) c.kill('SIGKILL')
    throw err
  }
  /** @type {{ instance: string, port: number, at: number, exit: number | string | null, killed: boolean, stopMs: number, startMs: number, backInRotationMs: number | null }[]} */
  const restarts = []
  const load = startLoad({ port: nginxPort, clients: o.clients })
  /** @type {unknown} */
  let failure = null
  try {
    // the load runs `gap` before each restart and after the last one: the
    // run lasts durationMs plus the restarts' own time
    const events = o.restarts * slots.length
    const gap = o.durationMs / (events + 1)
    for (let e = 0; e < events; e++) {
      await sleep(gap)
      const i = e % slots.length
      const s = slots[i]
      o.log(`  restart ${s.label} (${load.completed} requests so far)`)
      const at = load.now()
      const stopped = await stopInstance(children[i])
      const t1 = Date.now()
      const label = `${s.label}#${++s.generation}`
      const started = await startInstance({ entry: o.entry, engine: o.engine, port: s.port, label, drainDelay: o.drainDelay })
      children[i] = started.child
      health.add(started.health)
      const t2 = Date.now()
      // Back in rotation once nginx sent it a request: until then nginx may
      // still count it as failed (max_fails, fail_timeout), and stopping the
      // other instance would leave nginx with none.
      const back = await servedBy(load.stats, label, ROTATION_MS)
      restarts.push({ instance: s.label, port: s.port, at, exit: stopped.signal ?? stopped.code, killed: stopped.killed, stopMs: stopped.ms, startMs: t2 - t1, backInRotationMs: back ? Date.now() - t2 : null })
    }
    await sleep(gap)
  } catch (err) {
    failure = err
  }
  const stats = await load.stop()
  for (const c of children) await stopInstance(c)
  const logs = nginx.logs()
  await nginx.stop()
  if (failure) throw failure
  return {
    stats,
    accounted: accounted(stats),
    restarts,
    restartsDone: restarts.filter((r) => r.exit === 0 && !r.killed && r.backInRotationMs !== null).length,
    health: [...health].join(','),
    nginxFailures: logs.access.split('\n').filter(Boolean).slice(0, 50),
    nginxErrors: nginxErrors(logs.error)
  }
}

/**
 * Resolves true once the load got a 2xx from `label`, false after `ms`.
 * @param {import('./load.js').LoadStats} stats
 * @param {string} label
 * @param {number} ms
 */
async function servedBy (stats, label, ms) {
  const end = Date.now() + ms
  while (!(stats.instances[label] > 0)) {
    if (Date.now() > end) return false
    await sleep(20)
  }
  return true
}

/**
 * nginx's error log, its first 50 lines, with the lines of a request that
 * was sent (a reset, a connection closed before the answer) ahead of the
 * refused connections, which every restart logs and nginx retries safely:
 * a long log keeps the ones that matter.
 * @param {string} log
 */
function nginxErrors (log) {
  const lines = log.split('\n').filter(Boolean)
  const refused = (/** @type {string} */ l) => /connect\(\) failed \(111|upstream server temporarily disabled/.test(l)
  return [...lines.filter((l) => !refused(l)), ...lines.filter(refused)].slice(0, 50)
}
