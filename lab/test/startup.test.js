// The startup profile, on a small app: every target's process answers its
// first request correctly and reports its figures; the table and CSV hold
// them. No assertion on timing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runStartup, renderStartupTable, writeStartupResults, startupTargetIds } from '../runner/startup.js'

test('startup: each target builds the app, answers its first request and reports its figures', async () => {
  const results = await runStartup({ targets: startupTargetIds, routes: [5], rounds: 1, roundsBySize: {}, timeout: 120, baselineHotpath: null, pin: null, out: '' }, { log: () => {} })
  assert.deepEqual(results.failures, [])
  assert.equal(results.samples.length, startupTargetIds.length)
  for (const s of results.samples) {
    assert.ok(s.readyMs > 0 && s.firstAnswerMs >= s.readyMs, `${s.target}: ${JSON.stringify(s)}`)
    assert.ok(s.rss > 0)
  }
  const table = renderStartupTable(results)
  for (const id of startupTargetIds) assert.match(table, new RegExp(`^${id} `, 'm'))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-startup-'))
  try {
    const files = writeStartupResults(results, dir)
    const csv = fs.readFileSync(files.csv, 'utf8').trim().split('\r\n')
    assert.equal(csv.length, 1 + startupTargetIds.length)
    assert.equal(JSON.parse(fs.readFileSync(files.json, 'utf8')).kind, 'startup')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
