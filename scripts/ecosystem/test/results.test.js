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
import { leafResults, tapLines, compare, renderTable, renderNotRun, replaceSection, globToRegExp, START, END } from '../results.js'

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

test("a tap file's output: tests are the points a Subtest line announces, assertions are not counted", () => {
  // as tap 16 prints it for a file run by itself
  const output = [
    'TAP version 13',
    '# Subtest: parent',
    '    # Subtest: child ok',
    '        ok 1 - should be equal',
    '        1..1',
    '    ok 1 - child ok # time=5.479ms',
    '    # Subtest: child bad',
    '        not ok 1 - one is two',
    '          ---',
    '          found: 1',
    '          wanted: 2',
    '          ...',
    '        1..1',
    '    not ok 2 - child bad # time=15.195ms',
    '    ok 3 - skipped # SKIP',
    '    1..3',
    'not ok 1 - parent # time=27.747ms',
    '# Subtest: plain',
    '    ok 1 - x',
    '    1..1',
    'ok 2 - plain # time=0.35ms',
    '# Subtest: later',
    '    ok 1 - x',
    'ok 3 - later # TODO not yet',
    'ok 4 - top-level assertion',
    '1..4'
  ].join('\n')
  const results = leafResults('t.js', tapLines(output))
  assert.deepEqual([...results.keys()], ['t.js > parent > child ok', 't.js > parent > child bad', 't.js > plain'])
  assert.deepEqual(results.get('t.js > parent > child bad'), { ok: false, error: 'one is two; found: 1; wanted: 2' })
})

test('test file patterns, and the list of plugins not run', () => {
  const files = ['test/commonjs/a.js', 'test/commonjs/x/a.js', 'test/issues/1/test.js', 'test/a.test.js', 'test/b/c/a.test.js']
  assert.deepEqual(files.filter((f) => globToRegExp('test/commonjs/*.js').test(f)), ['test/commonjs/a.js'])
  assert.deepEqual(files.filter((f) => globToRegExp('test/issues/*/test.js').test(f)), ['test/issues/1/test.js'])
  assert.deepEqual(files.filter((f) => globToRegExp('test/**/*.test.js').test(f)), ['test/a.test.js', 'test/b/c/a.test.js'])
  assert.equal(renderNotRun([{ name: '@fastify/b', why: 'y' }, { name: '@fastify/a', why: 'x' }]), 'Not run:\n\n- @fastify/a: x\n- @fastify/b: y')
  assert.equal(renderNotRun([]), '')
})

test('the plugin list: each plugin once, run or not, with how it runs', async () => {
  const { plugins, notRun } = await import('../plugins.js')
  const names = [...plugins, ...notRun].map((p) => p.name)
  assert.equal(new Set(names).size, names.length)
  for (const p of plugins) {
    assert.match(p.version, /^\d+\.\d+\.\d+$/, p.name)
    assert.ok(p.runner === undefined || p.runner === 'node' || p.runner === 'tap', p.name)
  }
  for (const p of notRun) assert.ok(p.why.length > 0, p.name)
})
