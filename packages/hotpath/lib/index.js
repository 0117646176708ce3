// hotpath's public entry point: exports only.
import { Core, Hotpath } from './app/hotpath.js'
import { plugin } from './app/plugin.js'
import { HttpError, createError } from './errors.js'
import { initChannel } from './lifecycle/tracing.js'

/**
 * Creates an app.
 * @param {Record<string, any>} [options]
 */
export function hotpath (options = {}) {
  if (typeof options !== 'object') throw createError('HP_ERR_OPTIONS_NOT_OBJ', typeof options)
  const core = new Core(options ?? {})
  const app = new Hotpath(core, core.root)
  core.root.instance = app
  // as Fastify does, so that a subscriber (an instrumentation) can add its
  // hooks and plugins to every app (docs/observability.md)
  if (initChannel.hasSubscribers) initChannel.publish({ fastify: app })
  return app
}

// CommonJS: require('hotpath') returns the factory, with its named exports
// on it (see fastify.js).
hotpath.hotpath = hotpath
hotpath.default = hotpath
hotpath.plugin = plugin
hotpath.HttpError = HttpError

export default hotpath
export { plugin, HttpError, hotpath as 'module.exports' }
