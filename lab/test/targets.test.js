// Every target starts and passes conformance (exact bytes, bad input → 400)
// on the scenarios whose code differs most between frameworks. A target that
// breaks here would be reported as failed by `npm run bench`.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { targets } from '../targets/index.js'
import { getScenario } from '../scenarios/index.js'
import { startServer } from '../runner/server.js'
import { checkTarget } from '../runner/conformance.js'

const scenarios = ['hello', 'json-post', 'hooks'].map(getScenario)

// the traced twins run the same files: otel.test.js checks them against these;
// the HTTP/2 servers serve h2-hello only (h2.test.js)
for (const target of targets.filter((t) => !t.untraced && (t.protocol ?? 'h1') === 'h1')) {
  test(`target ${target.id} answers every checked scenario correctly`, { timeout: 60000 }, async () => {
    for (const scenario of scenarios) {
      const srv = await startServer({ file: target.file, env: { ...target.env, LAB_SCENARIO: scenario.id }, nodeBin: process.execPath, cpu: null, startTimeout: 0 })
      try {
        const r = await checkTarget({ port: srv.port, scenario })
        assert.deepEqual(r.problems, [], `${target.id} · ${scenario.id}`)
      } finally {
        await srv.stop()
      }
    }
  })
}

test('a target that does not serve a scenario says so instead of failing', async () => {
  const target = targets.find((t) => t.id === 'node-http')
  await assert.rejects(startServer({ file: target.file, env: { LAB_SCENARIO: 'no-such-scenario' }, nodeBin: process.execPath, cpu: null, startTimeout: 0 }),
    (err) => err.unsupported === true)
})
