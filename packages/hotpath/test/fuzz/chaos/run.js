// The hunt (see ../chaos.js): per mode, a server process and the cases in
// batches; after each batch, no socket left open and a healthy server; at
// the end, a last health check and a close() that leaves nothing open.
// formatSummary prints what runChaos returns.

import { setTimeout as sleep } from 'node:timers/promises'
import { APP_OPTIONS, PINNED, getCase } from './cases.js'
import { runInjectCase, runSocketCase } from './client.js'
import { Client } from './http.js'
import { Server } from './server.js'

/** @typedef {import('./cases.js').ChaosCase} ChaosCase */
/** @typedef {import('./server.js').Failure} Failure */

/**
 * @param {Server} server
 * @returns {Promise<string | null>} what is wrong, or null
 */
async function checkHealth (server) {
  if (!server.alive) return 'the server process is gone'
  if (server.mode === 'inject') {
    const m = await server.ask({ type: 'inject', request: { method: 'GET', url: '/health' } })
    return m.status === 200 && m.body === 'ok' ? null : `GET /health through inject: ${JSON.stringify(m)}`
  }
  const client = new Client(server.port)
  try {
    if (!(await client.connected())) return 'GET /health: connection refused'
    client.write(Buffer.from('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 'latin1'))
    const r = await client.next('GET')
    if (typeof r === 'string') return `GET /health: ${r}`
    return r.status === 200 && r.body.toString() === 'ok' ? null : `GET /health: ${r.status} ${r.body.toString().slice(0, 100)}`
  } finally {
    client.close()
  }
}

/**
 * Every client socket of the batch is closed: the server's must follow.
 * @param {Server} server
 */
async function checkConnections (server) {
  if (server.mode === 'inject') return null
  let last = null
  for (let waited = 0; waited <= 4000; waited += 100) {
    last = await server.ask({ type: 'stats' })
    if (last.type !== 'stats') return null // it died: reported as a crash
    const open = Math.max(last.connections, last.engineConnections)
    // a socket reported once is not reported again by every later batch
    if (open <= server.leaked) {
      server.leaked = open
      return null
    }
    await sleep(100)
  }
  const before = server.leaked
  server.leaked = Math.max(last.connections, last.engineConnections)
  return `${last.connections} sockets (net.Server) and ${last.engineConnections} engine connections still open 4 s after every client closed` +
    (before > 0 ? ` (${before} of them reported before)` : '') + `; the last case each served: ${last.openCases.join(' ')}`
}

/**
 * @typedef {object} ChaosOptions
 * @property {number} seed
 * @property {string[]} [modes]          default node, wire, inject
 * @property {number} [requests]         stop after this many requests per mode
 * @property {number} [ms]               stop after this long (each mode runs in parallel)
 * @property {number} [concurrency]      cases in flight per mode
 * @property {number} [batch]            cases between health and connection checks
 * @property {boolean} [pinned]          run the pinned cases first (default true)
 * @property {(string | number)[]} [cases]  run only these cases
 * @property {boolean} [single]         one request per connection, with Connection: close
 *                                      (to look past a bug that hangs kept-alive connections)
 * @property {(line: string) => void} [log]
 * @property {number} [progressMs]
 */

/**
 * Runs the hunt and returns its summary; never throws for what it finds.
 * @param {ChaosOptions} opts
 */
export async function runChaos (opts) {
  const modes = opts.modes ?? ['node', 'wire', 'inject']
  const log = opts.log ?? (() => {})
  const started = Date.now()
  const deadline = started + (opts.ms ?? 60_000)
  /** @type {Failure[]} */
  const failures = []
  /** @param {Failure} f */
  const fail = (f) => {
    failures.push(f)
    log(`FAIL [${f.mode}] ${f.kind} case ${f.caseId}: ${f.detail.split('\n')[0]}`)
  }
  /** @type {Record<string, { requests: number, cases: number, kinds: Record<string, number>, restarts: number }>} */
  const perMode = {}
  const onWarning = (/** @type {Error} */ w) => {
    if (w.name === 'MaxListenersExceededWarning') fail({ mode: 'client', kind: 'warning', caseId: '', detail: w.message })
  }
  process.on('warning', onWarning)
  await Promise.all(modes.map((mode) => runMode(mode)))
  process.removeListener('warning', onWarning)
  const seconds = Math.round((Date.now() - started) / 100) / 10
  return { seed: opts.seed, seconds, modes: perMode, failures }

  /** @param {string} mode */
  async function runMode (mode) {
    const stats = perMode[mode] = { requests: 0, cases: 0, kinds: /** @type {Record<string, number>} */ ({}), restarts: 0 }
    const server = new Server(mode, fail)
    await server.start()
    /** @type {(string | number)[]} */
    const queue = opts.cases ? [...opts.cases] : (opts.pinned === false ? [] : Object.keys(PINNED).map((k) => `pinned:${k}`))
    let next = 0
    const concurrency = opts.concurrency ?? 16
    const batchSize = opts.batch ?? 64
    const maxRequests = opts.requests ?? Infinity
    let lastProgress = Date.now()
    let planned = 0
    const more = () => Date.now() < deadline && planned < maxRequests && (opts.cases === undefined || queue.length > 0)
    while (more()) {
      if (!server.alive) {
        stats.restarts++
        await server.start()
      }
      const generation = server.generation
      /** @type {ChaosCase[]} */
      const batch = []
      while (batch.length < batchSize && (opts.cases === undefined || queue.length > 0)) {
        const which = queue.length > 0 ? /** @type {string | number} */ (queue.shift()) : next++
        let c = getCase(opts.seed, which)
        if (opts.single) c = { ...c, requests: c.requests.slice(-1), pipelined: false, closeLast: true }
        batch.push(c)
        planned += c.requests.length
        if (planned >= maxRequests) break
      }
      let k = 0
      // past the deadline no case starts; those under way finish
      const worker = async () => {
        while (k < batch.length && Date.now() < deadline) {
          const c = batch[k++]
          stats.requests += c.requests.length
          server.inFlight.add(c.id)
          const out = mode === 'inject' ? await runInjectCase(server, c) : await runSocketCase(server.port, c)
          server.inFlight.delete(c.id)
          server.recent.push(c.id)
          if (server.recent.length > 16) server.recent.shift()
          stats.cases++
          for (const [kind, n] of Object.entries(out.kinds)) stats.kinds[kind] = (stats.kinds[kind] ?? 0) + n
          for (const f of out.failures) fail({ mode, kind: f.kind, caseId: c.id, detail: f.detail })
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker))
      if (server.alive && server.generation === generation) {
        const leak = await checkConnections(server)
        if (leak !== null) fail({ mode, kind: 'leak', caseId: `${batch[0].id}..${batch[batch.length - 1].id}`, detail: leak })
        const sick = await checkHealth(server)
        if (sick !== null && server.alive) fail({ mode, kind: 'unhealthy', caseId: `${batch[0].id}..${batch[batch.length - 1].id}`, detail: sick })
      }
      if (Date.now() - lastProgress >= (opts.progressMs ?? 10_000)) {
        lastProgress = Date.now()
        const s = (Date.now() - started) / 1000
        log(`[${mode}] ${stats.requests} requests, ${stats.cases} cases, ${failures.filter((f) => f.mode === mode).length} failures, ${Math.round(stats.requests / s)} req/s`)
      }
    }
    // what a case started can still fail when a timer fires: wait past the
    // request timeout before the last look
    if (server.alive) await sleep(APP_OPTIONS.requestTimeout + 1000)
    if (server.alive) {
      const sick = await checkHealth(server)
      if (sick !== null && server.alive) fail({ mode, kind: 'unhealthy', caseId: 'end', detail: sick })
    }
    if (server.alive) {
      const closed = await server.stop()
      if (closed?.type === 'closed') {
        if (closed.connections !== 0 || closed.engineConnections !== 0) fail({ mode, kind: 'leak', caseId: 'close', detail: `after close(): ${closed.connections} sockets, ${closed.engineConnections} engine connections` })
        const before = closed.handlesBefore
        const after = closed.handlesAfter
        if (after.n > before.n) fail({ mode, kind: 'leak', caseId: 'close', detail: `active handles: ${before.n} before listen() (${before.names}), ${after.n} after close() (${after.names})` })
      } else if (closed?.type === 'timeout') {
        fail({ mode, kind: 'hang', caseId: 'close', detail: 'app.close() did not finish within 15 s' })
      }
    } else {
      await server.stop()
    }
  }
}

/** @param {Awaited<ReturnType<typeof runChaos>>} summary */
export function formatSummary (summary) {
  const lines = [`chaos: seed ${summary.seed}, ${summary.seconds} s`]
  for (const [mode, s] of Object.entries(summary.modes)) {
    lines.push(`  ${mode}: ${s.requests} requests, ${s.cases} cases, ${s.restarts} restarts after a crash`)
    const kinds = Object.entries(s.kinds).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`)
    lines.push(`    outcomes: ${kinds.join(', ')}`)
  }
  lines.push(`  failures: ${summary.failures.length}`)
  for (const f of summary.failures) lines.push(`    [${f.mode}] ${f.kind} case ${f.caseId}\n      ${f.detail.split('\n').join('\n      ')}`)
  return lines.join('\n')
}
