// The request timeout: requests not answered synchronously, in a doubly
// linked list through the replies themselves (oldest first), swept on a
// coarse clock. A tick counter, so tracking costs no Date.now(), no hashing
// and no allocation per request (a Set cost ~60-100 ns per async request in
// a micro-benchmark; the list a few pointer writes).
import { timeoutReply } from './finish.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */

export class InFlight {
  /** @param {number} requestTimeout  ms; 0 turns the timeout off */
  constructor (requestTimeout) {
    this.requestTimeout = requestTimeout
    /** @type {Reply | null} */
    this.oldest = null
    /** @type {Reply | null} */
    this.newest = null
    this.tick = 0
    this.tickMs = Math.min(1000, Math.max(10, Math.ceil(requestTimeout / 10)))
    this.timeoutTicks = Math.ceil(requestTimeout / this.tickMs)
    /** @type {NodeJS.Timeout | null} */
    this.sweeper = null
  }

  /** At ready(): the sweep starts, unref'd while nothing waits. */
  start () {
    if (this.requestTimeout === 0 || this.sweeper !== null) return
    this.sweeper = setInterval(() => this.sweep(), this.tickMs)
    this.sweeper.unref()
  }

  /** At close(). */
  stop () {
    if (this.sweeper !== null) clearInterval(this.sweeper)
    this.sweeper = null
  }

  /** @param {Reply} reply */
  track (reply) {
    if (this.requestTimeout === 0) return
    reply._tracked = true
    reply._since = this.tick
    const newest = this.newest
    reply._older = newest
    reply._newer = null
    if (newest === null) {
      this.oldest = reply
      // While something waits, the sweeper keeps the process alive (inject
      // has no server to do it); when nothing does, it must not.
      if (this.sweeper !== null) this.sweeper.ref()
    } else {
      newest._newer = reply
    }
    this.newest = reply
  }

  /** @param {Reply} reply */
  untrack (reply) {
    reply._tracked = false
    const older = reply._older
    const newer = reply._newer
    if (older === null) this.oldest = newer
    else older._newer = newer
    if (newer === null) this.newest = older
    else newer._older = older
    reply._older = null
    reply._newer = null
    if (this.oldest === null && this.sweeper !== null) this.sweeper.unref()
  }

  sweep () {
    const tick = ++this.tick
    // Oldest first: stop at the first request still within its time.
    let reply = this.oldest
    let reading = false
    while (reply !== null && tick - reply._since > this.timeoutTicks) {
      const next = reply._newer
      // Timers run before the sockets are read: a body the client has
      // sent may not be read yet after a turn the process spent busy, so
      // a request reading its body is judged after this turn's reads.
      if (reply._readingBody) reading = true
      else this.expire(reply)
      reply = next
    }
    if (reading) setImmediate(expireReading, this)
  }

  /** @param {Reply} reply */
  expire (reply) {
    this.untrack(reply)
    timeoutReply(reply, this.requestTimeout)
    if (!reply._done && !reply._tracked) this.track(reply) // an error handler still running gets one more period
  }
}

/**
 * After the reads of a sweep's turn: the requests past their time that are
 * still reading their body (408 if the client has not sent it all).
 * @param {InFlight} inFlight
 */
function expireReading (inFlight) {
  let reply = inFlight.oldest
  while (reply !== null && inFlight.tick - reply._since > inFlight.timeoutTicks) {
    const next = reply._newer
    if (reply._readingBody) inFlight.expire(reply)
    reply = next
  }
}
