// What a test run's output says when no result came from inside its
// processes: TAP lines (node:test's tap reporter, tap, any TAP producer),
// Jest's and Vitest's failure lines, and the summary lines of node:test,
// TAP, Jest, Vitest and Mocha. Tests are told apart only where the output
// names each one; otherwise only the counts are known.

/**
 * @typedef {{ name: string, file: string | null, ok: boolean, skipped: boolean, error: string | null, runner: string }} TestResult
 * @typedef {{ passed: number, failed: number, skipped: number }} Counts
 */

/**
 * Per-test results from TAP lines (`# Subtest: name` gives the parents).
 * @param {string} text
 * @returns {TestResult[]}
 */
export function tapResults (text) {
  const results = []
  /** @type {string[]} */
  const stack = []
  for (const line of text.split('\n')) {
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(line)
    if (subtest) {
      const depth = Math.floor(subtest[1].length / 4)
      stack.length = depth
      stack[depth] = subtest[2].trim()
      continue
    }
    const m = /^(\s*)(not )?ok \d+(?: - ([^#]*?))?\s*(#\s*(SKIP|TODO)\b.*)?$/i.exec(line)
    if (!m) continue
    const depth = Math.floor(m[1].length / 4)
    const name = (m[3] ?? '').trim()
    results.push({
      runner: 'tap',
      name: [...stack.slice(0, depth), name].join(' › '),
      file: null,
      ok: m[2] === undefined,
      skipped: m[5] !== undefined,
      error: null
    })
  }
  // a parent (a subtest with subtests of its own) is reported after them:
  // only the leaves are kept
  const names = new Set(results.map((r) => r.name))
  return results.filter((r) => ![...names].some((n) => n !== r.name && n.startsWith(r.name + ' › ')))
}

/**
 * The failures Jest and Vitest name: Jest's `● Describe › test` headings,
 * Vitest's ` FAIL  file > describe > test` lines.
 * @param {string} text
 * @returns {TestResult[]}
 */
export function namedFailures (text) {
  const out = []
  for (const line of text.split('\n')) {
    const jest = /^ {2}● (.+)$/.exec(line)
    if (jest && !/^Test suite failed to run/.test(jest[1]) && !/^Console$/.test(jest[1].trim())) {
      out.push({ runner: 'jest', name: jest[1].trim(), file: null, ok: false, skipped: false, error: null })
    }
    const vitest = /^\s*(?:FAIL|×|✗)\s+(\S+\.[cm]?[jt]sx?)\s+>\s+(.+)$/.exec(line)
    if (vitest) out.push({ runner: 'vitest', name: vitest[2].replace(/\s+>\s+/g, ' › ').trim(), file: vitest[1], ok: false, skipped: false, error: null })
  }
  return out
}

/**
 * The counts a runner's summary lines give (the last summary, when a command
 * ran several).
 * @param {string} text
 * @returns {Counts & { runner: string } | null}
 */
export function summaryCounts (text) {
  let found = null
  // node:test (spec: "ℹ pass 3"; tap: "# pass 3"), tap's own
  const tapLike = { pass: 0, fail: 0, skip: 0, seen: false }
  for (const m of text.matchAll(/^(?:#|ℹ) (pass|fail|skipped|todo) (\d+)\s*$/gm)) {
    tapLike.seen = true
    if (m[1] === 'pass') tapLike.pass += Number(m[2])
    else if (m[1] === 'fail') tapLike.fail += Number(m[2])
    else tapLike.skip += Number(m[2])
  }
  if (tapLike.seen) found = { runner: 'node:test', passed: tapLike.pass, failed: tapLike.fail, skipped: tapLike.skip }
  // Jest: "Tests:       1 failed, 2 skipped, 7 passed, 10 total"
  for (const m of text.matchAll(/^Tests:\s+(.*\d+ total)\s*$/gm)) found = { runner: 'jest', ...countWords(m[1]) }
  // Vitest: "      Tests  1 failed | 7 passed (8)"
  for (const m of text.matchAll(/^\s*Tests\s+(.*\(\d+\))\s*$/gm)) found = { runner: 'vitest', ...countWords(m[1]) }
  // Mocha: "  7 passing (20ms)", "  1 failing", "  2 pending"
  const mochaPass = [...text.matchAll(/^\s+(\d+) passing\b/gm)]
  if (mochaPass.length > 0) {
    const sum = (/** @type {RegExp} */ re) => [...text.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0)
    found = { runner: 'mocha', passed: sum(/^\s+(\d+) passing\b/gm), failed: sum(/^\s+(\d+) failing\b/gm), skipped: sum(/^\s+(\d+) pending\b/gm) }
  }
  return found
}

/** @param {string} words "1 failed, 2 skipped, 7 passed" or "1 failed | 7 passed" */
function countWords (words) {
  const count = (/** @type {RegExp} */ re) => Number(re.exec(words)?.[1] ?? 0)
  return { passed: count(/(\d+) passed/), failed: count(/(\d+) failed/), skipped: count(/(\d+) (?:skipped|todo|pending)/) }
}
