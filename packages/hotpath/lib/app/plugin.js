// plugin(fn): marks a plugin as not encapsulated, so what it adds (hooks,
// decorators, parsers, handlers) applies to the context that registers it.
// A plugin wrapped by fastify-plugin says the same with Fastify's symbol,
// and hotpath honours it (docs/plugins.md).

export const kPlugin = Symbol.for('hotpath.plugin')
/** fastify-plugin's mark: the plugin shares its parent's context */
export const kSkipOverride = Symbol.for('skip-override')

/**
 * Whether a plugin runs in its parent's context instead of its own.
 * @param {Function} fn
 */
export function isShared (fn) {
  const f = /** @type {any} */ (fn)
  return f[kPlugin] !== undefined || f[kSkipOverride] === true
}

/**
 * @template {Function} F
 * @param {F} fn
 * @param {{ name?: string }} [meta]
 * @returns {F}
 */
export function plugin (fn, meta = {}) {
  if (typeof fn !== 'function') throw new TypeError('plugin() expects a function')
  ;/** @type {any} */ (fn)[kPlugin] = { name: meta.name ?? fn.name }
  return fn
}
