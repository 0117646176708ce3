// What `hotpath check` reads from a run's output when no result came from
// inside its processes: node:test's TAP, Jest's and Vitest's failure lines,
// the runners' summary lines. The samples are these runners' output as they
// print it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { tapResults, namedFailures, summaryCounts } from '../check/output.js'
import { firstErrorLine, frameIn } from '../check/errors.js'

const NODE_TAP = `TAP version 13
# Subtest: one
ok 1 - one
  ---
  duration_ms: 4.896192
  ...
# Subtest: two
not ok 2 - two
  ---
  error: '1 == 2'
  ...
# Subtest: outer
    # Subtest: inner
    ok 1 - inner
      ---
      duration_ms: 0.117642
      ...
    # Subtest: later
    ok 2 - later # SKIP
      ...
    1..2
ok 3 - outer
  ...
1..3
# tests 5
# suites 0
# pass 3
# fail 1
# cancelled 0
# skipped 1
# todo 0
`

test('TAP: each leaf test with its parents, outcome and skip; the parents themselves are not counted', () => {
  assert.deepEqual(tapResults(NODE_TAP).map((r) => [r.name, r.ok, r.skipped]), [
    ['one', true, false],
    ['two', false, false],
    ['outer › inner', true, false],
    ['outer › later', true, true]
  ])
  assert.deepEqual(summaryCounts(NODE_TAP), { runner: 'node:test', passed: 3, failed: 1, skipped: 1 })
})

const JEST = `PASS test/app.spec.js
FAIL test/types.spec.ts
  ● users › creates one

    expect(received).toBe(expected) // Object.is equality

  ● health answers

    TypeError: nope

Test Suites: 1 failed, 1 passed, 2 total
Tests:       2 failed, 1 skipped, 6 passed, 9 total
Snapshots:   0 total
Time:        1.2 s
`

test('Jest: the failures it names (● lines) and its Tests: line', () => {
  assert.deepEqual(namedFailures(JEST).map((r) => r.name), ['users › creates one', 'health answers'])
  assert.deepEqual(summaryCounts(JEST), { runner: 'jest', passed: 6, failed: 2, skipped: 1 })
})

const VITEST = ` ❯ test/app.test.ts (3 tests | 1 failed) 12ms
   × routes > answers 404
 FAIL  test/app.test.ts > routes > answers 404
AssertionError: expected 500 to be 404

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
`

test('Vitest: its FAIL lines and its Tests line', () => {
  const failures = namedFailures(VITEST)
  assert.deepEqual(failures.map((r) => [r.file, r.name]), [['test/app.test.ts', 'routes › answers 404']])
  assert.deepEqual(summaryCounts(VITEST), { runner: 'vitest', passed: 2, failed: 1, skipped: 0 })
})

const MOCHA = `
  the application
    ✔ greets by name
    1) answers errors
    - a test left for later


  1 passing (18ms)
  1 pending
  1 failing
`

test('Mocha: its passing, pending and failing lines', () => {
  assert.deepEqual(summaryCounts(MOCHA), { runner: 'mocha', passed: 1, failed: 1, skipped: 1 })
})

test('output that names no test and has no summary gives nothing to read', () => {
  assert.deepEqual(tapResults('all good\n'), [])
  assert.deepEqual(namedFailures('all good\n'), [])
  assert.equal(summaryCounts('all good\n'), null)
})

test("a failure's first line: the assertion a test runner wraps, and its line in the test file", () => {
  const cause = new Error('expected 200, got 500\nmore detail')
  cause.stack = 'Error: expected 200, got 500\n    at helper (/app/node_modules/x/index.js:1:1)\n    at TestContext.<anonymous> (/app/test/routes.test.js:42:7)\n    at Test.run (node:internal/test_runner/test:796:25)'
  const wrapped = Object.assign(new Error('test failed'), { code: 'ERR_TEST_FAILURE', cause })
  assert.equal(firstErrorLine(wrapped, '/app/test/routes.test.js'), 'expected 200, got 500 (/app/test/routes.test.js:42:7)')
  assert.equal(firstErrorLine(wrapped, 'file:///app/test/routes.test.js'), 'expected 200, got 500 (/app/test/routes.test.js:42:7)')
  assert.equal(frameIn(cause.stack, undefined), '/app/test/routes.test.js:42:7')
  assert.equal(firstErrorLine(null, undefined), null)
})
