#!/usr/bin/env node
// npm run bench:types [-- 100 300 1000]
//
// How the schema-inferred route types scale: generates an application of N
// routes with TypeBox schemas (params, query, body, and a response schema
// for three statuses on each), in a temp folder, and type-checks it with
// `tsc --noEmit --strict --extendedDiagnostics`, printing check time,
// total time and memory for each N. A report, not a test.

import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync, symlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
// TSC=path/to/tsc measures another TypeScript (the repository's by default)
const tsc = process.env.TSC ?? join(root, 'node_modules', '.bin', 'tsc')
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0)

/** @param {number} n */
function app (n) {
  const lines = [
    "import 'hotpath/typebox'",
    "import hotpath from 'hotpath'",
    "import Type from 'typebox'",
    'const app = hotpath()'
  ]
  for (let i = 0; i < n; i++) {
    lines.push(`
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
})`)
  }
  lines.push('export { app }')
  return lines.join('\n')
}

/** @param {string} out @param {string} label */
function pick (out, label) {
  const m = out.match(new RegExp(`^${label}:\\s+([\\d.]+)(\\w*)`, 'm'))
  return m ? `${m[1]}${m[2]}` : '?'
}

const rows = [['routes', 'check time', 'total time', 'memory used', 'TS2589']]
for (const n of sizes.length > 0 ? sizes : [100, 300, 1000]) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-types-'))
  try {
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
    writeFileSync(join(dir, 'app.ts'), app(n))
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], skipLibCheck: true },
      files: ['app.ts']
    }))
    const r = spawnSync(tsc, ['-p', dir, '--extendedDiagnostics'], { encoding: 'utf8' })
    const out = r.stdout + r.stderr
    const errors = out.split('\n').filter((l) => l.includes('error TS'))
    if (errors.length > 0 && !errors.every((l) => l.includes('TS2589'))) {
      console.error(errors.slice(0, 5).join('\n'))
      process.exitCode = 1
    }
    rows.push([String(n), pick(out, 'Check time'), pick(out, 'Total time'), pick(out, 'Memory used'), String(errors.filter((l) => l.includes('TS2589')).length)])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '))
