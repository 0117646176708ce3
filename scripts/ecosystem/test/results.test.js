// The ecosystem measure's bookkeeping, without the network: the reporter's
// lines of a real node:test run become leaf results, two runs compare, and
// the page's table is rewritten between its markers.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { leafResults, compare, renderTable, replaceSection, START, END } from '../results.js'

const reporter = fileURLToPath(new URL('../reporter.mjs', import.meta.url))

/** Runs `source` as a test file with the measure's reporter; its leaf results. */
function runWithReporter (source) {
  const dir = mkdtempSync(join(tmpdir(), 'ecosystem-test-'))
  writeFileSync(join(dir, 'suite.test.cjs'), source)
  // without the variable by which node:test tells a file it runs under a
  // test runner: the child would report to this runner instead of to ours
  const { NODE_TEST_CONTEXT, ...env } = process.env
  const r = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, 'suite.test.cjs'], { cwd: dir, encoding: 'utf8', env })
  return leafResults('suite.test.cjs', r.stdout)
}

test('leaf tests are counted by path; suites, parents, skipped and todo tests are not', () => {
  const results = runWithReporter(`
    const { test, describe, it } = require('node:test')
    test('parent', async (t) => {
      await t.test('child passes', () => {})
      await t.test('child fails', () => { throw new Error('boom') })
    })
    describe('suite', () => {
      it('passes', () => {})
      it.skip('is skipped', () => {})
      it.todo('is todo')
    })
    test('same name', () => {})
    test('same name', () => { throw new Error('second') })
  `)
  assert.deepEqual([...results.keys()], [
    'suite.test.cjs > parent > child passes',
    'suite.test.cjs > parent > child fails',
    'suite.test.cjs > suite > passes',
    'suite.test.cjs > same name',
    'suite.test.cjs > same name #2'
  ])
  assert.deepEqual(results.get('suite.test.cjs > parent > child passes'), { ok: true })
  assert.equal(results.get('suite.test.cjs > parent > child fails').ok, false)
  assert.match(results.get('suite.test.cjs > parent > child fails').error, /boom/)
  assert.equal(results.get('suite.test.cjs > same name #2').ok, false)
})

test('a file that fails to load is one failing test', () => {
  const results = runWithReporter("require('no-such-package-anywhere')")
  assert.equal(results.size, 1)
  assert.equal([...results.values()][0].ok, false)
})

test('the figure counts only tests that pass on Fastify, and names the others that fail on hotpath', () => {
  const onFastify = new Map([['a', { ok: true }], ['b', { ok: true }], ['c', { ok: false }], ['d', { ok: true }]])
  const onHotpath = new Map([['a', { ok: true }], ['b', { ok: false, error: 'expected 200' }], ['c', { ok: true }]])
  assert.deepEqual(compare(onFastify, onHotpath), {
    total: 3,
    passing: 1,
    failing: [{ test: 'b', error: 'expected 200' }, { test: 'd', error: 'did not run' }]
  })
})

test('the table sums the plugins, and replaces only the text between the markers', () => {
  const table = renderTable([
    { name: '@fastify/a', version: '1.0.0', passing: 9, total: 10 },
    { name: '@fastify/b', version: '2.0.0', passing: 1000, total: 1000 }
  ])
  assert.equal(table.split('\n').at(-1), '| **total** | | **1,009/1,010** | **99.9 %** |')
  assert.match(table, /\| @fastify\/a \| 1\.0\.0 \| 9\/10 \| 90\.0 % \|/)
  const page = `# Title\n\n${START}\nold table\n${END}\n\nAfter.\n`
  assert.equal(replaceSection(page, 'new table'), `# Title\n\n${START}\nnew table\n${END}\n\nAfter.\n`)
  assert.throws(() => replaceSection('# no markers', 'x'), /no <!-- ecosystem:start -->/)
})
