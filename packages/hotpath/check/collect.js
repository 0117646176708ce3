// Preloaded (--import) in every process of a `hotpath check` run, on
// Fastify and on hotpath alike: it records each finished test of the test
// runners whose results are reached from inside the process, one JSON line
// per test, into HOTPATH_CHECK_RESULTS. node:test's come through
// ./node-test-reporter.js (a reporter); Mocha's from its runner's events,
// caught as Mocha loads (its Runner emits 'pass', 'fail' and 'pending' for
// every test, serial or parallel).
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { onLoad } from '../lib/as-fastify/on-load.js'
import { firstErrorLine } from './errors.js'

const dir = process.env.HOTPATH_CHECK_RESULTS

if (dir) {
  const out = join(dir, `mocha-${process.pid}.jsonl`)
  onLoad(/[\\/]mocha[\\/]lib[\\/]runner\.js$/, (Runner) => {
    const proto = Runner?.prototype
    if (typeof proto?.emit !== 'function' || proto.emit.hotpathCheck === true) return
    const emit = proto.emit
    proto.emit = function (/** @type {string} */ event, /** @type {any[]} */ ...args) {
      if (event === 'pass' || event === 'fail' || event === 'pending') record(event, args[0], args[1])
      return emit.call(this, event, ...args)
    }
    proto.emit.hotpathCheck = true
  })

  /** @param {string} event @param {any} test @param {any} err */
  const record = (event, test, err) => {
    const titles = typeof test?.titlePath === 'function' ? test.titlePath() : [test?.title]
    appendFileSync(out, JSON.stringify({
      runner: 'mocha',
      name: titles.filter(Boolean).join(' › '),
      file: test?.file ?? null,
      ok: event !== 'fail',
      skipped: event === 'pending',
      error: event === 'fail' ? firstErrorLine(err, test?.file) : null
    }) + '\n')
  }
}
