// Maps the `engine` option to an engine factory. The wire engine is loaded
// on demand, so the core works (and `engine: 'node'` costs nothing extra)
// whether or not lib/engines/wire/ is present.
import { createNodeEngine } from './node.js'
import { createError } from '../errors.js'

export const DEFAULT_ENGINE = 'node'

/**
 * @param {string} name
 * @param {import('./engine.js').EngineOptions} options
 * @returns {Promise<import('./engine.js').Engine>}
 */
export async function createEngine (name, options) {
  if (name === 'node') return createNodeEngine(options)
  if (name === 'wire') {
    /** @type {any} */
    let mod
    try {
      // A variable specifier keeps bundlers and tsc from requiring the file.
      const specifier = './wire/index.js'
      mod = await import(specifier)
    } catch (err) {
      throw createError('HP_ERR_ENGINE_UNAVAILABLE', name, /** @type {Error} */ (err).message)
    }
    if (typeof mod.createWireEngine !== 'function') {
      throw createError('HP_ERR_ENGINE_UNAVAILABLE', name, 'createWireEngine is not exported')
    }
    return mod.createWireEngine(options)
  }
  throw createError('HP_ERR_UNKNOWN_ENGINE', name)
}

/** @param {unknown} name */
export function isEngineName (name) {
  return name === 'node' || name === 'wire'
}
