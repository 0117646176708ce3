// The h2load loader (nghttp2's, Debian's `nghttp2-client`): HTTP/2 over
// cleartext with prior knowledge (h2c), h2load's default for http:// URLs.
// One process per run, one thread, pinned to the loader CPU. A job's
// `pipelining` is the number of concurrent streams per connection (-m).
//
// No --warm-up-time: the runner reads the server's CPU time, RSS and GC
// around the whole loader process, so an in-run warm-up would be charged to
// the measured requests (seen: a server pinned to one CPU at "1.25 CPUs",
// CPU µs/req 25 % high with a 0.5 s warm-up in a 2 s run). The runner's own
// --warmup run, discarded, warms the server instead.
//
// h2load reports min, max, mean and standard deviation of the request time,
// no percentiles: the result carries min as p0 and max as p100, every other
// percentile unknown (null), and the mean and sd beside them.

import { spawn, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { cpuSeconds } from '../proc.js'
import { LATENCY_PERCENTILES } from '../stats.js'

/** The h2load version ("1.52.0"), or null when h2load is not on the PATH. */
export function h2loadVersion () {
  try {
    const out = execFileSync('h2load', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    return /nghttp2\/(\S+)/.exec(out)?.[1] ?? 'unknown'
  } catch (err) {
    if (err.code === 'ENOENT') return null
    return 'unknown'
  }
}

/** '350us' | '1.09ms' | '1.2s' → milliseconds. */
function toMs (text) {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text)
  if (!m) throw new Error(`h2load: unreadable time "${text}"`)
  const n = Number(m[1])
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n
}

/**
 * Turns h2load's summary into the loader result shape.
 * @param {string} stdout
 * @param {number} [duration] the -D seconds, for a run that answered nothing (h2load then prints 0 req/s)
 */
export function parseH2loadOutput (stdout, duration = 0) {
  const finished = /^finished in \S+, ([\d.]+) req\/s/m.exec(stdout)
  const requests = /^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/m.exec(stdout)
  const status = /^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/m.exec(stdout)
  const traffic = /^traffic: \S+ \((\d+)\) total/m.exec(stdout)
  const time = /^time for request:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(stdout)
  if (!finished || !requests || !status || !traffic || !time) throw new Error(`h2load printed no summary: ${stdout.trim().slice(-300)}`)
  const rps = Number(finished[1])
  const done = Number(requests[3])
  const [min, max, mean, sd] = time.slice(1).map(toMs)
  /** @type {Record<number, number | null>} */
  const latency = Object.fromEntries(LATENCY_PERCENTILES.map((p) => [p, p === 0 ? min : p === 100 ? max : null]))
  return {
    requests: done,
    // h2load's req/s is done / the measured (-D) time, warm-up excluded;
    // "finished in" counts the warm-up too
    duration: rps > 0 ? done / rps : duration,
    bytes: Number(traffic[1]),
    // "errored": requests lost to a socket or protocol error (a refused
    // connection, a reset stream); "failed" also counts non-2xx, kept apart
    errors: Number(requests[6]),
    timeouts: Number(requests[7]),
    non2xx: Number(status[2]) + Number(status[3]) + Number(status[4]),
    latency,
    latencyMean: mean,
    latencySd: sd
  }
}

/**
 * @param {{ cpu: number | null }} o
 * @returns {Promise<import('./index.js').Loader>}
 */
export async function createH2load ({ cpu }) {
  const version = h2loadVersion()
  if (!version) throw new Error('h2load is not on the PATH (Debian/Ubuntu: apt-get install nghttp2-client)')
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-h2load-'))
  let bodies = 0
  return {
    name: 'h2load',
    version,
    protocols: ['h2'],
    async run (job) {
      const args = ['-t1', `-c${job.connections}`, `-m${job.pipelining || 1}`, '-D', String(Math.max(1, Math.round(job.duration))), '-N', '10']
      if (job.body !== undefined) {
        // h2load sends a POST with -d
        if (job.method !== 'POST') throw new Error(`h2load sends a body only with POST, not ${job.method}`)
        const file = path.join(tmp, `body-${++bodies}`)
        fs.writeFileSync(file, job.body)
        args.push('-d', file)
      } else if (job.method !== 'GET') {
        args.push('-H', `:method: ${job.method}`)
      }
      for (const [k, v] of Object.entries(job.headers || {})) args.push('-H', `${k}: ${v}`)
      args.push(job.url)
      const pin = cpu === null ? '' : `taskset -c ${cpu} `
      // as for wrk: the shell reads its own /proc stat after h2load exits,
      // h2load's CPU time is then in its "children" fields
      const script = `${pin}h2load "$@"; rc=$?; echo "LABSTAT $(cat /proc/$$/stat 2>/dev/null)"; exit $rc`
      const { stdout, code } = await new Promise((resolve, reject) => {
        const child = spawn('sh', ['-c', script, 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        child.stdout.on('data', (d) => { out += d })
        child.stderr.on('data', (d) => { out += d })
        child.on('error', reject)
        child.on('exit', (c) => resolve({ stdout: out, code: c }))
      })
      if (code !== 0) throw new Error(`h2load exited with code ${code}: ${stdout.trim().slice(-300)}`)
      const result = parseH2loadOutput(stdout, job.duration)
      const stat = stdout.split('\n').find((l) => l.startsWith('LABSTAT '))
      const cpuTimes = stat && stat.length > 9 ? cpuSeconds(0, stat.slice(8)) : null
      return { ...result, loaderCpuSeconds: cpuTimes ? cpuTimes.children : null }
    },
    async close () { fs.rmSync(tmp, { recursive: true, force: true }) }
  }
}
