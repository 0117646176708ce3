// Overload protection (hapi's `load`, Fastify's under-pressure): one
// unref'd interval samples event-loop delay, event-loop utilization and
// memory, and sets `core.overloaded`. Dispatch reads that one boolean per
// request and, while it is true, answers 503 before routing or any hook, so
// an overloaded process sheds new work instead of queueing it.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createError } from '../errors.js'
import { errorAnswer } from '../reply/error-body.js'
import { JSON_TYPE } from '../reply/payload-kind.js'
import { refusedBeforeRouting } from '../lifecycle/request-trace.js'

// 1 s, as under-pressure: often enough to react within a second or two,
// rarely enough that the sample (a histogram read, and for memory limits a
// read of /proc) costs nothing measurable.
const DEFAULT_SAMPLE_INTERVAL = 1000
// Seconds a client is asked to wait (Retry-After, RFC 9110 §10.2.3): long
// enough that shed clients do not come straight back as a herd.
const DEFAULT_RETRY_AFTER = 10
// Resolution of the event-loop delay histogram, in ms; subtracted from its
// mean, since an idle loop reads about this much.
const RESOLUTION = 10

/**
 * @typedef {object} LoadReading
 * @property {number} eventLoopDelay  mean delay over the last interval, ms
 * @property {number} eventLoopUtilization  0..1 over the last interval
 * @property {number} heapUsed  bytes
 * @property {number} rss  bytes
 */

const LIMITS = /** @type {const} */ ([
  ['maxEventLoopDelay', 'eventLoopDelay'],
  ['maxEventLoopUtilization', 'eventLoopUtilization'],
  ['maxHeapUsedBytes', 'heapUsed'],
  ['maxRssBytes', 'rss']
])

export class LoadMonitor {
  /**
   * @param {import('./core.js').Core} core
   * @param {unknown} options  the `load` option
   */
  constructor (core, options) {
    const o = /** @type {Record<string, unknown>} */ (options ?? {})
    if (typeof o !== 'object' || Array.isArray(o)) throw createError('HP_ERR_INVALID_OPTION', 'load', 'expected an object')
    for (const key of Object.keys(o)) {
      if (!['maxEventLoopDelay', 'maxEventLoopUtilization', 'maxHeapUsedBytes', 'maxRssBytes', 'sampleInterval', 'retryAfter'].includes(key)) {
        throw createError('HP_ERR_INVALID_OPTION', `load.${key}`, 'unknown option')
      }
      const v = o[key]
      if (v === undefined) continue
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw createError('HP_ERR_INVALID_OPTION', `load.${key}`, 'expected a non-negative number')
      if (key === 'maxEventLoopUtilization' && v > 1) throw createError('HP_ERR_INVALID_OPTION', `load.${key}`, 'expected a number from 0 to 1')
      if ((key === 'sampleInterval' || key === 'retryAfter') && !Number.isInteger(v)) throw createError('HP_ERR_INVALID_OPTION', `load.${key}`, 'expected an integer')
    }
    this.core = core
    // 0 (or absent) turns a limit off, as in hapi.
    this.maxEventLoopDelay = /** @type {number} */ (o.maxEventLoopDelay ?? 0)
    this.maxEventLoopUtilization = /** @type {number} */ (o.maxEventLoopUtilization ?? 0)
    this.maxHeapUsedBytes = /** @type {number} */ (o.maxHeapUsedBytes ?? 0)
    this.maxRssBytes = /** @type {number} */ (o.maxRssBytes ?? 0)
    this.sampleInterval = /** @type {number} */ (o.sampleInterval || DEFAULT_SAMPLE_INTERVAL)
    this.retryAfter = String(o.retryAfter ?? DEFAULT_RETRY_AFTER)
    this.enabled = this.maxEventLoopDelay > 0 || this.maxEventLoopUtilization > 0 || this.maxHeapUsedBytes > 0 || this.maxRssBytes > 0
    /** @type {LoadReading} the last sample */
    this.reading = { eventLoopDelay: 0, eventLoopUtilization: 0, heapUsed: 0, rss: 0 }
    /** @type {string | null} what is over its limit, for the log */
    this.reason = null
    /** @type {NodeJS.Timeout | null} */
    this.timer = null
    /** @type {import('node:perf_hooks').ELDHistogram | null} */
    this.histogram = null
    /** @type {import('node:perf_hooks').EventLoopUtilization | null} */
    this.lastElu = null
    // The answer never changes: build its body once.
    this.body = errorAnswer('HP_ERR_SERVER_OVERLOADED').body
  }

