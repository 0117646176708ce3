// A plugin's promise settles, then the boot goes on through process.nextTick
// as it is then, as Fastify's (avvio) does: what the plugin queued on the
// tick runs before the next plugin loads. With @sinonjs/fake-timers
// installed, which fakes process.nextTick too (15.x, by default), each
// such plugin makes the boot wait for one more move of the clock, as on
// Fastify; what node's streams queued on the faked tick meanwhile (the test
// runner's report) runs then, and is not left for the test's clock.reset()
// to drop (@fastify/secure-session's anti-reuse tests, which went
// unreported).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import FakeTimers from '@sinonjs/fake-timers'
import { besideFastify } from './helpers/beside-fastify.js'

const require = createRequire(import.meta.url)

/** @param {any} app */
function twoPlugins (app) {
  /** @type {string[]} */
  const seen = []
  app.register(async function first () {
    process.nextTick(() => seen.push('first: its tick'))
    seen.push('first')
  })
  app.register(async function second () { seen.push('second') })
  app.get('/', () => seen.join(', '))
}

test("a plugin's process.nextTick callbacks run before the next plugin loads, as on Fastify", async () => {
  for (const r of await besideFastify(twoPlugins, ['/'])) {
    assert.equal(r.hotpath.body, r.fastify.body, r.what)
    assert.equal(r.hotpath.body, 'first, first: its tick, second', r.what)
  }
})

test('the same with FakeTimers installed (shouldAdvanceTime): the boot waits for the clock to run the tick', async () => {
  const clock = FakeTimers.install({ shouldAdvanceTime: true, now: Date.now() })
  try {
    for (const r of await besideFastify(twoPlugins, ['/'])) {
      assert.equal(r.hotpath.body, r.fastify.body, r.what)
      assert.equal(r.hotpath.body, 'first, first: its tick, second', r.what)
    }
  } finally {
    // what node's streams queued on the faked tick (this suite's report) runs now
    clock.runMicrotasks()
    clock.uninstall()
  }
})

// @fastify/secure-session's test/anti-reuse.test.js, in short: each test
// installs the clock, injects, jumps, injects, and resets the clock after.
const REPORTED = `
import { test } from 'node:test'
import assert from 'node:assert/strict'
const { default: FakeTimers } = await import(process.env.FAKE_TIMERS)
const { default: Fastify } = await import(process.env.FRAMEWORK)

for (const jump of ['24:01:00', '00:15:01', '00:14:59']) {
  test('a jump of ' + jump, async (t) => {
    const app = Fastify({ logger: false })
    const clock = FakeTimers.install({ shouldAdvanceTime: true, now: Date.now() })
    t.after(() => {
      app.close()
      clock.reset()
      clock.uninstall()
    })
    // a plugin that returns a promise, shared with its parent (as
    // fastify-plugin makes it)
    const stamp = async (instance) => {
      instance.decorateRequest('at', 0)
      instance.addHook('onRequest', async (req) => { req.at = Date.now() })
    }
    stamp[Symbol.for('skip-override')] = true
    app.register(stamp)
    app.post('/', (req) => ({ at: req.at }))
    const first = await app.inject({ method: 'POST', url: '/', payload: { some: 'data' } })
    clock.jump(jump)
    const second = await app.inject({ method: 'POST', url: '/', payload: { some: 'data' } })
    assert.ok(second.json().at - first.json().at >= 14 * 60 * 1000)
  })
}
`

/**
 * The test file above run on a framework: the lines its report printed.
 * @param {string} file
 * @param {string} framework  the framework's entry, a path
 * @returns {Promise<string[]>}
 */
function report (file, framework) {
  // the file's own report (TAP), not this suite's node:test context
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined, NODE_OPTIONS: undefined, HOTPATH_ENGINE: undefined, FRAMEWORK: pathToFileURL(framework).href, FAKE_TIMERS: pathToFileURL(require.resolve('@sinonjs/fake-timers')).href }
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { env, timeout: 30_000 }, (err, stdout) => {
      if (err !== null && err.killed) reject(err)
      else resolve(stdout.split('\n').filter((line) => /^(not )?ok \d/.test(line)))
    })
  })
}

test('a test file that resets a fake clock after each test reports each of them, as on Fastify', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-fake-timers-'))
  try {
    const file = join(dir, 'reported.test.mjs')
    writeFileSync(file, REPORTED)
    const fastify = await report(file, require.resolve('fastify'))
    if (fastify.length === 0) {
      // Node 24 and later: the test runner's reporter queues more on the
      // faked ticks, and the clock's reset drops its report on Fastify too
      t.skip(`on Node ${process.versions.node} the file's report is lost on Fastify as well: nothing to compare`)
      return
    }
    const hotpath = await report(file, fileURLToPath(new URL('../lib/fastify.js', import.meta.url)))
    assert.deepEqual(fastify, ['ok 1 - a jump of 24:01:00', 'ok 2 - a jump of 00:15:01', 'ok 3 - a jump of 00:14:59'])
    assert.deepEqual(hotpath, fastify)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
