// Issue 2's benchmark: hotpath on node:http against raw node:http and Fastify
// (same response bytes, a response schema in both) on hello JSON, a :id route
// among 100 routes, a 1 KiB JSON POST validated by schema, an async handler
// awaiting 1 ms, and a route behind three hooks. Server and load generator on
// separate CPUs, warm-up discarded, 5 interleaved rounds, medians — measured
// by the lab's runner (lab/runner), so there is one measuring engine.
//
//   npm run bench -w hotpath                  (autocannon)
//   npm run bench -w hotpath -- --loader wrk  (wrk, when installed)
//
// Any lab option may follow and overrides the profile (see
// `npm run bench -- --help` at the repository root). The goals of issue 2
// are printed after the table.

import { main } from '../../../lab/runner/cli.js'

const { code } = await main(['--profile', 'core', ...process.argv.slice(2)])
process.exitCode = code
