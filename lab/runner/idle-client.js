// The idle profile's client, a process of its own (pinned to the loader
// CPU): it opens keep-alive connections to 127.0.0.1, sends one request on
// each, checks the answer byte for byte, and then holds them open, idle,
// until told to let go. Driven by the runner over IPC:
//
//   { type: 'open', port, count, concurrency, request, expect }
//       → { type: 'opened', ok, failed, problems, ms }
//   { type: 'count' }    → { type: 'count', open }
//   { type: 'release' }  → every connection reset → { type: 'release', released }
//   { type: 'close' }    → every connection reset, then the process exits
//
// The connections are reset (RST) rather than closed, so that thousands of
// them leave no TIME_WAIT sockets behind. The process exits by itself when
// the runner goes away or after LAB_IDLE_DEADLINE_MS, whichever is first:
// nothing of it outlives a run.

import net from 'node:net'
import { formatRequest, parseResponses } from './http-client.js'
import { checkResponse } from './conformance.js'

const HOST = '127.0.0.1'
const deadline = setTimeout(() => process.exit(3), Number(process.env.LAB_IDLE_DEADLINE_MS || 600_000))
deadline.unref()

/** @type {Set<net.Socket>} the connections held open */
const held = new Set()

/**
 * Opens one connection, makes one request on it and resolves once the
 * whole answer is in; the connection stays open.
 * @param {number} port
 * @param {Buffer} bytes
 * @param {any} expect
 * @returns {Promise<string[]>} what is wrong with the answer (empty: right)
 */
function openOne (port, bytes, expect) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port })
    let buf = Buffer.alloc(0)
    let done = false
    /** @param {string[]} problems */
    const finish = (problems) => {
      if (done) return
      done = true
      socket.removeListener('data', onData)
      if (problems.length > 0) { socket.resetAndDestroy(); resolve(problems); return }
      held.add(socket)
      resolve(problems)
    }
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk])
      try {
        const { responses } = parseResponses(buf)
        if (responses.length > 0) finish(checkResponse(expect, responses[0]))
      } catch (err) {
        finish([`malformed answer: ${/** @type {Error} */ (err).message}`])
      }
    }
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', onData)
    socket.on('error', (err) => finish([`${err.message}`]))
    // a connection the server closes is no longer held; it is closed
    // here too, not reset (see release())
    socket.on('end', () => { held.delete(socket); socket.destroy() })
    socket.on('close', () => { held.delete(socket); finish(['closed before the answer']) })
    // the client keeps reading (and so sees the server's FIN) but never writes again
  })
}

/**
 * @param {{ port: number, count: number, concurrency: number, request: any, expect: any }} o
 */
async function openAll ({ port, count, concurrency, request, expect }) {
  const bytes = formatRequest(request, `${HOST}:${port}`)
  const started = Date.now()
  let next = 0
  let ok = 0
  let failed = 0
  /** @type {Map<string, number>} each problem once, with how often it came */
  const problems = new Map()
  // a bounded number in flight: a burst of thousands of connects overflows
  // the listen backlog (511 on Node), and the SYNs it drops are retried
  // only after a second or more
  const worker = async () => {
    while (next < count) {
      next++
      const p = await openOne(port, bytes, expect)
      if (p.length === 0) ok++
      else { failed++; for (const x of p) problems.set(x, (problems.get(x) ?? 0) + 1) }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
  return { ok, failed, problems: [...problems].slice(0, 5).map(([p, n]) => `${p} (${n}×)`), ms: Date.now() - started }
}

function release () {
  const n = held.size
  for (const socket of held) socket.resetAndDestroy()
  held.clear()
  return n
}

process.on('message', async (/** @type {any} */ msg) => {
  if (msg?.type === 'open') {
    const r = await openAll(msg)
    process.send?.({ type: 'opened', id: msg.id, ...r })
  } else if (msg?.type === 'count') {
    process.send?.({ type: 'count', id: msg.id, open: held.size })
  } else if (msg?.type === 'release') {
    process.send?.({ type: 'release', id: msg.id, released: release() })
  } else if (msg?.type === 'close') {
    release()
    process.exit(0)
  }
})
// the runner went away: so does the client, and its connections with it
process.on('disconnect', () => process.exit(0))
process.send?.({ type: 'ready' })
