// The cost of the JSON depth limit on the json-post path: ns per parse of a
// 1 KiB body with the built-in JSON parser, against secure-json-parse alone
// (what the parser did before the limit). Two bodies: the lab's json-post
// body (11 openers, under the limit: only the opener count runs) and a
// 1 KiB array of 100 small objects (over the limit in openers, not in
// depth: the exact walk runs too). In-process, one core, medians of rounds
// run alternately.
//
//   taskset -c 0 node bench/json-depth.js

import { createRequire } from 'node:module'
import { parseJson, tooDeep } from '../lib/body/json.js'
import { postBody } from '../../../lab/scenarios/index.js'

const sjson = createRequire(import.meta.url)('secure-json-parse')
const OPTIONS = { protoAction: 'error', constructorAction: 'error' }
const req = /** @type {any} */ ({ route: { app: { jsonDepthLimit: 64 } } })

const manyOpeners = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ i })))
const bodies = {
  'json-post (11 openers)': postBody,
  // from a Buffer, flat, as a body read off the socket is
  [`100 objects (${manyOpeners.length} B, 101 openers)`]: Buffer.from(manyOpeners.padEnd(1024, ' ')).toString()
}

const N = 200_000
const ROUNDS = 7
let sink = 0

/** @param {() => unknown} fn */
function time (fn) {
  const t = process.hrtime.bigint()
  for (let i = 0; i < N; i++) sink += fn() === null ? 1 : 0
  return Number(process.hrtime.bigint() - t) / N
}

/** @param {number[]} xs */
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1]

for (const [name, body] of Object.entries(bodies)) {
  const before = () => sjson.parse(body, null, OPTIONS)
  const after = () => parseJson(req, body)
  const check = () => tooDeep(body, 64)
  const runs = { before: /** @type {number[]} */ ([]), after: /** @type {number[]} */ ([]), check: /** @type {number[]} */ ([]) }
  for (let r = 0; r < ROUNDS + 1; r++) {
    const order = r % 2 === 0 ? ['before', 'after', 'check'] : ['check', 'after', 'before']
    for (const k of order) {
      const ns = time(k === 'before' ? before : k === 'after' ? after : check)
      if (r > 0) runs[/** @type {'before'} */ (k)].push(ns) // round 0 is the warm-up
    }
  }
  const fmt = (/** @type {number[]} */ xs) => `${median(xs).toFixed(0)} ns (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`
  console.log(`${name}, ${body.length} B`)
  console.log(`  before (secure-json-parse): ${fmt(runs.before)}`)
  console.log(`  after  (parseJson):         ${fmt(runs.after)}`)
  console.log(`  depth check alone:          ${fmt(runs.check)}`)
}
if (sink === -1) console.log(sink)
