// The module loader's resolve hook (module.register), run in the loader's
// thread: an `import` of a specifier ./targets.js names, or of Fastify's
// own file for one, resolves to hotpath's file for it. register.js hands
// the table over as `data`.
import { fastifyFile } from './targets.js'

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
export async function resolve (specifier, context, nextResolve) {
  const url = targets.get(specifier)
  if (url !== undefined) return { url, shortCircuit: true }
  const resolved = await nextResolve(specifier, context)
  // Fastify's own file, reached by its path (a tool that resolved `fastify`
  // itself, as Vitest does, imports the file it found)
  const name = typeof resolved?.url === 'string' ? fastifyFile(resolved.url) : undefined
  const target = name === undefined ? undefined : targets.get(name)
  return target === undefined ? resolved : { url: target, shortCircuit: true }
}
