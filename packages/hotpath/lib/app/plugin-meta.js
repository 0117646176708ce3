// What a plugin says about itself, read when it loads: its name (for
// pluginName, hasPlugin, printPlugins and the errors that name it), and
// fastify-plugin's metadata: the decorators and the plugins it needs. The
// load tree printPlugins() draws is kept here too.
import { createRequire } from 'node:module'
import { kPlugin } from './plugin.js'
import { loadModule } from '../require.js'

/** fastify-plugin's metadata: name, decorators, dependencies, fastify */
const kMeta = Symbol.for('plugin-meta')
/** fastify-plugin's display name */
const kDisplayName = Symbol.for('fastify.display-name')

const require = createRequire(import.meta.url)

/**
 * @typedef {object} LoadNode  one plugin in the load tree
 * @property {string} label
 * @property {number} start  Date.now() when it started loading
 * @property {number} end    when it and what it registered had loaded; 0 until then
 * @property {LoadNode[]} nodes
 */

/**
 * The name a plugin declares in its metadata (fastify-plugin's `name`, or
 * plugin()'s), or null.
 * @param {Function} fn
 * @returns {string | null}
 */
export function declaredName (fn) {
  const f = /** @type {any} */ (fn)
  const name = f[kMeta]?.name ?? f[kPlugin]?.name
  return typeof name === 'string' && name !== '' ? name : null
}

/**
 * A plugin's name as Fastify gives it: declared in its metadata, its
 * display name, the file that exports it (a CommonJS module), its
 * function's name, else its first two lines.
 * @param {Function} fn
 * @returns {string}
 */
export function pluginLabel (fn) {
  const declared = declaredName(fn)
  if (declared !== null) return declared
  const display = /** @type {any} */ (fn)[kDisplayName]
  if (typeof display === 'string' && display !== '') return display
  for (const [file, mod] of Object.entries(require.cache)) if (mod?.exports === fn) return file
  if (fn.name !== '') return fn.name
  return preview(fn)
}

/**
 * The first two lines of a function, trimmed and joined by ' -- ' (avvio's
 * name for an anonymous plugin).
 * @param {Function} fn
 */
export function preview (fn) {
  return fn.toString().split('\n', 2).map((line) => line.trim()).join(' -- ')
}

/**
 * fastify-plugin's `decorators`, `fastify` and `dependencies`: each
 * decorator must be on the instance (or its requests and replies), the
 * Fastify release hotpath follows within the version range, and each
 * dependency registered, before the plugin loads; else the error that
 * names what is missing.
 * @param {import('./core.js').Core} core
 * @param {any} instance  the instance the plugin is registered on
 * @param {Function} fn
 * @param {string} fastifyVersion  the Fastify release whose API hotpath implements
 * @returns {Error | null}
 */
export function checkPluginMeta (core, instance, fn, fastifyVersion) {
  const meta = /** @type {any} */ (fn)[kMeta]
  if (meta === null || typeof meta !== 'object') return null
  const decorators = meta.decorators
  const of = typeof meta.name === 'string' ? ` required by '${meta.name}'` : ''
  if (decorators !== null && typeof decorators === 'object') {
    /** @type {[string, (name: string) => boolean][]} */
    const kinds = [
      ['fastify', (name) => instance.hasDecorator(name)],
      ['reply', (name) => instance.hasReplyDecorator(name)],
      ['request', (name) => instance.hasRequestDecorator(name)]
    ]
    for (const [kind, has] of kinds) {
      const names = decorators[kind]
      if (!Array.isArray(names)) continue
      for (const name of names) {
        if (!has(name)) return core.error('HP_ERR_PLUGIN_MISSING_DECORATOR', name, of, kind === 'fastify' ? 'Fastify' : kind === 'reply' ? 'Reply' : 'Request')
      }
    }
  }
  // the Fastify versions it works with (semver loads only for this)
  if (typeof meta.fastify === 'string' && meta.fastify !== '' && !versionFits(fastifyVersion, meta.fastify)) {
    return core.error('HP_ERR_PLUGIN_VERSION_MISMATCH', String(meta.name), meta.fastify, fastifyVersion)
  }
  if (Array.isArray(meta.dependencies)) {
    for (const dep of meta.dependencies) {
      if (!instance.hasPlugin(dep)) return core.error('HP_ERR_PLUGIN_DEPENDENCY', dep, String(meta.name))
    }
  }
  return null
}

/**
 * Whether a Fastify version is in a plugin's range, as Fastify decides it:
 * a release candidate (-rc, -pre, -alpha) also takes the plugins made for
 * the releases before it.
 * @param {string} version
 * @param {string} range
 */
function versionFits (version, range) {
  const semver = loadModule('semver')
  const candidate = /-(?:rc|pre|alpha).+$/.test(version)
  const base = semver.coerce(range)
  if (candidate && base !== null && semver.gt(version, base)) return true
  return semver.satisfies(version, range, { includePrerelease: candidate })
}

/**
 * @param {string} label
 * @returns {LoadNode}
 */
export function loadNode (label) {
  return { label, start: Date.now(), end: 0, nodes: [] }
}

/**
 * The load tree as text, each plugin with the milliseconds it and what it
 * registered took to load (avvio's prettyPrint, which Fastify's
 * printPlugins returns).
 * @param {LoadNode} node
 * @param {string} [prefix]
 * @returns {string}
 */
export function printLoadTree (node, prefix = '') {
  const ms = (node.end === 0 ? Date.now() : node.end) - node.start
  let out = `${prefix}${node.label} ${ms} ms\n`
  const last = node.nodes.length - 1
  node.nodes.forEach((child, i) => {
    const branch = (i === last ? '└─' : '├─') + (child.nodes.length === 0 ? '─ ' : '┬ ')
    out += prefix + branch + printLoadTree(child, prefix + (i === last ? '  ' : '│ ')).slice(prefix.length + 2)
  })
  return out
}
