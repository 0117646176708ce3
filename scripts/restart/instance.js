// One application instance: a child process of app.js on a fixed port,
// started, checked and restarted the way a deployment does it: SIGTERM,
// wait for the exit, start a new one on the same port, wait until it
// prints `ready` and its health route answers 200 on a direct connection.
import { fileURLToPath } from 'node:url'
import { spawnChild, waitExit } from './children.js'
import { waitHealthy } from './probe.js'
import { withTimeout } from './wait.js'

const appFile = fileURLToPath(new URL('./app.js', import.meta.url))
const READY_MS = 15_000
const EXIT_MS = 15_000

/**
 * @typedef {{ entry: string, engine: string, port: number, label: string, drainDelay: number | 'off' }} InstanceOptions
 */

/**
 * Starts app.js and resolves once it is ready and healthy.
 * @param {InstanceOptions} o
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, health: string }>}
 */
export async function startInstance (o) {
  const child = spawnChild(process.execPath, [appFile, o.entry, o.engine, String(o.port), '--drain-delay', String(o.drainDelay), '--label', o.label], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr?.on('data', (d) => { stderr = (stderr + d).slice(-4000) })
  const ready = new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (d) => {
      out += d
      if (/^ready /m.test(out)) resolve(undefined)
    })
    child.once('exit', (code, signal) => reject(new Error(`instance ${o.label} (${o.entry} ${o.engine} :${o.port}) exited before ready (${signal ?? code}): ${lastError(stderr)}`)))
  })
  await withTimeout(ready, READY_MS, `instance ${o.label} ready`)
  const health = await waitHealthy(o.port, '/health', READY_MS)
  return { child, health }
}

/**
 * SIGTERM, then the exit (SIGKILL after EXIT_MS).
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<{ code: number | null, signal: string | null, killed: boolean, ms: number }>}
 */
export async function stopInstance (child) {
  const t0 = Date.now()
  child.kill('SIGTERM')
  const r = await waitExit(child, EXIT_MS)
  return { ...r, ms: Date.now() - t0 }
}

/** @param {string} stderr the line that names the error (`Error: listen EADDRINUSE…`), or the last line */
function lastError (stderr) {
  const lines = stderr.trim().split('\n')
  return lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.at(-1) ?? ''
}
