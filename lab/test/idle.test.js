// The idle profile, with a few connections: every target answers, holds
// its connections open and reports its memory before and after; the table
// and CSV hold the figures. The open-file plan is checked on its own. No
// assertion on the figures themselves (memory, like time, is the
// machine's).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runIdle, renderIdleTable, writeIdleResults, idleTargetIds, fdPlan, IdleSetupError, IDLE_CSV_COLUMNS } from '../runner/idle.js'

test('idle: every target holds its connections open and reports its memory', async () => {
  const connections = 20
  const results = await runIdle({ targets: idleTargetIds, connections, rounds: 1, concurrency: 10, keepAliveMs: 600_000, heapSnapshots: null, baselineHotpath: null, pin: null, out: '' }, { log: () => {} })
  assert.deepEqual(results.failures, [])
  assert.equal(results.samples.length, idleTargetIds.length)
  for (const s of results.samples) {
    assert.equal(s.held, connections, `${s.target}: every connection is still open when measured`)
    assert.equal(s.failed, 0, `${s.target}: ${s.problems.join('; ')}`)
    assert.ok(s.before.rss > 0 && s.after.rss > 0 && s.after.heapUsed > 0)
    assert.ok(Number.isFinite(s.rssPerConn) && Number.isFinite(s.heapUsedPerConn) && Number.isFinite(s.outsideHeapPerConn))
  }
  // node:http's keep-alive timeout was raised by the probe, as every server's
  assert.ok(results.samples.find((s) => s.target === 'node-http').keepAliveSet >= 1)
  const table = renderIdleTable(results)
  for (const id of idleTargetIds) assert.match(table, new RegExp(`^${id} `, 'm'))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-idle-'))
  try {
    const files = writeIdleResults(results, dir)
    const csv = fs.readFileSync(files.csv, 'utf8').trim().split('\r\n')
    assert.equal(csv.length, 1 + idleTargetIds.length)
    assert.equal(csv[0], IDLE_CSV_COLUMNS.join(','))
    assert.equal(JSON.parse(fs.readFileSync(files.json, 'utf8')).kind, 'idle')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('idle: the open files a run needs, raised up to the hard limit, else a clear refusal', () => {
  assert.deepEqual(fdPlan(10000, { soft: 20000, hard: 20000 }).launcher, [])
  const raised = fdPlan(10000, { soft: 1024, hard: 1048576 })
  assert.equal(raised.need, 10064)
  assert.deepEqual(raised.launcher.slice(0, 3), ['sh', '-c', 'ulimit -S -n 10064 && exec "$@"'])
  assert.match(raised.note, /raised from 1024 to 10064/)
  assert.throws(() => fdPlan(10000, { soft: 1024, hard: 4096 }), (err) => err instanceof IdleSetupError && /ulimit -Hn/.test(err.message) && /--connections 4032 or fewer/.test(err.message))
  assert.deepEqual(fdPlan(100, { soft: NaN, hard: NaN }).launcher, [])
})
