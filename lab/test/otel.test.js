// The traced targets (OpenTelemetry preloaded with targets/otel-setup.js):
// each starts, passes the scenario's conformance, sends the very body bytes
// of its untraced twin, and exports spans for a handful of requests; the twin
// exports none. And the report never passes an untraced figure off as traced.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { targets, getTarget } from '../targets/index.js'
import { getScenario } from '../scenarios/index.js'
import { startServer } from '../runner/server.js'
import { checkTarget } from '../runner/conformance.js'
import { exchange } from '../runner/http-client.js'
import { makeSample } from '../runner/run.js'
import { tracingCost, renderTracing } from '../report/tracing.js'
import { fakeResults } from './fixture.js'

const traced = targets.filter((t) => t.untraced)
// the batch processor's delay (5 s by default), so a few spans leave at once
const env = { OTEL_BSP_SCHEDULE_DELAY: '20' }
const REQUESTS = 5

/** @param {import('../targets/index.js').Target} target */
const start = (target, scenario) => startServer({ file: target.file, env: { ...target.env, ...env, LAB_SCENARIO: scenario.id }, imports: target.imports, nodeBin: process.execPath, cpu: null, startTimeout: 0 })

/** Resolves with the server's exported span count once it is above 0. */
async function spansExported (srv) {
  for (;;) {
    const { counters } = await srv.sample()
    if (counters?.spansExported > 0) return counters.spansExported
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test('there is a traced twin of Fastify and of both hotpath engines, with the same server file and environment', () => {
  assert.deepEqual(traced.map((t) => t.untraced).sort(), ['fastify', 'hotpath-node', 'hotpath-wire'])
  for (const t of traced) {
    const twin = getTarget(/** @type {string} */ (t.untraced))
    assert.equal(t.file, twin.file)
    assert.deepEqual(t.env, twin.env)
    assert.equal(t.imports?.length, 1)
    assert.equal(twin.imports, undefined)
  }
})

// params: a route with parameters among 100, which @fastify/otel names by its route
{
  const scenario = getScenario('params')
  test(`${scenario.id}: each traced target answers as its twin does and exports spans`, { timeout: 120000 }, async () => {
    const list = [...traced, ...traced.map((t) => getTarget(/** @type {string} */ (t.untraced)))]
    const servers = new Map()
    try {
      await Promise.all(list.map(async (t) => servers.set(t.id, await start(t, scenario))))
      const bodies = new Map()
      for (const t of list) {
        const srv = servers.get(t.id)
        const r = await checkTarget({ port: srv.port, scenario })
        assert.deepEqual(r.problems, [], `${t.id} · ${scenario.id}`)
        const res = await exchange({ port: srv.port, request: scenario.request, count: REQUESTS })
        assert.equal(res.length, REQUESTS)
        bodies.set(t.id, res.map((x) => `${x.status} ${x.headers['content-type']} ${x.body.toString('latin1')}`))
      }
      for (const t of traced) {
        assert.deepEqual(bodies.get(t.id), bodies.get(t.untraced), `${t.id} answers as ${t.untraced}`)
        assert.ok(await spansExported(servers.get(t.id)) > 0, `${t.id} exported spans`)
        const twin = await servers.get(/** @type {string} */ (t.untraced)).sample()
        assert.equal(twin.counters?.spansExported, undefined, `${t.untraced} does not trace`)
      }
    } finally {
      await Promise.all([...servers.values()].map((s) => s.stop()))
    }
  })
}

test('makeSample: spans per request from the exporter\'s count, and no-spans when a traced target exported none', () => {
  const base = { node: 'v20', target: 't', scenario: 's', round: 0, peakRss: 1e8, pinned: false }
  const result = { requests: 1000, duration: 1, bytes: 1e5, errors: 0, timeouts: 0, non2xx: 0, latency: {}, loaderCpuSeconds: 0.5 }
  const on = makeSample({ ...base, traced: true, result, before: { cpu: 1, gcMs: 0, counters: { spansExported: 512 } }, after: { cpu: 2, gcMs: 0, counters: { spansExported: 3512 } } })
  assert.equal(on.spansPerReq, 3)
  assert.deepEqual(on.flags, [])
  const off = makeSample({ ...base, traced: true, result, before: { cpu: 1, gcMs: 0, counters: {} }, after: { cpu: 2, gcMs: 0, counters: {} } })
  assert.equal(off.spansPerReq, null)
  assert.deepEqual(off.flags, ['no-spans'])
  const untraced = makeSample({ ...base, result, before: { cpu: 1, gcMs: 0, counters: {} }, after: { cpu: 2, gcMs: 0, counters: {} } })
  assert.deepEqual(untraced.flags, [])
})

test('the cost of tracing: each traced target beside its twin, and a warning for one that exported no spans', () => {
  const results = fakeResults({ rps: { fastify: [30000, 30000, 30000], 'fastify-otel': [10000, 10000, 10000], 'hotpath-wire': [60000, 60000, 60000], 'hotpath-wire-otel': [40000, 40000, 40000] } })
  for (const t of results.targets) if (t.id.endsWith('-otel')) t.untraced = t.id.replace(/-otel$/, '')
  results.status.find((s) => s.target === 'fastify-otel').spansExported = 90000
  results.status.find((s) => s.target === 'hotpath-wire-otel').spansExported = 0
  const { rows, warnings } = tracingCost(results)
  assert.deepEqual(rows.map((r) => [r.target, r.untraced, r.rpsVsUntraced, r.ref, r.rpsVsRef]),
    [['fastify-otel', 'fastify', 1 / 3, 'fastify-otel', null], ['hotpath-wire-otel', 'hotpath-wire', 2 / 3, 'fastify-otel', 4]])
  assert.equal(rows[0].cpuVsUntraced, 3)
  assert.equal(warnings.length, 1)
  assert.match(warnings[0], /hello · hotpath-wire-otel exported 0 spans: its figures are not those of a traced server/)
  const text = renderTracing(results)
  assert.match(text, /fastify-otel\s+10,000\s+0\.33×/)
  assert.match(text, /hotpath-wire-otel\s+40,000\s+0\.67×.*4\.00×$/m)
  assert.equal(renderTracing(fakeResults()), '', 'nothing for a run without traced targets')
})
