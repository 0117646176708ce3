// Whether a schema's compile can wait for its first use. hotpath's own
// compilers (ajv, fast-json-stringify) compile a route's schemas on the
// route's first request instead of at ready(): on an app of 1,000 routes
// with a params, body and response schema each, compiling took 2.9 of the
// 3.3 s from import to ready() (ajv 2.4 s, fast-json-stringify 0.3 s, in a
// --cpu-prof of lab/targets/startup.js), and a route compiles in about 3 ms.
// What ready() still checks, for a fraction of that (about 30 µs a schema):
// the schema against the meta-schema, and this walk, which looks for what
// only a compile would reject. A schema the walk is unsure of is compiled at
// ready() as before, so a compile error is still ready()'s error, in the
// compiler's own words. docs/validation.md lists what only a compile finds.

const JSON_SCALAR = new Set(['string', 'number', 'boolean'])
/** @type {Set<string>} */
const NONE = new Set()

/** past this depth, the walk gives up and the schema compiles at ready() (fast-json-stringify refuses depth over 100) */
const MAX_DEPTH = 32

/**
 * Finds a schema by the id part of a `$ref` ('' is the schema being
 * walked); undefined when the compiler does not know it, null when it knows
 * the id but not its schema object (its fragments are then not checked).
 * @typedef {(id: string) => any} SchemaLookup
 */

/**
 * True when the walk finds nothing that only a compile would refuse: no
 * `$ref` that does not resolve (its id unknown, or its JSON pointer leading
 * nowhere), no `pattern` that is not a regular expression, no cycle of
 * objects, nothing deeper than MAX_DEPTH. A nested `$id`, `$schema`, an
 * anchor or a dynamic reference (which change how references resolve, or
 * register the schema under a name that another route may reference), a
 * keyword an ajv plugin added (it checks its value as it compiles), and
 * anything that is not JSON (a function an ajv plugin's keyword takes) are
 * left to the compile at ready(), which knows. So a deferred schema is
 * exactly its JSON text, and routes whose schemas have the same text share
 * one compiled function.
 * @param {any} root
 * @param {SchemaLookup} lookup
 * @param {boolean} [rootMayHaveId]  a shared schema, whose own `$id` is its name
 * @param {Set<string>} [compileChecked]  keywords that check their value only as they compile (an ajv plugin's): a schema that uses one is not deferred
 */
export function deferrable (root, lookup, rootMayHaveId = false, compileChecked = NONE) {
  /** @type {Set<object>} */
  const path = new Set()
  /** @type {string[]} */
  const refs = []
  if (!walk(root, 0, path, refs, rootMayHaveId, compileChecked)) return false
  for (const ref of refs) if (!resolves(ref, root, lookup)) return false
  return true
}

/** keywords whose value maps names to schemas: the names are not keywords */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'dependencies'])
/** keywords whose value is data, not a schema */
const DATA = new Set(['enum', 'const', 'default', 'examples'])

/**
 * @param {any} node       a schema, or (in an array) a list of schemas
 * @param {number} depth
 * @param {Set<object>} path   the objects above this one (a cycle is an object met again on its own path)
 * @param {string[]} refs      the `$ref`s met
 * @param {boolean} idAllowed
 * @param {Set<string>} compileChecked
 * @returns {boolean}
 */
function walk (node, depth, path, refs, idAllowed, compileChecked) {
  if (node === null || typeof node !== 'object') return JSON_SCALAR.has(typeof node) || node === null
  if (!enter(node, depth, path)) return false
  if (Array.isArray(node)) {
    for (const item of node) if (!walk(item, depth + 1, path, refs, false, compileChecked)) return false
  } else {
    if (!idAllowed && node.$id !== undefined) return false
    if (node.$schema !== undefined || node.$anchor !== undefined || node.$dynamicRef !== undefined || node.$recursiveRef !== undefined || node.$dynamicAnchor !== undefined || node.$recursiveAnchor !== undefined) return false
    if (node.$ref !== undefined) {
      if (typeof node.$ref !== 'string') return false
      refs.push(node.$ref)
    }
    if (node.pattern !== undefined && !isPattern(node.pattern)) return false
    if (node.patternProperties !== null && typeof node.patternProperties === 'object') {
      for (const key of Object.keys(node.patternProperties)) if (!isPattern(key)) return false
    }
    for (const key of Object.keys(node)) {
      // ajv refuses `id` as it compiles ("use $id"); a plugin's keyword
      // checks its value as it compiles
      if (key === 'id' || compileChecked.has(key)) return false
      const value = node[key]
      if (DATA.has(key)) {
        if (!data(value, depth + 1, path)) return false
      } else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        if (!enter(value, depth + 1, path)) return false
        for (const name of Object.keys(value)) if (!walk(value[name], depth + 2, path, refs, false, compileChecked)) return false
        path.delete(value)
      } else if (!walk(value, depth + 1, path, refs, false, compileChecked)) {
        // (a function, as an ajv plugin's keyword may take, is not JSON)
        return false
      }
    }
  }
  path.delete(node)
  return true
}

/**
 * A value that is data (enum, const, default): JSON, no cycle, not too deep.
 * @param {any} node
 * @param {number} depth
 * @param {Set<object>} path
 * @returns {boolean}
 */
function data (node, depth, path) {
  if (node === null || typeof node !== 'object') return JSON_SCALAR.has(typeof node) || node === null
  if (!enter(node, depth, path)) return false
  for (const value of Array.isArray(node) ? node : Object.values(node)) if (!data(value, depth + 1, path)) return false
  path.delete(node)
  return true
}

/**
 * Steps into an object: false past MAX_DEPTH, on a cycle, or for what is
 * not plain JSON (a RegExp, a Date, a class instance): a deferred schema is
 * the same schema as its JSON text, which lets routes share its compile.
 * @param {object} node
 * @param {number} depth
 * @param {Set<object>} path
 */
function enter (node, depth, path) {
  if (depth > MAX_DEPTH || path.has(node)) return false
  const proto = Object.getPrototypeOf(node)
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false
  path.add(node)
  return true
}

/** @param {unknown} source */
function isPattern (source) {
  if (typeof source !== 'string') return false
  try {
    // ajv compiles patterns with the u flag
    RegExp(source, 'u')
    return true
  } catch {
    return false
  }
}

/**
 * @param {string} ref
 * @param {any} root
 * @param {SchemaLookup} lookup
 */
function resolves (ref, root, lookup) {
  const hash = ref.indexOf('#')
  const id = hash === -1 ? ref : ref.slice(0, hash)
  const fragment = hash === -1 ? '' : ref.slice(hash + 1)
  const target = id === '' ? root : lookup(id)
  if (target === undefined) return false
  if (fragment === '') return true
  // an anchor (`#name`) is left to the compiler
  if (fragment[0] !== '/' || target === null) return false
  return pointer(target, fragment) !== undefined
}

/**
 * RFC 6901 §4: a JSON pointer's target, or undefined.
 * @param {any} doc
 * @param {string} fragment  the pointer, URI-encoded as a fragment (RFC 6901 §6)
 */
function pointer (doc, fragment) {
  let text
  try {
    text = decodeURIComponent(fragment)
  } catch {
    return undefined
  }
  let node = doc
  for (const raw of text.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
    node = node[key]
  }
  return node
}
