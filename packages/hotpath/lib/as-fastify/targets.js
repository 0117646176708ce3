// What `fastify` and its paths resolve to when hotpath takes Fastify's place
// in a process (./register.js): the specifier as a program writes it → the
// file of hotpath's that answers it. Only these are taken over; any other
// `fastify/…` path (package.json, lib/route…) still resolves to Fastify's
// own file where Fastify is installed, as it would without hotpath.
import { fileURLToPath } from 'node:url'

const entry = new URL('./entry.js', import.meta.url).href
const reply = new URL('../fastify-internals/reply.js', import.meta.url).href
const symbols = new URL('../fastify-internals/symbols.js', import.meta.url).href
const errors = new URL('../fastify-internals/errors.js', import.meta.url).href

/** specifier → file URL */
export const TARGETS = new Map([
  ['fastify', entry],
  ['fastify/fastify', entry],
  ['fastify/fastify.js', entry],
  ['fastify/lib/reply', reply],
  ['fastify/lib/reply.js', reply],
  ['fastify/lib/symbols', symbols],
  ['fastify/lib/symbols.js', symbols],
  ['fastify/lib/errors', errors],
  ['fastify/lib/errors.js', errors]
])

/**
 * Fastify's own files, reached by their path rather than by name (a tool
 * that resolves `fastify` itself and imports the file it found, as Vitest
 * does): their path in a `fastify` folder of node_modules → the name whose
 * target answers them.
 */
const FASTIFY_FILE = /[\\/]node_modules[\\/]fastify[\\/](fastify\.js|lib[\\/]reply\.js|lib[\\/]symbols\.js|lib[\\/]errors\.js)$/

/** @param {string} pathOrUrl @returns {string | undefined} the specifier it is Fastify's file for */
export function fastifyFile (pathOrUrl) {
  const m = FASTIFY_FILE.exec(pathOrUrl)
  return m === null ? undefined : `fastify/${m[1].replace(/\\/g, '/')}`
}

/** @param {string} specifier @returns {string | undefined} the file path that answers it */
export function targetPath (specifier) {
  const url = TARGETS.get(specifier)
  return url === undefined ? undefined : fileURLToPath(url)
}
