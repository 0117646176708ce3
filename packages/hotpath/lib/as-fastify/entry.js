// `fastify` as a process sees it when hotpath takes Fastify's place
// (./register.js): hotpath/fastify, with the engine HOTPATH_ENGINE names
// ('wire', 'node' or 'h2') for every app that does not choose one itself,
// so that a whole suite can be run on each engine unchanged.
import hotpathFastify, { hotpath, plugin, HttpError, errorCodes, LogController } from '../fastify.js'

const ENGINES = new Set(['wire', 'node', 'h2'])
const engine = process.env.HOTPATH_ENGINE
if (engine !== undefined && engine !== '' && !ENGINES.has(engine)) {
  throw new TypeError(`HOTPATH_ENGINE must be one of wire, node, h2; got ${JSON.stringify(engine)}`)
}

/**
 * fastify(options), on HOTPATH_ENGINE's engine unless the options name one
 * (or a serverFactory, whose server is node:http's, or http2: true).
 * @param {Record<string, any>} [options]
 */
export function fastify (options) {
  if (!engine || (options !== null && typeof options === 'object' && (options.engine !== undefined || options.serverFactory !== undefined || options.http2 === true))) {
    return hotpathFastify(options)
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) return hotpathFastify(options)
  // h2 is HTTP/2 (http2: true): without TLS it serves HTTP/2 clients only,
  // so a suite whose client speaks HTTP/1.1 runs on it through inject()
  return hotpathFastify(engine === 'h2' ? { ...options, engine, http2: true } : { ...options, engine })
}

// the names hotpath/fastify's factory carries (errorCodes, plugin…), with
// this factory as its own `fastify` and `default`
Object.assign(fastify, hotpathFastify, { fastify, default: fastify })

export default fastify
export { hotpath, plugin, HttpError, errorCodes, LogController, fastify as 'module.exports' }
