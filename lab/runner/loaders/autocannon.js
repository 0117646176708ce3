// Runner side of the autocannon loader: one long-lived worker process.

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { cpuSeconds } from '../proc.js'

const WORKER = fileURLToPath(new URL('./autocannon-worker.js', import.meta.url))

/**
 * @param {{ cpu: number | null }} o
 * @returns {Promise<import('./index.js').Loader>}
 */
export async function createAutocannon ({ cpu }) {
  const argv = cpu === null ? [process.execPath, WORKER] : ['taskset', '-c', String(cpu), process.execPath, WORKER]
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const pending = new Map()
  let seq = 0
  let exited = false
  child.on('exit', () => {
    exited = true
    for (const [, done] of pending) done({ error: 'autocannon worker exited' })
    pending.clear()
  })
  await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`autocannon worker exited with code ${code}`)))
  })
  child.on('message', (msg) => {
    if (msg?.type === 'result' && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id) }
  })
  const version = createRequire(import.meta.url)('autocannon/package.json').version
  return {
    name: 'autocannon',
    protocols: ['h1'],
    version,
    async run (job) {
      if (exited) throw new Error('autocannon worker exited')
      const id = ++seq
      const before = cpuSeconds(/** @type {number} */ (child.pid))
      const msg = await new Promise((resolve) => {
        pending.set(id, resolve)
        child.send({ type: 'run', id, job })
      })
      const after = cpuSeconds(/** @type {number} */ (child.pid))
      if (msg.error) throw new Error(msg.error)
      return { ...msg.result, loaderCpuSeconds: before && after ? after.self - before.self : null }
    },
    async close () {
      if (exited) return
      const gone = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await gone
    }
  }
}
