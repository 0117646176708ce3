'use strict'
// Runs this example's Jest suite (Jest's default CommonJS mode, and ts-jest
// for the TypeScript spec) and checks that every spec loaded hotpath and
// passed: Jest's own module loader cannot load an ES module, so this fails
// without hotpath's CommonJS build (packages/hotpath/cjs/, built by npm's
// `prepare`).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { execFile } = require('node:child_process')
const { mkdtempSync, readFileSync, rmSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const root = join(__dirname, '..')

test('the Jest suite passes in CommonJS mode', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-jest-'))
  const outputFile = join(dir, 'results.json')
  const env = { ...process.env }
  // node --test's own variable for its child processes: Jest is not one
  delete env.NODE_TEST_CONTEXT
  delete env.NODE_OPTIONS
  try {
    const jest = require.resolve('jest/bin/jest', { paths: [root] })
    const run = await new Promise((resolve) => {
      execFile(process.execPath, [jest, '--ci', '--runInBand', '--json', '--outputFile', outputFile], { cwd: root, env },
        (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stderr }))
    })
    assert.equal(run.code, 0, run.stderr)
    const results = JSON.parse(readFileSync(outputFile, 'utf8'))
    const files = results.testResults.map((r) => `${r.name.slice(root.length + 1)}: ${r.status}`).sort()
    assert.deepEqual(files, ['test/app.spec.js: passed', 'test/app.spec.ts: passed', 'test/fastify.spec.js: passed'])
    assert.equal(results.numFailedTests, 0)
    assert.equal(results.numPassedTests, 9)
    assert.equal(results.success, true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
