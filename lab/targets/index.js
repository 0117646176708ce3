// The registry of targets: id → server file, environment, and the npm package
// whose version the results record.

import { fileURLToPath } from 'node:url'

const here = (f) => fileURLToPath(new URL(f, import.meta.url))

/**
 * @typedef {object} Target
 * @property {string} id
 * @property {string} label
 * @property {string} file                absolute path of the server script
 * @property {Record<string,string>} [env]
 * @property {string | null} pkg          npm package whose version is recorded
 */

/** @type {Target[]} */
export const targets = [
  { id: 'node-http', label: 'node:http', file: here('./node-http.js'), pkg: null },
  { id: 'hotpath-node', label: 'hotpath (node:http)', file: here('./hotpath.js'), env: { HOTPATH_ENGINE: 'node' }, pkg: 'hotpath' },
  { id: 'hotpath-wire', label: 'hotpath (wire)', file: here('./hotpath.js'), env: { HOTPATH_ENGINE: 'wire' }, pkg: 'hotpath' },
  { id: 'fastify', label: 'Fastify', file: here('./fastify.js'), pkg: 'fastify' },
  { id: 'express', label: 'Express', file: here('./express.js'), pkg: 'express' },
  { id: 'koa', label: 'Koa', file: here('./koa.js'), pkg: 'koa' },
  { id: 'hapi', label: 'hapi', file: here('./hapi.js'), pkg: '@hapi/hapi' },
  { id: 'restify', label: 'Restify', file: here('./restify.js'), pkg: 'restify' },
  { id: 'hono', label: 'Hono', file: here('./hono.js'), pkg: 'hono' },
  { id: 'h3', label: 'h3', file: here('./h3.js'), pkg: 'h3' },
  { id: 'polka', label: 'Polka', file: here('./polka.js'), pkg: 'polka' }
]

export const targetIds = targets.map((t) => t.id)

/** Group ids accepted by --targets, expanded in place. */
export const targetGroups = {
  all: targetIds,
  hotpath: ['hotpath-node', 'hotpath-wire']
}

/** @param {string} id */
export function getTarget (id) {
  const t = targets.find((x) => x.id === id)
  if (!t) throw new Error(`unknown target "${id}" (known: ${targetIds.join(', ')})`)
  return t
}
