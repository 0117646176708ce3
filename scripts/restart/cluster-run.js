// cluster mode: the primary (cluster.js) with two workers on one port, the
// load straight at that port, and every worker replaced one at a time,
// `restarts` rounds, while the load runs.
import { fileURLToPath } from 'node:url'
import { spawnChild, waitExit } from './children.js'
import { freePort } from './free-port.js'
import { accounted, startLoad } from './load.js'
import { sleep, withTimeout } from './wait.js'

const primaryFile = fileURLToPath(new URL('./cluster.js', import.meta.url))
const STEP_MS = 30_000

/**
 * @param {{ entry: string, engine: string, clients: number, durationMs: number, restarts: number, drainDelay: number | 'off', log: (s: string) => void }} o
 */
export async function runCluster (o) {
  const port = await freePort()
  const primary = spawnChild(process.execPath, [primaryFile, o.entry, o.engine, String(port), '--drain-delay', String(o.drainDelay)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  /** @type {any[]} */
  const inbox = []
  /** @type {((m: any) => void) | null} */
  let waiter = null
  primary.on('message', (m) => {
    inbox.push(m)
    waiter?.(m)
  })
  /**
   * The next message of `type` from the primary.
   * @param {string} type
   */
  const next = (type) => withTimeout(new Promise((resolve, reject) => {
    const look = () => {
      const i = inbox.findIndex((m) => m.type === type || m.type === 'error')
      if (i === -1) return false
      const [m] = inbox.splice(i, 1)
      waiter = null
      if (m.type === 'error') reject(new Error(`cluster primary: ${m.message}`))
      else resolve(m)
      return true
    }
    if (!look()) waiter = look
    primary.once('exit', (code) => reject(new Error(`cluster primary exited (${code})`)))
  }), STEP_MS, `cluster primary ${type}`)

  try {
    await next('ready')
  } catch (err) {
    primary.kill('SIGKILL')
    throw err
  }
  /** @type {{ at: number, old: number, new: number, exit: number | string, ms: number }[]} */
  const restarts = []
  const load = startLoad({ port, clients: o.clients, h2: o.engine === 'h2' })
  /** @type {unknown} */
  let failure = null
  try {
    // the load runs `gap` before each round and after the last one
    const gap = o.durationMs / (o.restarts + 1)
    for (let r = 0; r < o.restarts; r++) {
      await sleep(gap)
      o.log(`  replace the workers (${load.completed} requests so far)`)
      const at = load.now()
      primary.send({ type: 'replace' })
      await next('replaced-all')
      for (const m of inbox.filter((m) => m.type === 'replaced')) {
        inbox.splice(inbox.indexOf(m), 1)
        restarts.push({ at, old: m.old, new: m.new, exit: m.exit, ms: m.ms })
      }
    }
    await sleep(gap)
  } catch (err) {
    failure = err
  }
  const stats = await load.stop()
  if (primary.connected) primary.send({ type: 'stop' })
  await waitExit(primary, 15_000)
  if (failure) throw failure
  const died = inbox.filter((m) => m.type === 'worker-died')
  return {
    stats,
    accounted: accounted(stats),
    restarts,
    restartsDone: restarts.filter((r) => r.exit === 0).length,
    workersDied: died
  }
}
