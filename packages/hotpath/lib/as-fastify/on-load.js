// Runs a function on a CommonJS module's exports once the module has loaded,
// for the few tools whose own module systems or events are reached no other
// way (Jest's resolver, Mocha's runner): a wrapper around the '.js' loader,
// which compares the file name of each module as it loads (a string test,
// nothing more, per module).
import Module from 'node:module'

/** @type {{ pattern: RegExp, fn: (exports: any) => void }[]} */
const watched = []

const loaders = /** @type {any} */ (Module)._extensions
const loadJs = loaders['.js']
loaders['.js'] = function (/** @type {any} */ module, /** @type {string} */ filename) {
  loadJs.call(this, module, filename)
  for (const { pattern, fn } of watched) if (pattern.test(filename)) fn(module.exports)
}

/**
 * @param {RegExp} pattern  matched against the module's file name
 * @param {(exports: any) => void} fn
 */
export function onLoad (pattern, fn) {
  watched.push({ pattern, fn })
}
