// Schemas whose compile waits for their route's first request (schema.js)
// are compiled in the background once the server listens, so that a
// route's first request finds them built and an app that is not hit at
// once (a health check first, traffic later) never pays a compile on a
// request. The pass works in idle time: a slice compiles for up to
// SLICE_MS, then the loop gets GAP_MS to itself, in which it can wait for
// I/O; if it spent most of that gap working rather than waiting (requests
// came), the next slice compiles one item only, BUSY_WAIT_MS later, so
// traffic is delayed by at most one compile (about 1-3 ms) that often.
// Measured on the 2-core VM, 1,000 schema routes and a client posting one
// request after another during the pass: with slices back to back (no
// back-off), a request took 4 ms at the median, against 1 ms after the pass.
// A route whose request comes first compiles on that request, as without
// this; the pass then finds it done. A compile that throws is left for the
// request, which reports it (HP_ERR_INVALID_SCHEMA, a 500) as before.

import { performance } from 'node:perf_hooks'

/** An idle slice's budget. */
const SLICE_MS = 2
/** The loop's own time between two slices. */
const GAP_MS = 1
/** The share of a gap spent working, above which the loop counts as busy. */
const BUSY_SHARE = 0.5
/** The wait between two one-item slices while the loop is busy. */
const BUSY_WAIT_MS = 50

export class BackgroundCompile {
  constructor () {
    /** @type {(() => unknown)[]} compiles still to run, each a no-op once its route compiled */
    this.pending = []
    this.started = false
    this.stopped = false
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null
    /** @type {import('node:perf_hooks').EventLoopUtilization | null} the loop's activity at the end of the last slice */
    this.mark = null
  }

  /**
   * A compile to run after listen(): the validator's or serializer's own
   * "compile now" (compiledValidator, a lazy serializer's resolve).
   * @param {() => unknown} compile
   */
  add (compile) {
    if (!this.stopped) this.pending.push(compile)
  }

  /** Starts the pass (after listen()); once. */
  start () {
    if (this.started || this.stopped) return
    this.started = true
    this.schedule(false)
  }

  /** Stops the pass (close()): what is left compiles on first use, if ever. */
  stop () {
    this.stopped = true
    this.pending = []
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  /**
   * @private
   * @param {boolean} busy
   */
  schedule (busy) {
    if (this.pending.length === 0) return
    // unref'd: compiling ahead never keeps a process alive
    this.timer = setTimeout(() => this.slice(), busy ? BUSY_WAIT_MS : GAP_MS)
    this.timer.unref()
  }

  /** @private */
  slice () {
    this.timer = null
    // what the loop did since the last slice ended: waited for I/O, or
    // worked (requests came)
    const busy = this.mark !== null && performance.eventLoopUtilization(this.mark).utilization > BUSY_SHARE
    const until = busy ? 0 : performance.now() + SLICE_MS
    const pending = this.pending
    // routes in the order they were declared; one item at least
    let i = 0
    while (i < pending.length && (i === 0 || performance.now() < until)) {
      try {
        pending[i]()
      } catch {
        // the route's first request compiles it again and reports the error
      }
      i++
    }
    pending.splice(0, i)
    this.mark = performance.eventLoopUtilization()
    this.schedule(busy)
  }
}
