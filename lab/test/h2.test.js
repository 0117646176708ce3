// The HTTP/2 side of the lab: h2load's output parsed (unit, on captured
// output of h2load 1.52.0), the h2-hello conformance over h2c against the h2
// targets, the h2 profile's options, and, when h2load is installed, a short
// bounded run of node-http2 and fastify-h2 through the whole pipeline.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { parseH2loadOutput, h2loadVersion } from '../runner/loaders/h2load.js'
import { parseOptions } from '../runner/options.js'
import { checkTarget } from '../runner/conformance.js'
import { startServer } from '../runner/server.js'
import { main } from '../runner/cli.js'
import { getTarget, targetGroups } from '../targets/index.js'
import { getScenario } from '../scenarios/index.js'
import { summarizeAll } from '../runner/run.js'
import { renderTable } from '../report/table.js'
import { renderHtml } from '../report/html.js'
import { renderCsv } from '../report/csv.js'
import { fakeResults } from './fixture.js'

const h2hello = getScenario('h2-hello')

// h2load -c 10 -m 10 -D 2 --warm-up-time 1 against a node:http2 hello server
const SAMPLE = `starting benchmark...
spawning thread #0: 10 total client(s). Timing-based test with 1s of warm-up time and 2s of main duration for measurements.
Warm-up started for thread #0.
progress: 10% of clients started
progress: 100% of clients started
Application protocol: h2c
Warm-up phase is over for thread #0.
Main benchmark duration is started for thread #0.
Main benchmark duration is over for thread #0. Stopping all clients.
Stopped all clients for thread #0

finished in 3.01s, 14425.00 req/s, 732.11KB/s
requests: 28850 total, 28850 started, 28850 done, 28850 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 28820 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 1.43MB (1499370) total, 260.74KB (267001) headers (space savings 92.12%), 551.84KB (565080) data
                     min         max         mean         sd        +/- sd
time for request:     1.09ms     23.28ms      6.80ms      3.14ms    85.25%
time for connect:        0us         0us         0us         0us     0.00%
time to 1st byte:        0us         0us         0us         0us     0.00%
req/s           :    1421.99     1456.81     1439.38       11.78    50.00%
`

// h2load -c 2 -m 2 -n 20 against a path answering 404
const NOT_FOUND = `finished in 21.26ms, 940.56 req/s, 32.24KB/s
requests: 20 total, 20 started, 20 done, 0 succeeded, 20 failed, 0 errored, 0 timeout
status codes: 0 2xx, 0 3xx, 20 4xx, 0 5xx
traffic: 702B (702) total, 86B (86) headers (space savings 90.00%), 40B (40) data
                     min         max         mean         sd        +/- sd
time for request:      350us     15.12ms      3.68ms      5.85ms    80.00%
`

// h2load -c 2 -n 10 against a port nothing listens on
const REFUSED = `finished in 413us, 0.00 req/s, 0B/s
requests: 10 total, 0 started, 0 done, 0 succeeded, 10 failed, 10 errored, 0 timeout
status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 0B (0) total, 0B (0) headers (space savings 0.00%), 0B (0) data
                     min         max         mean         sd        +/- sd
time for request:        0us         0us         0us         0us     0.00%
`

test('h2load output: req/s, counts, bytes, and min/mean/sd/max latency (no percentiles)', () => {
  const r = parseH2loadOutput(SAMPLE, 2)
  assert.equal(r.requests, 28850)
  // req/s is over the measured 2 s, not the 3.01 s that include the warm-up
  assert.equal(r.duration, 2)
  assert.equal(r.bytes, 1499370)
  assert.equal(r.errors, 0)
  assert.equal(r.timeouts, 0)
  assert.equal(r.non2xx, 0)
  assert.equal(r.latency[0], 1.09)
  assert.equal(r.latency[100], 23.28)
  assert.equal(r.latencyMean, 6.8)
  assert.equal(r.latencySd, 3.14)
  for (const p of [10, 50, 90, 99, 99.9]) assert.equal(r.latency[p], null, `p${p} is unknown, not 0`)
})

test('h2load output: non-2xx answers, microseconds, and a run that reached nothing', () => {
  const nf = parseH2loadOutput(NOT_FOUND)
  assert.equal(nf.non2xx, 20)
  assert.equal(nf.errors, 0, 'a 404 is a non-2xx answer, not a socket error')
  assert.equal(nf.latency[0], 0.35)
  const refused = parseH2loadOutput(REFUSED, 1)
  assert.equal(refused.requests, 0)
  assert.equal(refused.errors, 10)
  assert.equal(refused.duration, 1, 'no req/s to divide by: the asked duration')
  assert.equal(parseH2loadOutput(SAMPLE.replace('1.09ms', '1.5s')).latency[0], 1500)
  assert.throws(() => parseH2loadOutput('h2load: unknown option'), /h2load printed no summary/)
})

test('reports of a loader without percentiles show min, mean, sd and max, and draw no percentile curve', () => {
  const results = fakeResults()
  results.env.loader = { name: 'h2load', version: '1.52.0' }
  for (const sample of results.samples) {
    const r = parseH2loadOutput(SAMPLE)
    Object.assign(sample, { latency: r.latency, latencyMean: r.latencyMean, latencySd: r.latencySd })
  }
  results.summaries = summarizeAll(results)
  const table = renderTable(results)
  assert.match(table, /target\s+req\/s\s+min–max\s+× node-http\s+mean\s+sd/)
  assert.match(table, /node-http .* 6\.80 ms\s+3\.14 ms/)
  const html = renderHtml(results)
  assert.doesNotMatch(html, /Latency by percentile/)
  assert.match(html, /h2load reports no latency percentiles/)
  assert.match(html, /<th>min<\/th><th>mean<\/th><th>sd<\/th><th>max<\/th>/)
  const [head, row] = renderCsv(results).split('\r\n')
  const cols = head.split(',')
  assert.equal(row.split(',')[cols.indexOf('latency_mean_ms')], '6.8')
  assert.equal(row.split(',')[cols.indexOf('latency_p50_ms')], '')
})

