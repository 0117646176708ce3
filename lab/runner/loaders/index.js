// Load generators behind one interface.

/**
 * @typedef {object} LoadJob
 * @property {string} url
 * @property {string} method
 * @property {Record<string,string>} [headers]
 * @property {string} [body]
 * @property {number} connections
 * @property {number} pipelining
 * @property {number} duration   seconds
 */
/**
 * @typedef {object} LoadResult
 * @property {number} requests        completed responses
 * @property {number} duration        seconds measured
 * @property {number} bytes           response bytes received
 * @property {number} errors          socket errors (not timeouts)
 * @property {number} timeouts
 * @property {number} non2xx
 * @property {Record<number, number | null>} latency  ms at each of stats.LATENCY_PERCENTILES
 * @property {number | null} loaderCpuSeconds
 */
/**
 * @typedef {object} Loader
 * @property {string} name
 * @property {string} version
 * @property {(job: LoadJob) => Promise<LoadResult>} run
 * @property {() => Promise<void>} close
 */

import { createAutocannon } from './autocannon.js'
import { createWrk } from './wrk.js'

/** @param {'autocannon' | 'wrk'} name @param {{ cpu: number | null }} o */
export function createLoader (name, o) {
  if (name === 'wrk') return createWrk(o)
  if (name === 'autocannon') return createAutocannon(o)
  throw new Error(`unknown loader "${name}" (autocannon, wrk)`)
}
