// Modules an app needs only for some features (pino for a logger, ajv and
// fast-json-stringify for schemas, node:tls and node:https for HTTPS), loaded
// on first use. They are CommonJS or built-ins, so require() loads them
// synchronously inside hotpath() and ready(); an app that never uses the
// feature never carries the module (test/lazy-deps.test.js).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * @param {string} id
 * @returns {any} the module, or its default export when it has one
 */
export function loadOptional (id) {
  const m = require(id)
  return m.default ?? m
}
