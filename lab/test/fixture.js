// A small synthetic results object, shaped like runBench's, for report tests.
import { LATENCY_PERCENTILES } from '../runner/stats.js'
import { summarizeAll } from '../runner/run.js'

export function fakeResults ({ rps = { 'node-http': [30000, 31000, 32000], fastify: [28000, 29000, 30500] }, labels = {} } = {}) {
  const targets = Object.keys(rps)
  const samples = []
  for (const t of targets) {
    rps[t].forEach((r, round) => {
      samples.push({
        node: 'v20.20.2', target: t, scenario: 'hello', round, requests: r, duration: 1, rps: r, throughput: r * 170,
        latency: Object.fromEntries(LATENCY_PERCENTILES.map((p) => [p, 1 + p / 10 + (t === 'fastify' ? 0.5 : 0)])),
        errors: 0, timeouts: 0, non2xx: 0, cpuUsPerReq: 1e6 / r, serverCpu: 0.99, loaderCpu: 0.7, rss: 80 * 1048576, gcMs: 10, gcShare: 0.01, flags: []
      })
    })
  }
  const results = {
    schema: 1,
    startedAt: '2026-11-22T04:00:00.000Z',
    finishedAt: '2026-11-22T04:01:00.000Z',
    env: { host: 'box', os: 'Linux 6 x64', cpuModel: 'Test CPU', cores: 2, memoryBytes: 2 ** 33, runnerNode: 'v20.20.2', loadAverage: [0.1, 0.2, 0.3], loadAverageAfter: [1, 1, 1], loader: { name: 'autocannon', version: '9.0.0' }, pinning: { enabled: true, server: 0, loader: 1, note: 'server on CPU 0, loader on CPU 1' }, packages: { fastify: '5.0.0' }, git: { commit: 'abc', dirty: false }, nodes: ['v20.20.2'] },
    options: { profile: 'default', targets: [...targets, 'express'], scenarios: ['hello'], duration: 1, warmup: 1, rounds: 3, connections: 100, pipelining: null, loader: 'autocannon' },
    scenarios: [{ id: 'hello', title: 'GET / → {"hello":"world"}', pipelining: 1 }],
    targets: [...targets, 'express'].map((id) => ({ id, label: labels[id] ?? id })),
    status: [...targets.map((t) => ({ node: 'v20.20.2', scenario: 'hello', target: t, state: 'timed', reason: null })),
      { node: 'v20.20.2', scenario: 'hello', target: 'express', state: 'failed conformance', reason: 'status 500, expected 200' }],
    samples,
    summaries: [],
    goals: [{ scenario: 'hello', target: 'fastify', vs: 'node-http', metric: 'rps', ratio: 0.97, source: 'test' }]
  }
  results.summaries = summarizeAll(results)
  return results
}
