// plugin(fn): marks a plugin as not encapsulated, so what it adds (hooks,
// decorators, parsers, handlers) applies to the context that registers it.

export const kPlugin = Symbol.for('hotpath.plugin')

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
