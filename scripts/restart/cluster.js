// The node:cluster primary of the soak's cluster mode:
//
//   node scripts/restart/cluster.js <entry> <engine> <port> [--drain-delay ms] [--workers 2]
//
// Runs app.js in `workers` workers sharing one port (round-robin: the
// primary accepts and hands each connection to the next worker), and
// replaces them one at a time when told: fork the new worker, wait until
// it listens, then SIGTERM the old one (its app.close() lets the requests
// in flight finish) and wait for its exit. Never fewer than `workers`
// workers listen during a replacement.
//
// Driven over its IPC channel by the soak (cluster-run.js):
//   → { type: 'replace' }   ← { type: 'replaced', old, new, exit, ms } per worker, then { type: 'replaced-all' }
//   → { type: 'stop' }      the workers are stopped the same way, then the primary exits
//                           ← { type: 'ready', workers } once every worker listens
// Without an IPC channel (run by hand) it starts, then replaces every
// worker on SIGHUP and stops on SIGTERM/SIGINT.
import cluster from 'node:cluster'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'drain-delay': { type: 'string', default: '1000' },
    workers: { type: 'string', default: '2' }
  }
})
const count = Number(flags.workers)

// Round-robin is node's default everywhere but Windows; said here so the
// distribution does not depend on the platform.
cluster.schedulingPolicy = cluster.SCHED_RR
cluster.setupPrimary({
  exec: fileURLToPath(new URL('./app.js', import.meta.url)),
  args: [...positionals, '--drain-delay', String(flags['drain-delay'])]
})

/** @param {any} message */
function tell (message) {
  if (typeof process.send === 'function' && process.connected) process.send(message)
  else console.log(JSON.stringify(message))
}

/** @returns {Promise<import('node:cluster').Worker>} a new worker, once it listens */
function forkListening () {
  return new Promise((resolve, reject) => {
    const worker = cluster.fork()
    // a message to a worker that has just exited fails (EPIPE): its exit is what counts
    worker.on('error', () => {})
    const onExit = (/** @type {number} */ code) => reject(new Error(`worker ${worker.id} exited (${code}) before listening`))
    worker.once('exit', onExit)
    worker.once('listening', () => {
      worker.off('exit', onExit)
      resolve(worker)
    })
  })
}

/**
 * SIGTERM: the worker's own handler runs app.close() and exits 0.
 * @param {import('node:cluster').Worker} worker
 * @returns {Promise<number | string>} its exit code or signal
 */
function stopWorker (worker) {
  return new Promise((resolve) => {
    worker.once('exit', (code, signal) => resolve(signal ?? code))
    worker.process.kill('SIGTERM')
  })
}

/** @type {import('node:cluster').Worker[]} */
const workers = []

async function replaceAll () {
  for (let i = 0; i < workers.length; i++) {
    const t0 = Date.now()
    const old = workers[i]
    const fresh = await forkListening()
    workers[i] = fresh
    const exit = await stopWorker(old)
    tell({ type: 'replaced', old: old.id, new: fresh.id, exit, ms: Date.now() - t0 })
  }
  tell({ type: 'replaced-all' })
}

let stopping = false
async function stop () {
  if (stopping) return
  stopping = true
  await Promise.all(workers.map(stopWorker))
  process.exit(0)
}

cluster.on('exit', (worker, code, signal) => {
  if (!stopping && workers.includes(worker)) tell({ type: 'worker-died', id: worker.id, exit: signal ?? code })
})

process.on('message', (/** @type {any} */ m) => {
  if (m?.type === 'replace') replaceAll().catch((err) => { tell({ type: 'error', message: String(err) }); stop() })
  else if (m?.type === 'stop') stop()
})
// the soak went away: take the workers down with the primary
process.on('disconnect', () => { stop() })
process.on('SIGHUP', () => { replaceAll().catch((err) => { console.error(err); stop() }) })
process.once('SIGTERM', () => { stop() })
process.once('SIGINT', () => { stop() })

try {
  for (let i = 0; i < count; i++) workers.push(await forkListening())
} catch (err) {
  console.error(err)
  for (const w of workers) w.process.kill('SIGKILL')
  process.exit(1)
}
tell({ type: 'ready', workers: workers.map((w) => w.id) })
