// Load generators behind one interface.

/**
 * @typedef {object} LoadJob
 * @property {string} url
 * @property {string} method
 * @property {Record<string,string>} [headers]
 * @property {string} [body]
 * @property {number} connections
 * @property {number} pipelining   requests in flight per connection (over HTTP/2: concurrent streams, h2load's -m)
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
 * @property {Record<number, number | null>} latency  ms at each of stats.LATENCY_PERCENTILES (null: unknown; h2load gives only min and max)
 * @property {number | null} [latencyMean]  ms, from loaders that report it (h2load)
 * @property {number | null} [latencySd]    ms, standard deviation, likewise
 * @property {number | null} loaderCpuSeconds
 */
/**
 * @typedef {object} Loader
 * @property {string} name
 * @property {string} version
 * @property {Protocol[]} protocols   what it speaks: a scenario in another protocol cannot be run with it
 * @property {(job: LoadJob) => Promise<LoadResult>} run
 * @property {() => Promise<void>} close
 */

/** @typedef {'h1' | 'h2'} Protocol  HTTP/1.1, or HTTP/2 over cleartext with prior knowledge (h2c) */

import { createAutocannon } from './autocannon.js'
import { createWrk } from './wrk.js'
import { createH2load } from './h2load.js'

/** What each loader speaks, known before it is started (options check scenarios against it). */
export const loaderProtocols = { autocannon: ['h1'], wrk: ['h1'], h2load: ['h2'] }

/** @param {'autocannon' | 'wrk' | 'h2load'} name @param {{ cpu: number | null }} o */
export function createLoader (name, o) {
  if (name === 'wrk') return createWrk(o)
  if (name === 'autocannon') return createAutocannon(o)
  if (name === 'h2load') return createH2load(o)
  throw new Error(`unknown loader "${name}" (autocannon, wrk, h2load)`)
}
