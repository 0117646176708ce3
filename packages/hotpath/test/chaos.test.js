// The short run of the crash hunt (test/fuzz/chaos.js): fixed seeds, both
// engines over sockets and inject, bounded to about 10 s. It runs the pinned
// regression cases first, then random ones; every failure names its case,
// which `node packages/hotpath/test/fuzz/chaos.js --seed S --case ID` replays.
import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import { runChaos, formatSummary } from './fuzz/chaos.js'

const MODES = ['node', 'wire', 'inject']
const SEED = 20_251_124

/** @type {Awaited<ReturnType<typeof runChaos>>} */
let summary

before(async () => {
  // the modes run side by side, each in its own server process
  summary = await runChaos({ seed: SEED, modes: MODES, ms: 6000, requests: 3000, concurrency: 32, batch: 128 })
  console.log(formatSummary(summary))
}, { timeout: 60_000 })

for (const mode of MODES) {
  test(`chaos [${mode}]: no crash, hang, leak or warning (seed ${SEED})`, () => {
    assert.ok(summary.modes[mode].requests > 0, 'requests were sent')
    const found = summary.failures.filter((f) => f.mode === mode || f.mode === 'client')
    assert.deepEqual(found.map((f) => `${f.kind} case ${f.caseId}: ${f.detail.split('\n')[0]}`), [])
  })
}
