// Schemas whose compile waits for their route's first request (schema.js)
// are compiled in the background once the server listens, a slice at a
// time between requests: the first request of a route then finds its
// validators and serializers built, and an app that is not hit at once
// (a health check first, traffic later) never pays a compile on a request.
// A slice runs up to SLICE_MS, then yields to the event loop (setImmediate,
// which runs after the I/O callbacks of the turn), so a request that
// arrives meanwhile waits at most about one slice. A route whose request
// comes first compiles on that request, as without this; the background
// pass then finds it done. A compile that throws is left for the request,
// which reports it (HP_ERR_INVALID_SCHEMA, a 500) as before.

/** One slice's budget: about the compile of one route's validators on the 2-core reference machine (3 ms). */
const SLICE_MS = 2

export class BackgroundCompile {
  constructor () {
    /** @type {(() => unknown)[]} compiles still to run, each a no-op once its route compiled */
    this.pending = []
    this.started = false
    this.stopped = false
    /** @type {ReturnType<typeof setImmediate> | null} */
    this.timer = null
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
    this.schedule()
  }

  /** Stops the pass (close()): what is left compiles on first use, if ever. */
  stop () {
    this.stopped = true
    this.pending = []
    if (this.timer !== null) clearImmediate(this.timer)
    this.timer = null
  }

  /** @private */
  schedule () {
    if (this.pending.length === 0) return
    // unref'd: compiling ahead never keeps a process alive
    this.timer = setImmediate(() => this.slice())
    this.timer.unref()
  }

  /** @private */
  slice () {
    this.timer = null
    const until = performance.now() + SLICE_MS
    const pending = this.pending
    // routes in the order they were declared
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
    this.schedule()
  }
}
