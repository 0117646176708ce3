// lib/ imports only node: built-ins and its own files; packages are loaded
// with require() through lib/require.js. An `import` of a CommonJS package
// makes Node's ESM loader lex the package source first, which on
// find-my-way left 6 MiB of compiler memory in the process (see require.js).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const lib = fileURLToPath(new URL('../lib', import.meta.url))

/** @param {string} dir @returns {string[]} */
function jsFiles (dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [])
}

/**
 * Module specifiers of static imports, re-exports and dynamic import() calls
 * (not JSDoc types: `{import('x').T}`, `typeof import('x')`).
 * @param {string} source
 */
export function specifiersOf (source) {
  const found = []
  for (const m of source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)) found.push(m[1])
  for (const m of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push(m[1])
  for (const m of source.matchAll(/(?<!(?:[{|<]|typeof)\s*)\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1])
  return found
}

test('the specifier scan sees static, bare, re-export and dynamic imports, not JSDoc types', () => {
  const source = [
    "import a from 'find-my-way'",
    "import { b } from './b.js'",
    "import 'side-effect'",
    "export { c } from 'pkg/c'",
    "const d = await import('dyn')",
    "/** @type {import('a-type').T | import('b-type')} */",
    "/** @type {typeof import('c-type')} */"
  ].join('\n')
  assert.deepEqual(specifiersOf(source).sort(), ['./b.js', 'dyn', 'find-my-way', 'pkg/c', 'side-effect'])
})

test('lib/ imports only node: built-ins and relative files', () => {
  const files = jsFiles(lib)
  assert.ok(files.length > 20, `expected the lib files, found ${files.length}`)
  const offending = []
  for (const file of files) {
    for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('node:') && !spec.startsWith('./') && !spec.startsWith('../')) offending.push(`${relative(lib, file)}: ${spec}`)
    }
  }
  assert.deepEqual(offending, [])
})

test('lib/ takes node:http from lib/node-http.js, never by import (its ESM facade loads undici and node:tls on Node 22 and later)', () => {
  const offending = []
  for (const file of jsFiles(lib)) {
    // import() in a JSDoc type (a comment line) only names a type
    const code = readFileSync(file, 'utf8').split('\n').filter((line) => !/^\s*(\/\*\*|\*|\/\/)/.test(line)).join('\n')
    if (specifiersOf(code).includes('node:http')) offending.push(relative(lib, file))
  }
  assert.deepEqual(offending, [])
})

/**
 * The graph of relative imports between lib/ files (static, re-export and
 * dynamic), keyed by path relative to lib/.
 */
function importGraph () {
  /** @type {Map<string, string[]>} */
  const graph = new Map()
  for (const file of jsFiles(lib)) {
    const from = relative(lib, file)
    const to = specifiersOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
      .map((spec) => relative(lib, join(dirname(file), spec)))
    graph.set(from, to)
  }
  return graph
}

/**
 * Every import cycle of the graph, each as the path that closes it, found
 * by a depth-first walk.
 * @param {Map<string, string[]>} graph
 */
export function findCycles (graph) {
  /** @type {string[][]} */
  const cycles = []
  /** @type {Map<string, number>} 1 on the walk's stack, 2 done */
  const state = new Map()
  /** @type {string[]} */
  const stack = []
  /** @param {string} node */
  const visit = (node) => {
    state.set(node, 1)
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      const s = state.get(next)
      if (s === 1) cycles.push([...stack.slice(stack.indexOf(next)), next])
      else if (s === undefined) visit(next)
    }
    stack.pop()
    state.set(node, 2)
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return cycles
}

test('the cycle finder sees a cycle of three and ignores a diamond', () => {
  const graph = new Map([['a', ['b', 'c']], ['b', ['d']], ['c', ['d']], ['d', []], ['x', ['y']], ['y', ['z']], ['z', ['x']]])
  assert.deepEqual(findCycles(graph), [['x', 'y', 'z', 'x']])
})

test('lib/ has no import cycle (docs/architecture.md: the stages import the kernel, never each other backwards)', () => {
  const graph = importGraph()
  for (const [from, to] of graph) {
    for (const target of to) assert.ok(graph.has(target), `${from} imports ${target}, which is not a lib/ file`)
  }
  assert.deepEqual(findCycles(graph).map((c) => c.join(' → ')), [])
})
