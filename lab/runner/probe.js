// Loaded into every target server with `node --import`: counts time spent in
// garbage collection (PerformanceObserver for 'gc') and answers the runner's
// 'lab:stats' message over the IPC channel with cumulative figures, and the
// counters a preloaded setup published (runner/counters.js). It adds
// nothing per request; the observer runs once per GC.

import { PerformanceObserver } from 'node:perf_hooks'
import { labCounters } from './counters.js'

let gcMs = 0
let gcCount = 0
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) { gcMs += e.duration; gcCount++ }
})
obs.observe({ entryTypes: ['gc'] })

// A server run with --cpu-prof writes its profile at a normal exit only; the
// default action of SIGTERM, which the runner stops servers with, would lose
// it (--split reads it after the server has stopped).
if (process.execArgv.some((a) => a.startsWith('--cpu-prof'))) process.once('SIGTERM', () => process.exit(0))

if (typeof process.send === 'function') {
  process.on('message', (msg) => {
    if (msg && msg.type === 'lab:stats') {
      const cpu = process.cpuUsage()
      process.send({ type: 'lab:stats', id: msg.id, gcMs, gcCount, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRss: process.resourceUsage().maxRSS * 1024, counters: { ...labCounters() } })
    }
  })
  // the channel must not keep a server alive that would otherwise exit
  process.channel?.unref()
}
