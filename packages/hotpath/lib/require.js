// Every package hotpath depends on (all CommonJS) and every module it loads
// on first use goes through require(), never `import`:
// - For `import` of a CommonJS package, Node's ESM loader first runs its
//   export lexer over the package's source. On find-my-way (36 KB) the lexer
//   ran long enough for V8 to optimize it on background threads, and their
//   compiler memory stayed in malloc arenas: 6 MiB more resident memory for
//   the life of the process (a hello server, idle: 69 → 62 MiB; the arenas
//   in /proc/PID/smaps went from 7.3 to 1.0 MiB).
// - require() is synchronous, so the optional modules (pino for a logger,
//   ajv and fast-json-stringify for schemas, node:tls and node:https for
//   HTTPS) load inside hotpath() and ready(), on first use: an app that never
//   uses the feature never carries the module (test/lazy-deps.test.js).
// test/imports.test.js keeps lib/ to `node:` and relative imports.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * @param {string} id
 * @returns {any} the module, or its default export when it has one
 */
export function loadModule (id) {
  const m = require(id)
  return m.default ?? m
}