  /** Starts sampling (at ready()); a no-op when no limit is set. */
  start () {
    if (!this.enabled || this.timer !== null) return
    if (this.maxEventLoopDelay > 0) {
      this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION })
      this.histogram.enable()
    }
    if (this.maxEventLoopUtilization > 0) this.lastElu = performance.eventLoopUtilization()
    this.timer = setInterval(() => this.sample(), this.sampleInterval)
    this.timer.unref()
  }

  /** Stops sampling (at close()) and lets requests through again. */
  stop () {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    if (this.histogram !== null) this.histogram.disable()
    this.histogram = null
    this.lastElu = null
    this.core.overloaded = false
  }

  /**
   * Reads the sources whose limit is set, then applies the reading.
   * @returns {LoadReading}
   */
  sample () {
    /** @type {LoadReading} */
    const r = { eventLoopDelay: 0, eventLoopUtilization: 0, heapUsed: 0, rss: 0 }
    const h = this.histogram
    if (h !== null) {
      // NaN when the interval saw no tick at all.
      const mean = h.mean / 1e6
      r.eventLoopDelay = Number.isFinite(mean) ? Math.max(0, mean - RESOLUTION) : 0
      h.reset()
    }
    if (this.lastElu !== null) {
      const now = performance.eventLoopUtilization()
      r.eventLoopUtilization = performance.eventLoopUtilization(now, this.lastElu).utilization
      this.lastElu = now
    }
    if (this.maxHeapUsedBytes > 0) {
      const m = process.memoryUsage()
      r.heapUsed = m.heapUsed
      r.rss = m.rss
    } else if (this.maxRssBytes > 0) {
      r.rss = process.memoryUsage.rss()
    }
    this.apply(r)
    return r
  }

  /**
   * Compares a reading with the limits and sets `core.overloaded`. Separate
   * from sample() so tests can drive it with a fabricated reading.
   * @param {LoadReading} reading
   */
  apply (reading) {
    this.reading = reading
    /** @type {string | null} */
    let reason = null
    for (const [limit, field] of LIMITS) {
      const max = this[limit]
      if (max > 0 && reading[field] > max) {
        reason = `${field} ${round(reading[field])} > ${limit} ${max}`
        break
      }
    }
    const core = this.core
    const was = core.overloaded
    core.overloaded = reason !== null
    this.reason = reason
    // Logged on a change of state only, never per shed request.
    if (core.logger !== null) {
      if (!was && reason !== null) core.logger.warn({ load: reading }, `overloaded: ${reason}; answering 503 to new requests`)
      else if (was && reason === null) core.logger.info({ load: reading }, 'load back under the limits')
    }
  }
}

/** @param {number} n */
function round (n) {
  return Math.round(n * 1000) / 1000
}

/**
 * The 503 answer while overloaded: fixed body, Retry-After, no hook, no
 * routing. Without a request body the connection stays open.
 * @param {LoadMonitor} monitor
 * @param {import('../engines/engine.js').RawRequest} raw
 * @param {import('../engines/engine.js').ResponseHandle} res
 */
export function writeOverloaded (monitor, raw, res) {
  const body = monitor.body
  // A fresh object each time: engines may add to the headers they are given.
  /** @type {import('../engines/engine.js').OutgoingHeaders} */
  const headers = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), 'retry-after': monitor.retryAfter }
  // A request body would have to be read to keep the connection: close it
  // instead of spending work on an upload that will not be used.
  if (raw.hasBody) headers.connection = 'close'
  refusedBeforeRouting(503, 'HP_ERR_SERVER_OVERLOADED', raw)
  try {
    res.respond(503, headers, body)
  } catch {
    // the socket is gone: nothing to answer
  }
}