test('the h2 profile: h2load, 10 connections x 10 streams, its targets and goal', () => {
  const o = parseOptions(['--profile', 'h2'])
  assert.equal(o.loader, 'h2load')
  assert.equal(o.connections, 10)
  assert.equal(h2hello.pipelining, 10)
  assert.deepEqual(o.targets, ['node-http2', 'fastify-h2', 'hotpath-h2'])
  assert.deepEqual(o.scenarios, ['h2-hello'])
  assert.deepEqual(o.goals.map((g) => [g.scenario, g.target, g.vs, g.metric, g.ratio]), [['h2-hello', 'hotpath-h2', 'fastify-h2', 'rps', 1.5]])
  assert.equal(parseOptions(['--profile', 'h2', '--connections', '4']).connections, 4)
})

test('a loader is never given a scenario in a protocol it does not speak', () => {
  assert.throws(() => parseOptions(['--scenarios', 'h2-hello']), /"h2-hello" is HTTP\/2: it needs --loader h2load/)
  assert.throws(() => parseOptions(['--profile', 'h2', '--scenarios', 'hello']), /"hello" is HTTP\/1\.1: --loader h2load times HTTP\/2 only/)
  assert.throws(() => parseOptions(['--loader', 'h2load', '--cmd', 'node s.js']), /--cmd is checked over HTTP\/1\.1/)
  assert.ok(!parseOptions(['--profile', 'full']).scenarios.includes('h2-hello'), '"all" scenarios are the HTTP/1.1 ones')
  assert.ok(!targetGroups.all.some((id) => targetGroups.h2.includes(id)), '"all" targets are the HTTP/1.1 ones')
})

/** Starts a registry target on a scenario, the way the runner does. */
function start (id, scenario) {
  const t = getTarget(id)
  return startServer({ file: t.file, env: { ...t.env, LAB_SCENARIO: scenario }, nodeBin: process.execPath, cpu: null, startTimeout: 0 })
}

for (const id of ['node-http2', 'fastify-h2']) {
  test(`${id} answers h2-hello over h2c with hello's bytes, on 10 concurrent streams`, { timeout: 60000 }, async () => {
    const srv = await start(id, 'h2-hello')
    try {
      const r = await checkTarget({ port: srv.port, scenario: h2hello })
      assert.deepEqual(r.problems, [])
      assert.equal(r.bodyBytes, Buffer.byteLength(getScenario('hello').expect.body))
    } finally {
      await srv.stop()
    }
  })
}

test('hotpath-h2 is either a conforming h2c server or says it is unsupported, with hotpath\'s reason', { timeout: 60000 }, async () => {
  let srv
  try {
    srv = await start('hotpath-h2', 'h2-hello')
  } catch (err) {
    assert.equal(err.unsupported, true, err.message)
    assert.match(err.message, /hotpath refuses http2/)
    return
  }
  try {
    assert.deepEqual((await checkTarget({ port: srv.port, scenario: h2hello })).problems, [])
  } finally {
    await srv.stop()
  }
})

test('a server of one protocol reports the other protocol\'s scenarios unsupported', { timeout: 60000 }, async () => {
  for (const [id, scenario] of [['node-http', 'h2-hello'], ['fastify', 'h2-hello'], ['node-http2', 'hello'], ['fastify-h2', 'hello']]) {
    await assert.rejects(start(id, scenario), (err) => err.unsupported === true && /this target speaks/.test(err.message), `${id} · ${scenario}`)
  }
})

test('the h2c conformance check fails an HTTP/1.1 server', { timeout: 30000 }, async (t) => {
  const server = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"hello":"world"}') })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => server.close())
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  const r = await checkTarget({ port, scenario: h2hello })
  assert.equal(r.ok, false)
  assert.match(r.problems[0], /request failed/)
})

const h2load = h2loadVersion()
test('h2 profile through h2load: node-http2 and fastify-h2 for 1 s each', { timeout: 120000, skip: h2load ? false : 'h2load is not installed (Debian: apt-get install nghttp2-client)' }, async (t) => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-h2-'))
  t.after(() => fs.rmSync(out, { recursive: true, force: true }))
  const stdout = new PassThrough()
  let text = ''
  stdout.on('data', (d) => { text += d })
  const { code, results } = await main(['--profile', 'h2', '--targets', 'node-http2,fastify-h2', '--duration', '1', '--rounds', '1', '--warmup', '0', '--no-html', '--out', out],
    { stdout, stderr: new PassThrough().resume() })
  assert.equal(code, 0)
  assert.equal(results.env.loader.name, 'h2load')
  assert.deepEqual(results.status.map((s) => [s.target, s.state]).sort(), [['fastify-h2', 'timed'], ['node-http2', 'timed']])
  assert.equal(results.samples.length, 2)
  for (const s of results.samples) {
    assert.ok(s.requests > 0, `${s.target} answered`)
    assert.equal(s.errors + s.timeouts + s.non2xx, 0, s.target)
    assert.ok(s.latencyMean > 0 && s.latency[100] >= s.latencyMean, `${s.target}: mean within max`)
    assert.equal(s.latency[50], null, 'h2load gives no percentiles')
  }
  assert.match(text, /h2-hello — .*\(10 streams per connection\)/)
  assert.match(text, /target\s+req\/s\s+min–max\s+× node:http2\s+mean\s+sd/)
})
