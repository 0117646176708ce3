// Crash hunting: random requests through routes with every hook kind, sync
// and async, throwing and rejecting; pass-through and replacing preParsing
// streams; stream replies (Node and web, slow, failing before and after the
// first byte); JSON, text and urlencoded bodies of random sizes (over the
// limit, chunked, with Expect: 100-continue); Connect middleware (cors,
// helmet, serve-static and a hand-written one); clients that leave at random
// points; pipelining and keep-alive reuse. On both engines over real sockets
// on 127.0.0.1, and through inject.
//
// It fails on: a server process that dies (an uncaught exception or an
// unhandled rejection), a MaxListenersExceededWarning, a request that gets
// neither an answer nor a close within the bound, a socket still open after
// a batch or after close() (node:net's count and the wire engine's own
// set), more active handles after close() than before listen(), a health
// GET that fails after a batch, a malformed response, a 5xx that shows an
// internal message, and a request whose onResponse/onRequestAbort hooks ran
// more than once.
//
// The server runs in a child process, one per mode, and the clients here:
// a crash is then what users would see, the server process dying; the
// harness survives it, reports the cases that were in flight, starts a
// fresh server and goes on.
//
// The code is in ./chaos/: cases.js (the seeded cases and the pinned
// ones), http.js (request bytes, response parsing, the client connection),
// client.js (one case over a socket or through inject, and its outcome),
// app.js (the app under test), server.js (the server process and the
// parent's handle on it), run.js (runChaos: batches, the leak and health
// checks, formatSummary). This file is the command line.
//
// Every case is generated from (seed, index) alone, so one case replays on
// its own:
//
//   node packages/hotpath/test/fuzz/chaos.js [--seed S] [--minutes M | --seconds S]
//     [--requests N] [--modes node,wire,inject] [--concurrency C] [--batch B]
//     [--case I | --case A..B | --case pinned:NAME]... [--print] [--no-pinned] [--single]
//
// --case runs only the cases named (repeatable; 'pinned:NAME' is a fixed
// regression case, see PINNED in chaos/cases.js); --print prints them
// instead; --batch 1 --concurrency 1 checks sockets and health after every
// case, to find the case behind a leak; --single sends only the last
// request of each case, on a connection of its own (to look past a bug
// that hangs kept-alive connections). `npm run fuzz:chaos -- --minutes 30`.

import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { getCase } from './chaos/cases.js'
import { runChaos, formatSummary } from './chaos/run.js'

export { runChaos, formatSummary }

const USAGE = `node packages/hotpath/test/fuzz/chaos.js [options]   (npm run fuzz:chaos -- [options])
  --seed S                 the seed (default: from the clock; printed, and reproduces the run)
  --minutes M | --seconds S  how long to run (default 60 s; with --requests or --case, until done)
  --requests N             at most N requests per mode
  --modes node,wire,inject which servers to hunt
  --concurrency C          cases in flight per mode (default 16)
  --batch B                cases between socket and health checks (default 64)
  --case I | A..B | pinned:NAME   only these cases (repeatable)
  --print                  print the cases instead of running them
  --no-pinned              skip the pinned regression cases
  --single                 one request per case, on a connection of its own`

async function main () {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: String(Date.now() % 1e9) },
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      requests: { type: 'string' },
      modes: { type: 'string', default: 'node,wire,inject' },
      concurrency: { type: 'string', default: '16' },
      batch: { type: 'string', default: '64' },
      case: { type: 'string', multiple: true },
      print: { type: 'boolean', default: false },
      'no-pinned': { type: 'boolean', default: false },
      single: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false }
    }
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const seed = Number(values.seed)
  /** @type {(string | number)[] | undefined} */
  const cases = values.case?.flatMap((c) => {
    const range = /^(\d+)\.\.(\d+)$/.exec(c)
    if (range !== null) return Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, k) => Number(range[1]) + k)
    return [/^\d+$/.test(c) ? Number(c) : c]
  })
  if (values.print) {
    for (const c of cases ?? [0]) console.log(JSON.stringify(getCase(seed, c), null, 1))
    return
  }
  const ms = values.seconds !== undefined
    ? Number(values.seconds) * 1000
    : values.minutes !== undefined ? Number(values.minutes) * 60_000 : (values.requests !== undefined || values.case !== undefined ? 24 * 3600_000 : 60_000)
  const modes = values.modes.split(',')
  console.log(`chaos: seed ${seed} (--seed ${seed} reproduces), modes ${modes.join(', ')}, ${values.requests ?? 'unbounded'} requests per mode, ${Math.round(ms / 1000)} s at most`)
  const summary = await runChaos({
    seed,
    modes,
    ms,
    requests: values.requests === undefined ? undefined : Number(values.requests),
    concurrency: Number(values.concurrency),
    batch: Number(values.batch),
    pinned: !values['no-pinned'],
    single: values.single,
    cases,
    log: (line) => console.log(line)
  })
  console.log(formatSummary(summary))
  process.exitCode = summary.failures.length === 0 ? 0 : 1
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main()
}
