// The wrk loader (Debian's `wrk`): one thread, pinned to the loader CPU. It
// costs less CPU per request than autocannon, so on few cores it measures the
// server rather than itself. Pipelining and request bodies come from wrk.lua.

import { spawn, execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { cpuSeconds } from '../proc.js'

const SCRIPT = fileURLToPath(new URL('./wrk.lua', import.meta.url))

/** The wrk version, or null when wrk is not on the PATH. */
export function wrkVersion () {
  try {
    // `wrk -v` prints its version and exits with 1
    execFileSync('wrk', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (err) {
    const text = String(err.stdout || '') + String(err.stderr || '')
    const m = /wrk\s+(\S+)/.exec(text)
    if (m) return m[1]
    if (err.code === 'ENOENT') return null
  }
  return 'unknown'
}

/**
 * Turns wrk.lua's LABJSON line into the loader result shape.
 * @param {string} stdout
 */
export function parseWrkOutput (stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('LABJSON '))
  if (!line) throw new Error(`wrk printed no summary: ${stdout.trim().slice(-300)}`)
  const s = JSON.parse(line.slice(8))
  /** @type {Record<number, number | null>} */
  const latency = { 0: s.min_us / 1000, 100: s.max_us / 1000 }
  // wrk's latency:percentile() answers 0 when its histogram does not reach
  // the rank (seen with pipelining: p95-p99.99 of 0 with a max of 150 ms).
  // Such a value is unknown, not zero: null keeps it out of every median.
  let floor = 0
  for (const [p, us] of Object.entries(s.percentiles_us).sort((a, b) => Number(a[0]) - Number(b[0]))) {
    const valid = us >= floor && !(us === 0 && s.max_us > 0)
    latency[Number(p)] = valid ? us / 1000 : null
    if (valid) floor = us
  }
  const socketErrors = s.connect + s.read + s.write
  return {
    requests: s.requests,
    duration: s.duration_us / 1e6,
    bytes: s.bytes,
    errors: socketErrors,
    timeouts: s.timeout,
    non2xx: s.status,
    latency
  }
}

/**
 * @param {{ cpu: number | null }} o
 * @returns {Promise<import('./index.js').Loader>}
 */
export async function createWrk ({ cpu }) {
  const version = wrkVersion()
  if (!version) throw new Error('wrk is not on the PATH (Debian/Ubuntu: apt-get install wrk)')
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-wrk-'))
  let bodies = 0
  return {
    name: 'wrk',
    protocols: ['h1'],
    version,
    async run (job) {
      let bodyFile = '-'
      if (job.body !== undefined) {
        bodyFile = path.join(tmp, `body-${++bodies}`)
        fs.writeFileSync(bodyFile, job.body)
      }
      const headers = Object.entries(job.headers || {}).map(([k, v]) => `${k}: ${v}`)
      const wrkArgs = ['-t1', `-c${job.connections}`, `-d${Math.max(1, Math.round(job.duration))}s`, '--timeout', '10s', '-s', SCRIPT, job.url, '--',
        String(job.pipelining || 1), job.method, bodyFile, ...headers]
      const pin = cpu === null ? '' : `taskset -c ${cpu} `
      // The shell waits for wrk, then reads its own /proc stat: wrk's CPU time
      // is in the shell's "children" fields once wrk has exited.
      const script = `${pin}wrk "$@"; rc=$?; echo "LABSTAT $(cat /proc/$$/stat 2>/dev/null)"; exit $rc`
      const { stdout, code } = await new Promise((resolve, reject) => {
        const child = spawn('sh', ['-c', script, 'sh', ...wrkArgs], { stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        child.stdout.on('data', (d) => { out += d })
        child.stderr.on('data', (d) => { out += d })
        child.on('error', reject)
        child.on('exit', (c) => resolve({ stdout: out, code: c }))
      })
      if (code !== 0) throw new Error(`wrk exited with code ${code}: ${stdout.trim().slice(-300)}`)
      const result = parseWrkOutput(stdout)
      const stat = stdout.split('\n').find((l) => l.startsWith('LABSTAT '))
      const cpuTimes = stat && stat.length > 9 ? cpuSeconds(0, stat.slice(8)) : null
      return { ...result, loaderCpuSeconds: cpuTimes ? cpuTimes.children : null }
    },
    async close () { fs.rmSync(tmp, { recursive: true, force: true }) }
  }
}
