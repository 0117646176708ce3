#!/usr/bin/env node
// npm run bench:types [-- 100 300 1000]
//
// How the schema-inferred route types scale: generates an application of N
// routes with TypeBox schemas (params, query, body, and a response schema
// for three statuses on each), and type-checks it with
// `tsc --noEmit --strict --extendedDiagnostics`. The same routes are checked
// as a Fastify 5 app with @fastify/type-provider-typebox, and as that app
// with its import changed to hotpath/fastify, interleaved with hotpath's, so
// the ratios come from one run. Prints the median check and
// total time of ROUNDS runs (default 3) with min and max, memory, and
// instantiations per route. A report, not a test.
//
// TSC=path/to/tsc measures another TypeScript (the repository's by default).
// PER_FILE=100 splits the routes into files of 100, each with its own app,
// as an application's plugins would be: tsc's time grows faster than the
// routes within one long file, and linearly across files.

import { appSource, checkProgram, fullRoute, hasFastify, median, printTable, repoTsc, spread } from './types-app.js'

const tsc = process.env.TSC ?? repoTsc
const rounds = Math.max(1, Number(process.env.ROUNDS ?? 3))
const perFile = Number(process.env.PER_FILE ?? 0)
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0)

const frameworks = /** @type {const} */ (hasFastify() ? ['hotpath', 'hotpath/fastify', 'fastify'] : ['hotpath'])

/** @param {number} x */
const seconds = (x) => `${x.toFixed(2)} s`

const rows = [['routes', 'framework', 'check time', 'total time', 'memory', 'inst./route', 'TS2589', 'total × hotpath']]
for (const n of sizes.length > 0 ? sizes : [100, 300, 1000]) {
  /** @type {Record<string, { check: number[], total: number[], memory: string, inst: number, deep: number }>} */
  const runs = {}
  for (let round = 0; round < rounds; round++) {
    // A B C, then C B A: no framework always runs first
    const order = round % 2 === 0 ? frameworks : [...frameworks].reverse()
    for (const fw of order) {
      const r = checkProgram(appSource(n, fullRoute, fw, perFile > 0 ? perFile : n), tsc)
      const deep = r.errors.filter((l) => l.includes('TS2589'))
      if (r.errors.length > deep.length) {
        console.error(`${fw}, ${n} routes:\n${r.errors.slice(0, 5).join('\n')}`)
        process.exitCode = 1
      }
      const run = (runs[fw] ??= { check: [], total: [], memory: r.memory, inst: r.instantiations, deep: deep.length })
      run.check.push(parseFloat(r.checkTime))
      run.total.push(parseFloat(r.totalTime))
    }
  }
  for (const fw of frameworks) {
    const run = runs[fw]
    rows.push([String(n), fw, spread(run.check, seconds), spread(run.total, seconds), run.memory, String(Math.round(run.inst / n)), String(run.deep),
      (median(run.total) / median(runs.hotpath.total)).toFixed(2)])
  }
}
printTable(rows)
