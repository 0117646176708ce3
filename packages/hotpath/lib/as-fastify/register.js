// hotpath in Fastify's place for a whole process, without editing a file or
// node_modules:
//
//   node --import hotpath/as-fastify app.js
//   NODE_OPTIONS="--import hotpath/as-fastify" npm test
//
// Every `fastify` a module of the process loads, by import or require() (the
// application's, its plugins', NestJS's adapter's), and the two internal
// modules code built on Fastify loads (fastify/lib/reply, fastify/lib/symbols)
// resolve to hotpath's (./targets.js). Child processes that inherit
// NODE_OPTIONS get the same. `hotpath check` runs a suite so.
//
// require() is taken over through Module._resolveFilename, which every
// Node line from 20.19 calls for each require(); import through the module
// loader's resolve hook (module.register); Jest's own resolver through its
// moduleNameMapper step (./jest.js).
import Module from 'node:module'
import { TARGETS, targetPath, fastifyFile } from './targets.js'
import './jest.js'

const CommonJS = /** @type {any} */ (Module)
const resolveFilename = CommonJS._resolveFilename
CommonJS._resolveFilename = function (/** @type {string} */ request, /** @type {any[]} */ ...rest) {
  const path = typeof request === 'string' && request.startsWith('fastify') ? targetPath(request) : undefined
  if (path !== undefined) return path
  const resolved = resolveFilename.call(this, request, ...rest)
  // Fastify's own file, reached by its path
  const name = typeof resolved === 'string' ? fastifyFile(resolved) : undefined
  return name !== undefined ? /** @type {string} */ (targetPath(name)) : resolved
}

Module.register(new URL('./hooks.js', import.meta.url), { data: { targets: [...TARGETS] } })

/** Whether this process runs with hotpath in Fastify's place. */
export const active = true
