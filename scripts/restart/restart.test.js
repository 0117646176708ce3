// A short restart soak (scripts/restart/index.js) must lose nothing: behind
// nginx, each of two instances restarted once under GET + POST keep-alive
// load, on the wire and node engines, with more clients (50) than nginx
// keeps upstream connections (keepalive 32), so nginx opens new ones all
// along, and two CPU burners running; and under node:cluster, both workers
// replaced once, on wire and on HTTP/2 (where a request the server refused
// unprocessed, REFUSED_STREAM, is sent again once, as RFC 9113 §8.7
// allows: scripts/restart/h2-client.js). Every request answered 2xx, no
// socket error, and both instances served. Skipped, with the way to install it, where nginx is
// missing. Real Fastify is measured by `npm run soak:restart`, not here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const soak = fileURLToPath(new URL('./index.js', import.meta.url))

/**
 * Runs the soak with `args`; resolves with its exit code, stderr and report.
 * @param {string[]} args
 */
async function runSoak (args) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-restart-test-'))
  const out = join(dir, 'report.json')
  try {
    // the soak bounds itself (--time-limit) and kills its children on exit
    const child = spawn(process.execPath, [soak, ...args, '--out', out, '--time-limit', '150', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const code = await new Promise((resolve) => child.once('exit', resolve))
    let report = null
    try { report = JSON.parse(readFileSync(out, 'utf8')) } catch {}
    return { code, stdout, stderr, report }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Every request 2xx, no socket error, every restart done, each request
 * counted exactly once.
 * @param {any} run
 */
function assertNothingLost (run) {
  const where = `${run.mode} ${run.target}`
  assert.equal(run.error, undefined, `${where}: ${run.error}`)
  assert.equal(run.accounted, true, `${where}: every request counted once`)
  assert.ok(run.stats.sent > 0, `${where}: requests were sent`)
  const non2xx = Object.entries(run.stats.status).filter(([status]) => !status.startsWith('2'))
  assert.deepEqual(Object.fromEntries(non2xx), {}, `${where}: answers other than 2xx`)
  assert.deepEqual(run.stats.errors, {}, `${where}: socket errors`)
  assert.equal(run.stats.badBody, 0, `${where}: 2xx with an unexpected body`)
  assert.equal(run.restartsDone, run.restartsPlanned, `${where}: restarts done`)
}

test('behind nginx, 50 clients and two CPU burners, restarting each instance once loses no request (hotpath, wire and node engines)', { timeout: 180_000 }, async (t) => {
  const r = await runSoak(['--mode', 'nginx', '--targets', 'hotpath-wire,hotpath-node', '--restarts', '1', '--duration', '3', '--clients', '50', '--burners', '2'])
  if (r.code === 2 && /apt-get install nginx/.test(r.stderr)) {
    t.skip(r.stderr.trim())
    return
  }
  assert.ok(r.report, `no report (exit ${r.code}): ${r.stderr}`)
  assert.deepEqual(r.report.runs.map((/** @type {any} */ run) => run.target), ['hotpath-wire', 'hotpath-node'])
  for (const run of r.report.runs) {
    assertNothingLost(run)
    // instances are labelled a#0, a#1 (after its restart), b#0…
    const slots = new Set(Object.keys(run.stats.instances).filter((label) => run.stats.instances[label] > 0).map((label) => label.split('#')[0]))
    assert.deepEqual([...slots].sort(), ['a', 'b'], `${run.target}: both instances served`)
    assert.ok(run.stats.instances['a#1'] > 0 && run.stats.instances['b#1'] > 0, `${run.target}: both restarted instances served`)
  }
  assert.equal(r.code, 0, r.stderr)
})

test('under node:cluster, replacing both workers once loses no request (hotpath, wire engine; h2, a refused request sent again)', { timeout: 120_000 }, async () => {
  const r = await runSoak(['--mode', 'cluster', '--targets', 'hotpath-wire,hotpath-h2', '--restarts', '1', '--duration', '3', '--clients', '8'])
  assert.ok(r.report, `no report (exit ${r.code}): ${r.stderr}`)
  assert.deepEqual(r.report.runs.map((/** @type {any} */ run) => run.target), ['hotpath-wire', 'hotpath-h2'])
  for (const run of r.report.runs) {
    assertNothingLost(run)
    const workers = Object.keys(run.stats.instances).filter((label) => run.stats.instances[label] > 0)
    assert.ok(workers.length >= 2, `${run.target}: more than one worker served: ${workers.join(', ')}`)
  }
  // HTTP/1.1 has no unprocessed-request signal: nothing is ever sent again there
  assert.equal(r.report.runs[0].stats.retried, 0)
  assert.equal(r.code, 0, r.stderr)
})
