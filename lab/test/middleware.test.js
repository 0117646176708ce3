// The middleware scenario: every target that runs Express middleware
// unmodified passes its conformance (gzip, CORS and helmet headers, the
// preflight, malformed JSON → 400) and sends the very same gzip bytes; every
// other target says it does not serve it, so a run reports it `unsupported`
// instead of `failed`.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { targets } from '../targets/index.js'
import { getScenario } from '../scenarios/index.js'
import { startServer } from '../runner/server.js'
import { checkTarget } from '../runner/conformance.js'
import { exchange } from '../runner/http-client.js'

const scenario = getScenario('middleware')
const SERVING = ['hotpath-node', 'hotpath-wire', 'express', 'polka']

// startTimeout 0: wait until the target listens or exits, however long a
// loaded machine takes; the test's timeout bounds a hang
/** @param {import('../targets/index.js').Target} target */
const start = (target) => startServer({ file: target.file, env: { ...target.env, LAB_SCENARIO: scenario.id }, nodeBin: process.execPath, cpu: null, startTimeout: 0 })

test('the middleware scenario is taken against Express, the plainest host of the stack', () => {
  assert.equal(scenario.baseline, 'express')
  assert.ok(SERVING.includes(scenario.baseline))
})

/** The gzip body each serving target sent to the timed request. */
const gzipped = new Map()

for (const target of targets.filter((t) => SERVING.includes(t.id))) {
  test(`target ${target.id} runs the middleware stack correctly`, { timeout: 60000 }, async () => {
    const srv = await start(target)
    try {
      const r = await checkTarget({ port: srv.port, scenario })
      assert.deepEqual(r.problems, [], target.id)
      const [res] = await exchange({ port: srv.port, request: scenario.request })
      gzipped.set(target.id, res.body)
    } finally {
      await srv.stop()
    }
  })
}

test('every serving target sends the same gzip bytes (one zlib, one input)', () => {
  assert.equal(gzipped.size, SERVING.length, 'every serving target answered')
  const [first, ...rest] = [...gzipped]
  for (const [id, body] of rest) assert.ok(body.equals(first[1]), `${id}'s gzip bytes differ from ${first[0]}'s`)
})

test('the other targets exit as not serving the scenario', { timeout: 120000 }, async () => {
  // a traced twin (otel.test.js) serves what its untraced target serves
  const others = targets.filter((t) => !SERVING.includes(t.untraced ?? t.id))
  assert.ok(others.length > 0)
  await Promise.all(others.map((t) => assert.rejects(start(t), (err) => err.unsupported === true, t.id)))
})
