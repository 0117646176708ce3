import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fakeResults } from './fixture.js'
import { renderCsv, csvField, CSV_COLUMNS } from '../report/csv.js'
import { renderTable, renderProblems, renderMatrix, ratioMatrix } from '../report/table.js'
import { renderHtml, escapeHtml, ninesX } from '../report/html.js'
import { compareRuns, renderComparison } from '../report/compare.js'
import { evaluateGoals, renderGoals } from '../report/goals.js'
import { baseName } from '../runner/output.js'
import { summarizeAll } from '../runner/run.js'

test('csvField quotes what RFC 4180 requires', () => {
  assert.equal(csvField('plain'), 'plain')
  assert.equal(csvField('a,b'), '"a,b"')
  assert.equal(csvField('say "hi"'), '"say ""hi"""')
  assert.equal(csvField('two\nlines'), '"two\nlines"')
  assert.equal(csvField(null), '')
  assert.equal(csvField(undefined), '')
  assert.equal(csvField(1.23456), '1.235')
})

test('CSV: a header and one row per target × scenario × round', () => {
  const csv = renderCsv(fakeResults())
  const lines = csv.trimEnd().split('\r\n')
  assert.equal(lines.length, 1 + 6)
  assert.deepEqual(lines[0].split(','), CSV_COLUMNS)
  const first = lines[1].split(',')
  assert.equal(first.length, CSV_COLUMNS.length)
  assert.equal(first[CSV_COLUMNS.indexOf('target')], 'node-http')
  assert.equal(first[CSV_COLUMNS.indexOf('round')], '1')
  assert.equal(first[CSV_COLUMNS.indexOf('rps')], '30000')
})

test('terminal table: medians, ratio to node:http, targets not timed listed', () => {
  const r = fakeResults()
  const table = renderTable(r)
  assert.match(table, /node-http\s+31,000\s+30,000–32,000\s+1\.00×/)
  assert.match(table, /fastify\s+29,000\s+28,000–30,500\s+0\.94×/)
  assert.match(table, /express\s+failed conformance/)
  assert.match(renderProblems(r), /hello · express: failed conformance — status 500/)
})

test('a scenario with its own baseline (middleware: Express) takes its ratios against it', () => {
  const r = fakeResults({ labels: { fastify: 'Fastify', 'node-http': 'node:http' } })
  assert.match(renderTable(r), /× node:http/, 'node:http when the scenario names none (results of older runs too)')
  r.scenarios[0].baseline = 'fastify'
  const table = renderTable(r)
  assert.match(table, /min–max\s+× Fastify\s+p50/)
  assert.match(table, /fastify\s+29,000\s+28,000–30,500\s+1\.00×/)
  assert.match(table, /node-http\s+31,000\s+30,000–32,000\s+1\.07×/)
  const html = renderHtml(r)
  assert.match(html, /<th>× Fastify<\/th>/)
  assert.match(html, /31,000 \(1\.07×\)/, 'the bars carry the same ratio')
})

test('ratio matrix: targets × scenarios relative to node:http, — where not timed', () => {
  const r = fakeResults()
  assert.deepEqual(ratioMatrix(r, 'v20.20.2').map((x) => [x.target, x.cells[0] === null ? null : Number(x.cells[0].toFixed(3))]), [['node-http', 1], ['fastify', 0.935], ['express', null]])
  assert.equal(renderMatrix(r), '', 'one scenario: the per-scenario table says it all')
  const two = { ...r, scenarios: [...r.scenarios, { id: 'params', title: 'p', pipelining: 1 }] }
  assert.match(renderMatrix(two), /fastify\s+0\.94×\s+—/)
  assert.match(renderHtml(two), /<table class="matrix">/)
})

