// Maps the `engine` option to an engine factory. `wire` (hotpath's own
// HTTP/1.1 engine on node:net) is the default: on a hello-world route it
// serves well over node:http's throughput (figures in the README); `node`
// runs on node:http for anything that needs its full IncomingMessage /
// ServerResponse surface; `h2` serves HTTP/2 on node:http2 (the `http2`
// option).
import { createNodeEngine } from './node/index.js'
import { createWireEngine } from './wire/index.js'
import { createH2Engine } from './h2/index.js'
import { createError } from '../errors.js'

export const DEFAULT_ENGINE = 'wire'

/**
 * @param {string} name
 * @param {import('./engine.js').EngineOptions} options
 * @returns {import('./engine.js').Engine}
 */
export function createEngine (name, options) {
  if (name === 'node') return createNodeEngine(options)
  if (name === 'wire') return createWireEngine(options)
  if (name === 'h2') return createH2Engine(options)
  throw createError('HP_ERR_UNKNOWN_ENGINE', name)
}

/** @param {unknown} name */
export function isEngineName (name) {
  return name === 'node' || name === 'wire' || name === 'h2'
}
