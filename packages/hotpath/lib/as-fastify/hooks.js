// The module loader's resolve hook (module.register), run in the loader's
// thread: an `import` of a specifier ./targets.js names resolves to
// hotpath's file for it. register.js hands the table over as `data`.

/** @type {Map<string, string>} */
let targets = new Map()

/** @param {{ targets: [string, string][] }} data */
export function initialize (data) {
  targets = new Map(data.targets)
}

/**
 * @param {string} specifier
 * @param {any} context
 * @param {Function} nextResolve
 */
export function resolve (specifier, context, nextResolve) {
  const url = targets.get(specifier)
  if (url !== undefined) return { url, shortCircuit: true }
  return nextResolve(specifier, context)
}
