// A node:test reporter that `hotpath check` adds to the runs it makes
// (through NODE_OPTIONS, beside the spec reporter the suite's output keeps):
// it writes nothing to its own destination, and appends one JSON line per
// finished test to a file in HOTPATH_CHECK_RESULTS, with the test's full
// name (its parents' names first), its file, and, for a failure, the first
// line of its error and where in the test file it was thrown.
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { firstErrorLine } from './errors.js'

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function * checkReporter (source) {
  const dir = process.env.HOTPATH_CHECK_RESULTS
  const out = dir ? join(dir, `node-test-${process.pid}.jsonl`) : null
  /** file → the names of the tests started, by nesting level */
  const stacks = new Map()
  for await (const { type, data } of source) {
    if (out === null) continue
    if (type === 'test:start') {
      let stack = stacks.get(data.file)
      if (stack === undefined) stacks.set(data.file, (stack = []))
      stack.length = data.nesting
      stack.push(data.name)
    } else if (type === 'test:pass' || type === 'test:fail') {
      if (data.details?.type === 'suite') continue
      const parents = (stacks.get(data.file) ?? []).slice(0, data.nesting)
      const record = {
        runner: 'node:test',
        name: [...parents, data.name].join(' › '),
        file: data.file ?? null,
        ok: type === 'test:pass',
        skipped: data.skip !== undefined || data.todo !== undefined,
        error: type === 'test:fail' ? firstErrorLine(data.details?.error, data.file) : null
      }
      appendFileSync(out, JSON.stringify(record) + '\n')
    }
  }
}
