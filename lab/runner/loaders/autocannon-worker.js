// The autocannon load generator, in its own process pinned to the loader CPU
// (the runner starts it once and sends it one job per run over IPC), so the
// runner's own work never competes with the load.

import autocannon from 'autocannon'
import { Histogram } from '../histogram.js'
import { LATENCY_PERCENTILES } from '../stats.js'

function run (job) {
  return new Promise((resolve, reject) => {
    const hist = new Histogram()
    const instance = autocannon({
      url: job.url,
      method: job.method,
      headers: job.headers,
      body: job.body,
      connections: job.connections,
      pipelining: job.pipelining,
      duration: job.duration,
      timeout: 10
    }, (err, result) => {
      if (err) return reject(err)
      const latency = {}
      for (const p of LATENCY_PERCENTILES) latency[p] = hist.percentileMs(p)
      resolve({
        requests: result.requests.total,
        duration: result.duration,
        bytes: result.throughput.total,
        errors: result.errors - result.timeouts,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        latency
      })
    })
    // one histogram record per response: autocannon's own counts whole ms
    instance.on('response', (client, statusCode, bytes, ms) => { hist.recordMs(ms) })
  })
}

process.on('message', async (msg) => {
  if (msg?.type !== 'run') return
  try {
    process.send({ type: 'result', id: msg.id, result: await run(msg.job) })
  } catch (err) {
    process.send({ type: 'result', id: msg.id, error: String(err?.message || err) })
  }
})
process.send({ type: 'ready' })
