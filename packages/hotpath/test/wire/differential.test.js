// Differential test against llhttp (node:http): the committed corpus, then a
// short generated/mutated run. Every case must either be parsed the same way
// by both servers or differ in one of the documented ways (harness.js
// EXPECTED, docs/engines.md) — and wire never accepts what llhttp rejects,
// except where the harness names the reason.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import fc from 'fast-check'
import { startNode, startWire, runCase } from './harness.js'
import { requestBytes } from './generate.js'

const dir = new URL('./corpus/', import.meta.url)
/** @type {{ name: string, raw: string, requests?: number, wire?: 'accept' | 'reject' }[]} */
const corpus = readdirSync(dir).filter(f => f.endsWith('.json')).flatMap(f => JSON.parse(readFileSync(new URL(f, dir), 'utf8')))

/** @type {Awaited<ReturnType<typeof startNode>>} */
let node
/** @type {Awaited<ReturnType<typeof startWire>>} */
let wire
before(async () => { node = await startNode(); wire = await startWire() })
after(async () => { await node.close(); await wire.close() })

test('corpus: every case agrees with llhttp or differs as documented', async () => {
  assert.ok(corpus.length >= 90)
  for (const c of corpus) {
    const r = await runCase({ node: node.port, wire: wire.port }, Buffer.from(c.raw, 'latin1'), c.requests ?? 1)
    assert.ok(r.same || r.expected, `${c.name}: undocumented divergence\nnode: ${JSON.stringify(r.node)}\nwire: ${JSON.stringify(r.wire)}`)
    if (c.wire !== undefined) {
      const got = r.wire.includes('reject') ? 'reject' : 'accept'
      assert.equal(got, c.wire, `${c.name}: wire should ${c.wire}`)
    }
  }
})

test('generated and mutated requests: no undocumented divergence', async () => {
  await fc.assert(fc.asyncProperty(requestBytes, async ({ raw, requests }) => {
    const r = await runCase({ node: node.port, wire: wire.port }, Buffer.from(raw, 'latin1'), requests)
    return r.same || r.expected !== undefined
  }), { numRuns: 300 })
})
