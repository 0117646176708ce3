// The registry of targets: id → server file, environment, and the npm package
// whose version the results record.

import { fileURLToPath } from 'node:url'

const here = (f) => fileURLToPath(new URL(f, import.meta.url))
const OTEL_SETUP = here('./otel-setup.js')

/**
 * @typedef {object} Target
 * @property {string} id
 * @property {string} label
 * @property {string} file                absolute path of the server script
 * @property {Record<string,string>} [env]
 * @property {string[]} [imports]        modules preloaded with `node --import` before the server script
 * @property {string} [untraced]          for a target with tracing on: the id of the same server without it
 * @property {'h1' | 'h2'} [protocol]      what it speaks (default h1); it serves only the scenarios of its protocol
 * @property {boolean} [floor]             a reference, not a framework: left out of "all"
 * @property {boolean} [takesWork]         does --floor-work's loop on each request (the floor and its steps)
 * @property {string | null} pkg          npm package whose version is recorded
 */

/** @type {Target[]} */
export const targets = [
  { id: 'node-http', label: 'node:http', file: here('./node-http.js'), pkg: null },
  // not a framework: the floor a node server cannot go below (hello only)
  { id: 'net-canned', label: 'node:net, canned answer', file: here('./net-canned.js'), floor: true, takesWork: true, pkg: null },
  // two steps up from it (hello only): the least a routing server does
  // without an HTTP parser, then with hotpath's (net-route.js)
  { id: 'net-route', label: 'node:net, routed answer, no parser', file: here('./net-route.js'), floor: true, takesWork: true, pkg: null },
  { id: 'net-parsed', label: 'node:net, routed answer, hotpath\'s parser', file: here('./net-route.js'), env: { LAB_PARSER: 'hotpath' }, floor: true, takesWork: true, pkg: 'hotpath' },
  { id: 'hotpath-node', label: 'hotpath (node:http)', file: here('./hotpath.js'), env: { HOTPATH_ENGINE: 'node' }, pkg: 'hotpath' },
  { id: 'hotpath-wire', label: 'hotpath (wire)', file: here('./hotpath.js'), env: { HOTPATH_ENGINE: 'wire' }, pkg: 'hotpath' },
  { id: 'fastify', label: 'Fastify', file: here('./fastify.js'), pkg: 'fastify' },
  { id: 'express', label: 'Express', file: here('./express.js'), pkg: 'express' },
  { id: 'koa', label: 'Koa', file: here('./koa.js'), pkg: 'koa' },
  { id: 'hapi', label: 'hapi', file: here('./hapi.js'), pkg: '@hapi/hapi' },
  { id: 'restify', label: 'Restify', file: here('./restify.js'), pkg: 'restify' },
  { id: 'hono', label: 'Hono', file: here('./hono.js'), pkg: 'hono' },
  { id: 'h3', label: 'h3', file: here('./h3.js'), pkg: 'h3' },
  { id: 'polka', label: 'Polka', file: here('./polka.js'), pkg: 'polka' },
  // the same servers with OpenTelemetry's Node SDK loaded first, as users run
  // it (node --import ./otel-setup.js app.js): the cost of tracing
  { id: 'fastify-otel', label: 'Fastify + OpenTelemetry', file: here('./fastify.js'), imports: [OTEL_SETUP], untraced: 'fastify', pkg: 'fastify' },
  { id: 'hotpath-node-otel', label: 'hotpath (node:http) + OpenTelemetry', file: here('./hotpath.js'), env: { HOTPATH_ENGINE: 'node' }, imports: [OTEL_SETUP], untraced: 'hotpath-node', pkg: 'hotpath' },
  { id: 'hotpath-wire-otel', label: 'hotpath (wire) + OpenTelemetry', file: here('./hotpath.js'), env: { HOTPATH_ENGINE: 'wire' }, imports: [OTEL_SETUP], untraced: 'hotpath-wire', pkg: 'hotpath' },
  // HTTP/2 over cleartext with prior knowledge (h2c): the h2 scenarios
  { id: 'node-http2', label: 'node:http2', file: here('./node-http2.js'), env: { LAB_HTTP2: '1' }, protocol: 'h2', pkg: null },
  { id: 'fastify-h2', label: 'Fastify (http2)', file: here('./fastify.js'), env: { LAB_HTTP2: '1' }, protocol: 'h2', pkg: 'fastify' },
  { id: 'hotpath-h2', label: 'hotpath (http2)', file: here('./hotpath.js'), env: { LAB_HTTP2: '1' }, protocol: 'h2', pkg: 'hotpath' }
]

export const targetIds = targets.map((t) => t.id)

/**
 * Group ids accepted by --targets, expanded in place. "all" is every
 * framework once, untraced, over HTTP/1.1: the traced twins are the otel
 * profile's, the HTTP/2 servers the h2 profile's.
 */
export const targetGroups = {
  all: targets.filter((t) => !t.untraced && !t.floor && (t.protocol ?? 'h1') === 'h1').map((t) => t.id),
  hotpath: ['hotpath-node', 'hotpath-wire'],
  otel: targets.filter((t) => t.untraced).map((t) => t.id),
  h2: targets.filter((t) => t.protocol === 'h2').map((t) => t.id)
}

/** @param {string} id  whether the target runs hotpath (and can run another hotpath package) */
export function isHotpathTarget (id) {
  return getTarget(id).pkg === 'hotpath'
}

/**
 * The same hotpath target on another hotpath package (`--baseline-hotpath
 * DIR`): id `<id>-baseline`, the package's entry handed to the server by
 * LAB_HOTPATH_ENTRY, so two versions are timed in the same rounds.
 * @param {Target} target
 * @param {string} entry  file URL of the other package's main module
 * @returns {Target}
 */
export function baselineTwin (target, entry) {
  return { ...target, id: `${target.id}-baseline`, label: `${target.label}, baseline`, env: { ...target.env, LAB_HOTPATH_ENTRY: entry } }
}

/** @param {string} id */
export function getTarget (id) {
  const t = targets.find((x) => x.id === id)
  if (!t) throw new Error(`unknown target "${id}" (known: ${targetIds.join(', ')})`)
  return t
}
