// hotpath/fastify's declarations list by hand the names Fastify's entry
// declares on its CommonJS namespace (an `export =` cannot be re-exported
// whole): types/test/fastify/namespace.ts imports each of them from
// hotpath/fastify, which tsc checks (npm run typecheck). This test keeps
// that list complete against the Fastify declarations installed, so a name
// a Fastify release adds shows up here rather than in a migrated app.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** The names declared in `declare namespace fastify { ... }` of Fastify's entry. */
function fastifyNamespaceNames () {
  const src = readFileSync(require.resolve('fastify/fastify.d.ts'), 'utf8')
  const start = src.indexOf('declare namespace fastify {')
  assert.ok(start >= 0, "Fastify's entry declares its namespace")
  const body = src.slice(start, src.indexOf('\n}\n', start))
  const names = new Set()
  for (const m of body.matchAll(/^ {2}export (?:declare )?(?:type|interface|const|class|function|enum) (\w+)/gm)) names.add(m[1])
  for (const m of body.matchAll(/^ {2}export (?:type )?\{([^}]*)\}/gm)) {
    for (const part of m[1].replace(/\/\/.*$/gm, '').split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/)
      if (name) names.add(alias ?? name)
    }
  }
  return names
}

/** The names types/test/fastify/namespace.ts imports from hotpath/fastify. */
function importedNames () {
  const src = readFileSync(new URL('./fastify/namespace.ts', import.meta.url), 'utf8')
  const names = new Set()
  for (const m of src.matchAll(/^import (?:type )?(\w+)?,? ?(?:\{([^}]*)\})? from 'hotpath\/fastify'/gm)) {
    if (m[1]) names.add('default')
    for (const part of (m[2] ?? '').split(',')) if (part.trim()) names.add(part.trim())
  }
  return names
}

test("types/test/fastify/namespace.ts imports every name of Fastify's namespace from hotpath/fastify", () => {
  const declared = fastifyNamespaceNames()
  assert.ok(declared.size > 50, `found ${declared.size} names in Fastify's namespace`)
  const imported = importedNames()
  const missing = [...declared].filter((n) => !imported.has(n))
  assert.deepEqual(missing, [], 'names of Fastify\'s namespace not checked against hotpath/fastify')
})
