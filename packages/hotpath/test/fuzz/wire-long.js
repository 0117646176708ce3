// Long differential fuzz of the wire engine against llhttp (node:http):
// `npm run fuzz:wire`. Sends generated and mutated requests to both servers
// on 127.0.0.1 until at least 1,000,000 requests went out (or the time
// limit), then prints the counts and exits 1 on any undocumented divergence.
// Divergent inputs are written to a JSON file in the temp folder, to be
// turned into corpus cases (test/wire/corpus/).
//
//   node packages/hotpath/test/fuzz/wire-long.js [--requests N] [--seed S] [--minutes M] [--concurrency C]

import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import { startNode, startWire, runCase } from '../wire/harness.js'
import { requestBytes } from '../wire/generate.js'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: String(Date.now() % 1e9) },
    minutes: { type: 'string', default: '90' },
    concurrency: { type: 'string', default: '32' }
  }
})
const target = Number(values.requests)
const seed = Number(values.seed)
const deadline = Date.now() + Number(values.minutes) * 60_000
const concurrency = Number(values.concurrency)

const errors = { uncaught: 0 }
process.on('uncaughtException', (err) => { errors.uncaught++; console.error('uncaught exception', err) })
process.on('unhandledRejection', (err) => { errors.uncaught++; console.error('unhandled rejection', err) })

const node = await startNode()
const wire = await startWire()
const ports = { node: node.port, wire: wire.port }

let requests = 0
let cases = 0
let same = 0
/** @type {Record<string, number>} */
const expected = {}
/** @type {{ raw: string, requests: number, node: string[], wire: string[] }[]} */
const divergences = []
const started = Date.now()
let batch = 0

console.log(`wire fuzz: seed ${seed}, target ${target} requests, concurrency ${concurrency}`)
while (requests < target && Date.now() < deadline) {
  // a fresh seeded batch each round keeps memory flat and the run reproducible
  const samples = fc.sample(requestBytes, { numRuns: 2000, seed: seed + batch++ })
  for (let i = 0; i < samples.length && requests < target; i += concurrency) {
    const slice = samples.slice(i, i + concurrency)
    const results = await Promise.all(slice.map(s => runCase(ports, Buffer.from(s.raw, 'latin1'), s.requests)))
    for (let k = 0; k < slice.length; k++) {
      const r = results[k]
      cases++
      requests += slice[k].requests
      if (r.same) same++
      else if (r.expected !== undefined) expected[r.expected] = (expected[r.expected] ?? 0) + 1
      else {
        divergences.push({ raw: slice[k].raw, requests: slice[k].requests, node: r.node, wire: r.wire })
        console.log('DIVERGENCE', JSON.stringify(slice[k].raw))
      }
    }
  }
  const s = (Date.now() - started) / 1000
  console.log(`${requests} requests, ${cases} cases, ${divergences.length} divergences, ${Math.round(requests / s)} req/s`)
}

await node.close()
await wire.close()
if (divergences.length > 0) {
  const file = join(tmpdir(), `wire-divergences-${seed}.json`)
  writeFileSync(file, JSON.stringify(divergences, null, 1))
  console.log('divergent inputs written to', file)
}
console.log(JSON.stringify({
  seed,
  requests,
  cases,
  identical: same,
  expectedDifferences: expected,
  divergences: divergences.length,
  uncaught: errors.uncaught,
  seconds: Math.round((Date.now() - started) / 1000),
  completed: requests >= target
}, null, 1))
process.exit(divergences.length === 0 && errors.uncaught === 0 && requests >= target ? 0 : 1)