test('HTML: self-contained, one bar chart and one latency chart per scenario, text escaped', () => {
  const html = renderHtml(fakeResults({ labels: {} , rps: { 'node-http': [1, 2, 3], '<script>alert(1)</script>': [1, 1, 1] } }))
  assert.match(html, /^<!doctype html>/)
  assert.equal(html.match(/<svg [^>]*class="bars"/g).length, 1)
  assert.equal(html.match(/<svg [^>]*class="curves"/g).length, 1)
  assert.ok(!html.includes('<script>'), 'labels are escaped')
  assert.ok(html.includes('&lt;script&gt;'))
  assert.ok(!/\s(src|href)="?https?:/i.test(html), 'no external resources')
  assert.ok(!/<script/i.test(html), 'no scripts')
  assert.match(html, /failed conformance — status 500/)
  assert.equal(escapeHtml('a&"\'<>'), 'a&amp;&quot;&#39;&lt;&gt;')
})

test('latency x axis: each nine is one step', () => {
  assert.equal(ninesX(0), 0)
  assert.ok(Math.abs(ninesX(90) - 1) < 1e-9)
  assert.ok(Math.abs(ninesX(99) - 2) < 1e-9)
  assert.ok(Math.abs(ninesX(99.9) - 3) < 1e-9)
})

test('goals: ratio of medians against the goal', () => {
  const v = evaluateGoals(fakeResults())
  assert.equal(v.length, 1)
  assert.ok(Math.abs(v[0].value - 29000 / 31000) < 1e-9)
  assert.equal(v[0].met, false)
  assert.match(renderGoals(v), /MISS {2}hello: fastify req\/s \/ node-http = 0\.94× \(goal ≥ 0\.97, test\)/)
  const unmeasured = evaluateGoals({ ...fakeResults(), goals: [{ scenario: 'hello', target: 'express', vs: 'node-http', metric: 'rps', ratio: 1, source: 't' }] })
  assert.equal(unmeasured[0].met, null)
  assert.match(renderGoals(unmeasured), /express not timed/)
  const notRun = evaluateGoals({ ...fakeResults(), goals: [{ scenario: 'params', target: 'fastify', vs: 'node-http', metric: 'rps', ratio: 1, source: 't' }, { scenario: 'hello', target: 'koa', vs: 'node-http', metric: 'rps', ratio: 1, source: 't' }] })
  assert.deepEqual(notRun, [], 'goals of scenarios or targets outside the run are left out')
})

test('goals: a p99 the loader could not place leaves the goal unknown, never met', () => {
  const results = fakeResults()
  const fastify = results.summaries.find((s) => s.target === 'fastify')
  fastify.latency = { ...fastify.latency, 99: null }
  const v = evaluateGoals({ ...results, goals: [{ scenario: 'hello', target: 'fastify', vs: 'node-http', metric: 'p99', ratio: 1, source: 't' }] })
  assert.equal(v[0].value, null)
  assert.equal(v[0].met, null)
  assert.match(renderGoals(v), /\? {2}hello: fastify p99 latency \/ node-http = — \(a figure is missing\)/)
})

test('peak RSS: the highest round of the server process, in the goal and in the table', () => {
  const results = fakeResults()
  // node:http climbs from round to round; fastify stays flat just above
  // node:http's median but below its highest round
  const MiB = 1048576
  const rss = { 'node-http': [72, 72, 86], fastify: [74, 74, 75] }
  for (const s of results.samples) s.rss = rss[s.target][s.round] * MiB
  results.summaries = summarizeAll(results)
  const v = evaluateGoals({ ...results, goals: [{ scenario: 'hello', target: 'fastify', vs: 'node-http', metric: 'rss', ratio: 1, source: 't' }] })
  assert.equal(v[0].value, 75 / 86)
  assert.equal(v[0].met, true)
  assert.match(renderGoals(v), /ok {2}hello: fastify peak RSS \/ node-http = 0\.87× \(goal ≤ 1, t\)/)
  const table = renderTable(results)
  assert.match(table, /peak RSS/)
  assert.match(table.split('\n').find((l) => l.startsWith('node-http')), / 86 MiB /)
  assert.match(table.split('\n').find((l) => l.startsWith('fastify')), / 75 MiB /)
})

test('compare: a change is called only outside both noise bands', () => {
  const a = fakeResults()
  const faster = fakeResults({ rps: { 'node-http': [40000, 41000, 42000], fastify: [29000, 30000, 31000] } })
  const rows = compareRuns(a, faster)
  const byTarget = Object.fromEntries(rows.map((r) => [r.target, r]))
  assert.equal(byTarget['node-http'].verdict, 'faster')
  assert.ok(Math.abs(byTarget['node-http'].change - (41000 / 31000 - 1)) < 1e-9)
  assert.equal(byTarget.fastify.verdict, 'within noise')
  assert.equal(compareRuns(faster, a).find((r) => r.target === 'node-http').verdict, 'slower')
  assert.ok(!rows.some((r) => r.target === 'express'), 'a target not timed is not compared')
  const single = fakeResults({ rps: { 'node-http': [50000], fastify: [1] } })
  assert.equal(compareRuns(a, single).find((r) => r.target === 'node-http').verdict, 'no noise band (1 round)')
  const text = renderComparison(rows, a, faster)
  assert.match(text, /node-http\s+31,000 ±3\.2%\s+41,000 ±2\.4%\s+\+32\.3 %\s+faster/)
})

test('results file name: date, node version, host', () => {
  assert.equal(baseName(fakeResults()), '2026-11-22T04-00-00Z-node20.20.2-box')
})

test('goals: the cpu metric compares CPU per request, lower is better', () => {
  const results = fakeResults()
  for (const s of results.summaries) s.cpuUsPerReq = { median: s.target === 'fastify' ? 30 : 20, min: 0, max: 0 }
  const v = evaluateGoals({ ...results, goals: [{ scenario: 'hello', target: 'fastify', vs: 'node-http', metric: 'cpu', ratio: 1.6, source: 't' }] })
  assert.equal(v[0].value, 1.5)
  assert.equal(v[0].met, true)
  // the throughput each ran at goes with it: a slower server pays more of the kernel's time a request
  const rps = (id) => results.summaries.find((s) => s.target === id).rps.median
  assert.equal(v[0].throughput, rps('fastify') / rps('node-http'))
  assert.match(renderGoals(v), new RegExp(` ok {2}hello: fastify CPU per request \\/ node-http = 1\\.50×, at ${(rps('fastify') / rps('node-http')).toFixed(2).replace('.', '\\.')}× its req\\/s \\(goal ≤ 1\\.6, t\\)`))
})
