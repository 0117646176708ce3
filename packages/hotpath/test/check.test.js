// `hotpath check` on the repository's examples, as a user runs it: the
// application's own test command run on Fastify and on hotpath, and the
// report (its --json form) read here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const bin = fileURLToPath(new URL('../bin/hotpath.js', import.meta.url))
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url))
const modules = fileURLToPath(new URL('../../../node_modules', import.meta.url))
const require = createRequire(import.meta.url)

/**
 * Runs `hotpath check <args>` in `cwd`; resolves its exit code, output and
 * JSON report.
 * @param {string} cwd @param {string[]} args
 */
async function check (cwd, args) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-check-test-'))
  const json = join(dir, 'report.json')
  // the runs must not see this suite's own node:test context
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined, HOTPATH_ENGINE: undefined }
  const child = spawn(process.execPath, [bin, 'check', '--json', json, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c) => { stdout += c })
  child.stderr.on('data', (c) => { stderr += c })
  const code = await new Promise((resolve) => child.on('close', resolve))
  let report = null
  try { report = JSON.parse(readFileSync(json, 'utf8')) } catch {}
  rmSync(dir, { recursive: true, force: true })
  return { code, stdout, stderr, report }
}

const names = (list) => list.map((d) => d.name)

test('a node:test suite with a difference planted: the one test is listed on each engine, with its error and line; a child process runs on hotpath too', { timeout: 180_000 }, async () => {
  const { code, stdout, report } = await check(join(examples, 'check-fastify-app'), ['--', process.execPath, '--test'])
  assert.equal(code, 1, stdout)
  assert.equal(report.fastify.exitCode, 0)
  assert.deepEqual(report.fastify.counts, { passed: 10, failed: 0, skipped: 0 })
  assert.equal(report.fastify.readFrom, 'reporter')
  assert.deepEqual(report.hotpath.map((h) => h.engine), ['wire', 'node'])
  for (const h of report.hotpath) {
    assert.equal(h.comparedBy, 'test by test')
    assert.deepEqual(names(h.passingOnFastifyFailingOnHotpath), ["Fastify's internal state says the app is listening"], h.engine)
    const [planted] = h.passingOnFastifyFailingOnHotpath
    assert.match(planted.file, /internals\.test\.js$/)
    assert.match(planted.error, /reading 'listening'.*internals\.test\.js:\d+:\d+/)
    assert.deepEqual(h.failingOnFastifyPassingOnHotpath, [])
    assert.deepEqual(h.runOnFastifyNotOnHotpath, [])
    // server.test.js asserts that its child serves on hotpath in these runs
    assert.deepEqual(h.run.counts, { passed: 9, failed: 1, skipped: 0 })
    assert.equal(h.differs, true)
  }
  assert.match(stdout, /passing on Fastify, failing on hotpath: 1\n {4}test\/internals\.test\.js › Fastify's internal state says the app is listening/)
})

test('a Mocha suite: every test read from Mocha itself, no difference, exit code 0', { timeout: 180_000 }, async () => {
  const mocha = require.resolve('mocha/bin/mocha.js', { paths: [join(examples, 'check-mocha')] })
  const { code, stdout, report } = await check(join(examples, 'check-mocha'), ['--', process.execPath, mocha])
  assert.equal(code, 0, stdout)
  for (const run of [report.fastify, ...report.hotpath.map((h) => h.run)]) {
    assert.equal(run.readFrom, 'reporter')
    assert.deepEqual(run.counts, { passed: 4, failed: 0, skipped: 1 })
  }
  for (const h of report.hotpath) assert.equal(h.differs, false)
  assert.match(stdout, /No test that passes on Fastify fails on hotpath\./)
})

test('the NestJS example, its adapter making its own instance from `fastify`: every request, over HTTP and inject(), the same on hotpath', { timeout: 240_000 }, async () => {
  const { code, stdout, report } = await check(join(examples, 'nest'), ['--engine', 'wire', '--', process.execPath, '--test', 'test/adapter-instance.test.js'])
  assert.equal(code, 0, stdout)
  assert.equal(report.fastify.counts.passed, report.hotpath[0].run.counts.passed)
  assert.ok(report.fastify.counts.passed > 60)
  assert.equal(report.hotpath[0].run.counts.failed, 0)
})

test('a Jest suite: read from the failures and summary Jest prints', { timeout: 180_000 }, async () => {
  const jest = join(dirname(require.resolve('jest/package.json', { paths: [join(examples, 'commonjs-jest')] })), 'bin', 'jest.js')
  const { code, stdout, report } = await check(join(examples, 'commonjs-jest'), ['--engine', 'node', '--', process.execPath, jest])
  assert.equal(code, 0, stdout)
  assert.equal(report.fastify.readFrom, 'failure lines')
  assert.ok(report.fastify.counts.passed > 0)
  assert.deepEqual(report.hotpath[0].run.counts, report.fastify.counts)
  assert.equal(report.hotpath[0].comparedBy, 'by the failures the runner names')
})

test('--entry: the entry started under both, its GET routes compared; an option hotpath refuses on one engine is reported', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-check-entry-test-'))
  try {
    symlinkSync(modules, join(dir, 'node_modules'))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }))
    writeFileSync(join(dir, 'server.js'), [
      "import Fastify from 'fastify'",
      "const app = Fastify({ http: { insecureHTTPParser: true } })",
      "app.get('/', async () => ({ ok: true }))",
      "app.get('/text', async (req, reply) => reply.type('text/plain').send('plain'))",
      "app.get('/users/:id', async () => ({ never: 'asked' }))",
      "await app.listen({ port: 3000 })"
    ].join('\n'))
    writeFileSync(join(dir, 'a.test.js'), "import { test } from 'node:test'\ntest('nothing', () => {})\n")
    const { code, stdout, report } = await check(dir, ['--entry', 'server.js', '--', process.execPath, '--test'])
    assert.equal(code, 1, stdout)
    assert.equal(report.entry.fastify.started, true)
    assert.deepEqual(report.entry.fastify.routes, ['/', '/text'])
    const [wire, node] = report.entry.hotpath
    assert.equal(wire.start.started, false)
    assert.match(wire.differences[0], /hotpath did not start.*http\.insecureHTTPParser/s)
    assert.equal(node.start.started, true)
    assert.deepEqual(node.differences, [])
    assert.deepEqual(node.start.answers.map((a) => a.status), [200, 200])
    assert.match(stdout, /Start-up check of server\.js:/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('--engine h2: a suite that tests through inject() runs on the h2 engine', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-check-h2-test-'))
  try {
    symlinkSync(modules, join(dir, 'node_modules'))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
    writeFileSync(join(dir, 'app.test.js'), [
      "import { test } from 'node:test'",
      "import assert from 'node:assert/strict'",
      "import Fastify from 'fastify'",
      "test('answers through inject()', async () => {",
      "  const app = Fastify()",
      "  app.get('/', async (req) => ({ version: req.raw.httpVersion }))",
      "  const res = await app.inject('/')",
      "  assert.equal(res.statusCode, 200)",
      "  await app.close()",
      "})",
      "test('the server is HTTP/2 exactly on the h2 run', async () => {",
      "  const app = Fastify()",
      "  await app.ready()",
      "  assert.equal(app.server.constructor.name === 'Http2Server', process.env.HOTPATH_ENGINE === 'h2')",
      "  await app.close()",
      "})"
    ].join('\n'))
    const { code, stdout, report } = await check(dir, ['--engine', 'h2', '--', process.execPath, '--test'])
    assert.equal(code, 0, stdout)
    assert.deepEqual(report.fastify.counts, { passed: 2, failed: 0, skipped: 0 })
    assert.deepEqual(report.hotpath[0].run.counts, { passed: 2, failed: 0, skipped: 0 })
    assert.equal(report.hotpath[0].engine, 'h2')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('usage errors exit 2 with the usage', async () => {
  const none = await check(examples, [])
  assert.equal(none.code, 2)
  assert.match(none.stderr, /no test command given after --/)
  const engine = await check(examples, ['--engine', 'uws', '--', 'true'])
  assert.equal(engine.code, 2)
  assert.match(engine.stderr, /unknown engine uws/)
})
