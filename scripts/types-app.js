// Generated TypeScript applications, and tsc's figures for checking them:
// shared by `npm run bench:types` and `npm run bench:types:editor` (reports)
// and types-cost.test.js (a bound on instantiations, which are deterministic
// for one TypeScript).

import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync, symlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const root = fileURLToPath(new URL('..', import.meta.url))
export const repoTsc = join(root, 'node_modules', '.bin', 'tsc')

/** Fastify's side is measured when the lab's dependencies are installed. */
export function hasFastify () {
  const require = createRequire(import.meta.url)
  try {
    require.resolve('fastify')
    require.resolve('@fastify/type-provider-typebox')
    return true
  } catch {
    return false
  }
}

/** The lines that make the app, per framework; the routes are the same text. */
const heads = {
  hotpath: ["import 'hotpath/typebox'", "import hotpath from 'hotpath'", "import Type from 'typebox'", 'const app = hotpath()'],
  fastify: ["import Fastify from 'fastify'", "import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'", "import Type from 'typebox'", 'const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()'],
  // Fastify's app with its first line changed
  'hotpath/fastify': ["import Fastify from 'hotpath/fastify'", "import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'", "import Type from 'typebox'", 'const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()']
}

/**
 * Route i of the benchmark's app: TypeBox params, query and body, three
 * response schemas; the handler reads its typed request, sends a 404 through
 * `code(404).send()` and returns the 200 reply.
 * @param {number} i
 */
export function fullRoute (i) {
  return `
const Item${i} = Type.Object({ id: Type.Integer(), name: Type.String(), tags: Type.Array(Type.String()), price${i}: Type.Number() })
app.post('/r${i}/:id', {
  schema: {
    params: Type.Object({ id: Type.Integer() }),
    querystring: Type.Object({ dry: Type.Optional(Type.Boolean()), limit: Type.Optional(Type.Integer()) }),
    body: Item${i},
    response: { 200: Item${i}, 404: Type.Object({ message: Type.String() }), 500: Type.Object({ message: Type.String() }) }
  }
}, async (req, reply) => {
  const n: number = req.params.id + (req.query.limit ?? 0)
  if (n < 0) return reply.code(404).send({ message: 'no such item' })
  return { id: n, name: req.body.name, tags: req.body.tags, price${i}: req.body.price${i} }
})`
}

/**
 * Route i with a body schema and no response schema, its handler reading
 * the body.
 * @param {number} i
 */
export function bodyRoute (i) {
  return `
app.post('/b${i}', { schema: { body: Type.Object({ name: Type.String(), n${i}: Type.Integer() }) } }, (req) => {
  const n: number = req.body.n${i}
  return { name: req.body.name, n }
})`
}

/**
 * The source of an app of n routes: one file, or files of `perFile` routes
 * each (every file makes its own app, as a plugin's file would).
 * @param {number} n @param {(i: number) => string} route @param {'hotpath' | 'fastify' | 'hotpath/fastify'} [framework] @param {number} [perFile]
 * @returns {string[]} the files' sources
 */
export function appSource (n, route, framework = 'hotpath', perFile = n) {
  const files = []
  for (let first = 0; first < n; first += perFile) {
    const lines = [...heads[framework]]
    for (let i = first; i < Math.min(n, first + perFile); i++) lines.push(route(i))
    lines.push('export { app }')
    files.push(lines.join('\n'))
  }
  return files
}

/**
 * Writes one program (app.ts, or app0.ts, app1.ts... for several files;
 * strict, nodenext) to a temp folder that sees the repository's
 * node_modules; `rmSync(dir, { recursive: true })` removes it.
 * @param {string[]} sources @returns {string} the folder
 */
export function writeProgram (sources) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-types-'))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  const files = sources.map((_, i) => sources.length === 1 ? 'app.ts' : `app${i}.ts`)
  sources.forEach((source, i) => writeFileSync(join(dir, files[i]), source))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], skipLibCheck: true },
    files
  }))
  return dir
}

/**
 * Type-checks one program with `tsc --noEmit --strict --extendedDiagnostics`.
 * @param {string[]} sources @param {string} [tsc]
 * @returns {{ errors: string[], checkTime: string, totalTime: string, memory: string, instantiations: number }}
 */
export function checkProgram (sources, tsc = repoTsc) {
  const dir = writeProgram(sources)
  try {
    const r = spawnSync(tsc, ['-p', dir, '--extendedDiagnostics'], { encoding: 'utf8' })
    if (r.error) throw r.error
    const out = r.stdout + r.stderr
    /** @param {string} label */
    const pick = (label) => {
      const m = out.match(new RegExp(`^${label}:\\s+([\\d.]+)(\\w*)`, 'm'))
      return m ? `${m[1]}${m[2]}` : '?'
    }
    return {
      errors: out.split('\n').filter((l) => l.includes('error TS')),
      checkTime: pick('Check time'),
      totalTime: pick('Total time'),
      memory: pick('Memory used'),
      instantiations: Number(pick('Instantiations'))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The median of a benchmark's rounds. @param {number[]} xs */
export function median (xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
}

/**
 * "median (min–max)" of a benchmark's rounds.
 * @param {number[]} xs @param {(x: number) => string} format
 */
export function spread (xs, format) {
  return `${format(median(xs))} (${format(Math.min(...xs))}–${format(Math.max(...xs))})`
}

/** Prints rows as a table with padded columns. @param {string[][]} rows */
export function printTable (rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '))
}
