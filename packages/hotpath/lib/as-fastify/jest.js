// Jest resolves the modules of a test file with its own resolver, not
// Node's: a `fastify` there is mapped to hotpath's CommonJS build (Jest's
// default mode loads CommonJS) where Jest applies moduleNameMapper, before
// its own mappings, in each of its processes (they inherit NODE_OPTIONS).
import { fileURLToPath } from 'node:url'
import { onLoad } from './on-load.js'

const cjs = (/** @type {string} */ path) => fileURLToPath(new URL(`../../cjs/${path}`, import.meta.url))

/** specifier → the CommonJS file Jest loads for it */
const JEST_TARGETS = new Map([
  ['fastify', cjs('as-fastify/entry.js')],
  ['fastify/fastify', cjs('as-fastify/entry.js')],
  ['fastify/fastify.js', cjs('as-fastify/entry.js')],
  ['fastify/lib/reply', cjs('fastify-internals/reply.js')],
  ['fastify/lib/reply.js', cjs('fastify-internals/reply.js')],
  ['fastify/lib/symbols', cjs('fastify-internals/symbols.js')],
  ['fastify/lib/symbols.js', cjs('fastify-internals/symbols.js')]
])

onLoad(/[\\/]jest-resolve[\\/]build[\\/]index\.js$/, (exports) => {
  const Resolver = exports?.default
  const proto = Resolver?.prototype
  if (typeof proto?.resolveStubModuleName !== 'function' || proto.resolveStubModuleName.hotpath === true) return
  const resolveStub = proto.resolveStubModuleName
  proto.resolveStubModuleName = function (/** @type {string} */ from, /** @type {string} */ moduleName, /** @type {any[]} */ ...rest) {
    return JEST_TARGETS.get(moduleName) ?? resolveStub.call(this, from, moduleName, ...rest)
  }
  proto.resolveStubModuleName.hotpath = true
})
