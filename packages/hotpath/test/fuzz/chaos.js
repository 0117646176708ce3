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
// The server runs in a child process (node:child_process fork), one per
// mode, and the clients here: a crash is then what users would see, the
// server process dying, rather than an event this process swallows; the
// harness survives it, reports the cases that were in flight, starts a
// fresh server and goes on. The child reports warnings and hook invariants
// over IPC, and answers 'stats' (open connections) and 'inject' requests.
//
// Every case is generated from (seed, index) alone, so one case replays on
// its own:
//
//   node packages/hotpath/test/fuzz/chaos.js [--seed S] [--minutes M | --seconds S]
//     [--requests N] [--modes node,wire,inject] [--concurrency C] [--batch B]
//     [--case I | --case A..B | --case pinned:NAME]... [--print] [--no-pinned] [--single]
//
// --case runs only the cases named (repeatable; 'pinned:NAME' is a fixed
// regression case, see PINNED); --print prints them instead; --batch 1
// --concurrency 1 checks sockets and health after every case, to find the
// case behind a leak; --single sends only the last request of each case,
// on a connection of its own (to look past a bug that hangs kept-alive
// connections). `npm run fuzz:chaos -- --minutes 30`.

import { fork } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Transform, PassThrough, pipeline } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const SELF = fileURLToPath(import.meta.url)

/** The app's options: short timeouts, so that a hang shows within seconds. */
export const APP_OPTIONS = {
  requestTimeout: 1000,
  headersTimeout: 1000,
  keepAliveTimeout: 1000,
  bodyLimit: 256 * 1024
}
// An answer or a close must come within this after the client's last byte
// (the timeouts above, the engines' 250 ms clock, the wire engine's 2 s
// linger after a half-close, and room for a loaded 2-core machine).
const HANG_MS = 6000

// --- seeded randomness -------------------------------------------------------

/** @param {number} a */
function mulberry32 (a) {
  return function () {
    a |= 0; a = a + 0x6D2B79F5 | 0
    let t = Math.imul(a ^ a >>> 15, 1 | a)
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t
    return ((t ^ t >>> 14) >>> 0) / 4294967296
  }
}

/** murmur3's finaliser: every input bit moves every output bit */
/** @param {number} h */
function mix32 (h) {
  h = Math.imul(h ^ (h >>> 16), 0x85EBCA6B)
  h = Math.imul(h ^ (h >>> 13), 0xC2B2AE35)
  return (h ^ (h >>> 16)) >>> 0
}

/** @param {number} seed @param {number} index */
function caseRng (seed, index) {
  // seed and index mixed apart, so that no two (seed, index) pairs share a case
  const r = mulberry32(mix32(mix32(seed >>> 0) + Math.imul(index + 1, 0x9E3779B1)))
  return {
    /** [0, 1) */ f: r,
    /** @param {number} n integer in [0, n) */ int: (n) => Math.floor(r() * n),
    /** @param {number} p */ chance: (p) => r() < p,
    /** @template T @param {T[]} a @returns {T} */ pick: (a) => a[Math.floor(r() * a.length)],
    /**
     * @template T
     * @param {[T, number][]} pairs  value, weight
     * @returns {T}
     */
    weighted (pairs) {
      let total = 0
      for (const [, w] of pairs) total += w
      let x = r() * total
      for (const [v, w] of pairs) { if ((x -= w) < 0) return v }
      return pairs[pairs.length - 1][0]
    }
  }
}

// --- cases -------------------------------------------------------------------

/**
 * @typedef {object} ChaosRequest
 * @property {string} method
 * @property {string} path
 * @property {string} plan            what each hook, the middleware and the handler do (x-plan)
 * @property {Record<string, string>} headers  extra headers
 * @property {null | { type: string, size: number, valid: boolean }} body
 * @property {boolean} chunked
 * @property {boolean} expect         Expect: 100-continue
 * @property {boolean} drip           the body goes out in a few pieces with gaps
 * @property {boolean} together       head and body in one write (else two): whether the
 *                                    body arrives with the head changes what an engine buffers
 *
 * @typedef {object} ChaosCase
 * @property {string} id
 * @property {ChaosRequest[]} requests
 * @property {boolean} pipelined      all requests in one write
 * @property {boolean} closeLast      the last request asks for Connection: close
 * @property {string} leave           how the client ends (see runSocketCase)
 * @property {'destroy' | 'end'} how  how it leaves: RST-ish destroy or a FIN
 * @property {number} at              a fraction: where in the head or body it stops
 * @property {number} wait            ms it waits before it leaves
 */

const HOOK_BEHAVIOURS = /** @type {[string, number][]} */ ([
  ['s', 40], ['a', 25], ['d', 6], ['t', 2], ['r', 2], ['x', 2], ['y', 2]
])
const PAYLOAD_HOOK_BEHAVIOURS = /** @type {[string, number][]} */ ([['s', 40], ['a', 25], ['m', 5], ['t', 2], ['r', 2]])
const OBSERVER_BEHAVIOURS = /** @type {[string, number][]} */ ([['s', 50], ['a', 30], ['t', 10], ['r', 10]])
const PREPARSING_BEHAVIOURS = /** @type {[string, number][]} */ ([
  ['s', 25], ['a', 20], ['d', 6], ['T', 12], ['P', 12], ['R', 6], ['t', 3], ['r', 3]
])
const MW_BEHAVIOURS = /** @type {[string, number][]} */ ([
  ['n', 40], ['a', 20], ['h', 10], ['e', 8], ['w', 5], ['E', 5], ['T', 4]
])
const HANDLERS = /** @type {[string, number][]} */ ([
  ['json', 30], ['text', 6], ['buf', 5], ['big', 4], ['async', 10], ['delay', 4], ['throw', 3], ['reject', 3],
  ['rejnon', 2], ['undef', 2], ['stream', 5], ['slow', 5], ['errpre', 3], ['errpost', 3], ['web', 4],
  ['webslow', 3], ['weberr', 3], ['never', 1], ['late', 4], ['twice', 2], ['signal', 4], ['nocontent', 2]
])
const HOOKS = ['onRequest', 'preValidation', 'preHandler']
const PAYLOAD_HOOKS = ['preSerialization', 'onSend']
const OBSERVERS = ['onError', 'onResponse', 'onRequestAbort', 'onTimeout']
const PATHS = /** @type {[string, number][]} */ ([
  ['/hooks', 35], ['/nopp', 15], ['/bare', 10], ['/mw/hooks', 14], ['/mw/bare', 5], ['/static', 8],
  ['/missing', 4], ['/health', 3], ['/%E0%A4%A', 2]
])
const LEAVES = /** @type {[string, number][]} */ ([
  ['none', 40], ['mid-head', 6], ['mid-body', 10], ['stall-head', 2], ['stall-body', 4], ['mid-handler', 10],
  ['mid-stream', 8], ['partial-read', 6], ['never-read', 3], ['half-close', 5]
])

/**
 * The case `index` of `seed`: a pure function of the two.
 * @param {number} seed
 * @param {number} index
 * @returns {ChaosCase}
 */
export function generateCase (seed, index) {
  const g = caseRng(seed, index)
  const n = g.weighted([[1, 60], [2, 20], [3, 12], [4, 8]])
  const pipelined = n > 1 && g.chance(0.35)
  const leave = pipelined ? g.weighted([['none', 80], ['partial-read', 10], ['mid-handler', 10]]) : g.weighted(LEAVES)
  /** @type {ChaosRequest[]} */
  const requests = []
  for (let i = 0; i < n; i++) requests.push(generateRequest(g, pipelined, i === n - 1 ? leave : 'none'))
  const c = { id: `${seed}:${index}`, requests, pipelined, closeLast: g.chance(0.4), leave, how: /** @type {'destroy' | 'end'} */ (g.chance(0.5) ? 'destroy' : 'end'), at: g.f(), wait: g.int(200) }
  // now and then a long kept-alive connection, where a listener added per
  // request to the socket would pass the default limit of 10 (drawn last,
  // so that the other cases stay as they were)
  if (g.chance(0.03)) requests.splice(n - 1, 0, ...Array.from({ length: 12 }, () => generateRequest(g, pipelined, 'none')))
  return c
}

/**
 * @param {ReturnType<typeof caseRng>} g
 * @param {boolean} pipelined
 * @param {string} leave
 * @returns {ChaosRequest}
 */
function generateRequest (g, pipelined, leave) {
  let path = g.weighted(PATHS)
  const headers = /** @type {Record<string, string>} */ ({})
  /** @type {string[]} */
  const plan = []
  if (path === '/static') path = g.pick(['/static/small.txt', '/static/big.bin', '/static/missing.txt', '/static/', '/static/sub'])
  const hooked = path === '/hooks' || path === '/nopp' || path === '/mw/hooks'
  if (hooked) {
    for (const h of HOOKS) plan.push(`${h}=${g.weighted(HOOK_BEHAVIOURS)}`)
    for (const h of PAYLOAD_HOOKS) plan.push(`${h}=${g.weighted(PAYLOAD_HOOK_BEHAVIOURS)}`)
    for (const h of OBSERVERS) plan.push(`${h}=${g.weighted(OBSERVER_BEHAVIOURS)}`)
    if (path !== '/nopp') plan.push(`preParsing=${g.weighted(PREPARSING_BEHAVIOURS)}`)
  }
  if (path.startsWith('/mw/')) {
    plan.push(`mw=${g.weighted(MW_BEHAVIOURS)}`)
    if (g.chance(0.5)) headers.origin = 'http://example.com'
  }
  let handler = g.weighted(HANDLERS)
  // leaving mid-stream or mid-handler needs something to leave from
  if (leave === 'mid-stream' && g.chance(0.8)) handler = g.pick(['slow', 'webslow', 'big', 'errpost'])
  if (leave === 'mid-handler' && g.chance(0.6)) handler = g.pick(['delay', 'signal', 'never', 'late', 'async'])
  if (leave === 'partial-read' || leave === 'never-read') handler = g.pick(['big', 'slow', handler])
  plan.push(`handler=${handler}`)
  let method = g.weighted([['GET', 30], ['POST', 45], ['PUT', 8], ['PATCH', 4], ['DELETE', 4], ['HEAD', 3], ['OPTIONS', 6]])
  if (method === 'OPTIONS' && path.startsWith('/mw/')) {
    headers.origin = 'http://example.com'
    headers['access-control-request-method'] = 'POST'
  }
  const wantsBody = (method === 'POST' || method === 'PUT' || method === 'PATCH' || leave === 'mid-body' || leave === 'stall-body') && !g.chance(0.08)
  /** @type {ChaosRequest['body']} */
  let body = null
  if (wantsBody) {
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'DELETE') method = 'POST'
    const type = g.weighted([['application/json', 55], ['text/plain', 20], ['application/x-www-form-urlencoded', 15], ['application/x-chaos', 5], ['', 5]])
    const band = g.weighted([['empty', 5], ['small', 45], ['medium', 20], ['large', 18], ['over', 12]])
    const size = band === 'empty'
      ? 0
      : band === 'small' ? 8 + g.int(1000) : band === 'medium' ? 1000 + g.int(60_000) : band === 'large' ? 65_537 + g.int(150_000) : APP_OPTIONS.bodyLimit + 1 + g.int(150_000)
    body = { type, size, valid: !g.chance(0.06) }
  }
  const chunked = body !== null && g.chance(0.3)
  return {
    method,
    path,
    plan: plan.join(';'),
    headers,
    body,
    chunked,
    expect: body !== null && !pipelined && g.chance(0.12),
    drip: body !== null && !pipelined && g.chance(0.1),
    together: g.chance(0.6)
  }
}

/**
 * Fixed cases for bugs seen before: they run first in every run, whatever
 * the seed, so a regression shows in the short run.
 * @type {Record<string, Omit<ChaosCase, 'id'>>}
 */
export const PINNED = {
  // a preParsing hook that hands back the request stream, a body over the
  // 64 KiB an engine buffers unasked, and Connection: close
  'passthrough-64k-close': {
    requests: [req('POST', '/hooks', 'preParsing=s;handler=json', json(100_000))],
    pipelined: false, closeLast: true, leave: 'none', how: 'destroy', at: 0, wait: 0
  },
  'passthrough-async-64k-close': {
    requests: [req('POST', '/hooks', 'preParsing=a;handler=json', json(100_000))],
    pipelined: false, closeLast: true, leave: 'none', how: 'destroy', at: 0, wait: 0
  },
  // the same route, a partial body, then the client goes
  'passthrough-partial-then-leave': {
    requests: [req('POST', '/hooks', 'preParsing=s;handler=json', json(100_000))],
    pipelined: false, closeLast: false, leave: 'mid-body', how: 'destroy', at: 0.01, wait: 100
  },
  'passthrough-partial-then-stall': {
    requests: [req('POST', '/hooks', 'preParsing=s;handler=json', json(100_000))],
    pipelined: false, closeLast: false, leave: 'stall-body', how: 'destroy', at: 0.01, wait: 100
  },
  'delayed-partial-then-leave': {
    requests: [req('POST', '/hooks', 'preParsing=d;handler=json', json(100_000))],
    pipelined: false, closeLast: false, leave: 'mid-body', how: 'destroy', at: 0.01, wait: 100
  },
  'plain-partial-then-leave': {
    requests: [req('POST', '/nopp', 'handler=json', json(100_000))],
    pipelined: false, closeLast: false, leave: 'mid-body', how: 'destroy', at: 0.01, wait: 100
  },
  'transform-partial-then-leave': {
    requests: [req('POST', '/hooks', 'preParsing=T;handler=json', json(100_000))],
    pipelined: false, closeLast: false, leave: 'mid-body', how: 'destroy', at: 0.3, wait: 100
  },
  // serve-static through app.use()
  'serve-static-small': {
    requests: [req('GET', '/static/small.txt', 'handler=json', null)],
    pipelined: false, closeLast: true, leave: 'none', how: 'destroy', at: 0, wait: 0
  },
  'serve-static-big-leave-mid-stream': {
    requests: [req('GET', '/static/big.bin', 'handler=json', null)],
    pipelined: false, closeLast: false, leave: 'mid-stream', how: 'destroy', at: 0, wait: 0
  },
  // wire: a body that arrived whole (past the 16 KiB a body stream holds,
  // or the 64 KiB an engine buffers unasked) before anyone read it: the
  // next request on the connection must still be read
  'body-whole-before-read-keepalive': {
    requests: [req('POST', '/nopp', 'onRequest=d;handler=json', json(70_000)), req('GET', '/bare', 'handler=json', null)],
    pipelined: false, closeLast: true, leave: 'none', how: 'destroy', at: 0, wait: 0
  },
  'passthrough-20k-pipelined': {
    requests: [req('POST', '/hooks', 'preParsing=s;handler=json', json(20_000)), req('GET', '/bare', 'handler=json', null)],
    pipelined: true, closeLast: true, leave: 'none', how: 'destroy', at: 0, wait: 0
  },
  'replaced-body-keepalive': {
    requests: [req('POST', '/hooks', 'preParsing=R;handler=json', json(50_000)), req('GET', '/bare', 'handler=json', null)],
    pipelined: false, closeLast: true, leave: 'none', how: 'destroy', at: 0, wait: 0
  },
  // an over-limit body whose 413 becomes the fallback 500 (onSend throws):
  // the body was never read, so the connection must not carry on as if it was
  'fallback-500-over-limit-keepalive': {
    requests: [
      { ...req('POST', '/hooks', 'onSend=t;handler=json', json(400_000)), chunked: true, together: false },
      req('GET', '/bare', 'handler=json', null)
    ],
    pipelined: false, closeLast: true, leave: 'none', how: 'destroy', at: 0, wait: 0
  },
  // twelve requests that read req.signal on one connection
  'keep-alive-signals': {
    requests: Array.from({ length: 12 }, () => req('GET', '/hooks', 'handler=signal', null)).concat([req('GET', '/hooks', 'handler=signal', null)]),
    pipelined: false, closeLast: false, leave: 'mid-handler', how: 'destroy', at: 0, wait: 100
  },
  'slow-stream-leave': {
    requests: [req('GET', '/hooks', 'handler=slow', null)],
    pipelined: false, closeLast: false, leave: 'mid-stream', how: 'destroy', at: 0, wait: 0
  },
  'signal-leave': {
    requests: [req('GET', '/hooks', 'handler=signal', null)],
    pipelined: false, closeLast: false, leave: 'mid-handler', how: 'destroy', at: 0.3, wait: 100
  }
}

/**
 * @param {string} method @param {string} path @param {string} plan
 * @param {ChaosRequest['body']} body
 * @returns {ChaosRequest}
 */
function req (method, path, plan, body) {
  return { method, path, plan, headers: {}, body, chunked: false, expect: false, drip: false, together: true }
}

/** @param {number} size */
function json (size) { return { type: 'application/json', size, valid: true } }

/** @param {number} seed @param {string | number} which */
export function getCase (seed, which) {
  if (typeof which === 'string' && which.startsWith('pinned:')) {
    const p = PINNED[which.slice(7)]
    if (p === undefined) throw new Error(`no pinned case ${which}`)
    return /** @type {ChaosCase} */ ({ id: which, ...p })
  }
  return generateCase(seed, Number(which))
}

// --- bytes -------------------------------------------------------------------

/** @param {NonNullable<ChaosRequest['body']>} b */
function bodyBytes (b) {
  const n = b.size
  if (n === 0) return Buffer.alloc(0)
  let s
  if (b.type === 'application/json') {
    s = n < 8 ? '1'.repeat(n) : '{"a":"' + 'x'.repeat(n - 8) + '"}'
    if (!b.valid) s = s.slice(0, -1) + ','
  } else if (b.type === 'application/x-www-form-urlencoded') {
    s = 'a=' + 'y'.repeat(Math.max(0, n - 2))
    if (!b.valid) s = s.slice(0, -1) + '%'
  } else {
    s = 'z'.repeat(n)
  }
  return Buffer.from(s.slice(0, n), 'latin1')
}

/**
 * The request's head and body as the client sends them.
 * @param {ChaosRequest} r
 * @param {string} caseId
 * @param {boolean} close
 */
function requestBytes (r, caseId, close) {
  const body = r.body === null ? null : bodyBytes(r.body)
  let head = `${r.method} ${r.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-case: ${caseId}\r\n`
  if (r.plan !== '') head += `x-plan: ${r.plan}\r\n`
  for (const [k, v] of Object.entries(r.headers)) head += `${k}: ${v}\r\n`
  if (body !== null) {
    if (r.body?.type) head += `Content-Type: ${r.body.type}\r\n`
    head += r.chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${body.length}\r\n`
  }
  if (r.expect) head += 'Expect: 100-continue\r\n'
  if (close) head += 'Connection: close\r\n'
  head += '\r\n'
  let wireBody = body ?? Buffer.alloc(0)
  if (body !== null && r.chunked) {
    /** @type {Buffer[]} */
    const parts = []
    // chunk sizes from the body's length: deterministic, varied
    let step = 1 + (body.length % 7919)
    for (let i = 0; i < body.length; i += step, step = step * 3 % 65_521 + 1) {
      const c = body.subarray(i, i + step)
      parts.push(Buffer.from(c.length.toString(16) + '\r\n', 'latin1'), c, Buffer.from('\r\n', 'latin1'))
    }
    parts.push(Buffer.from('0\r\n\r\n', 'latin1'))
    wireBody = Buffer.concat(parts)
  }
  return { head: Buffer.from(head, 'latin1'), body: wireBody }
}

// --- reading responses ---------------------------------------------------------

/**
 * One response at `start` of `buf`, or null when it is not complete yet.
 * Throws on bytes that are not an HTTP/1.1 response.
 * @param {Buffer} buf
 * @param {number} start
 * @param {string} method
 * @param {boolean} ended  the server closed: a close-delimited body is complete
 */
function parseResponse (buf, start, method, ended) {
  const headEnd = buf.indexOf('\r\n\r\n', start, 'latin1')
  if (headEnd === -1) {
    if (buf.length - start > 64 * 1024) throw new Error('response head over 64 KiB')
    return null
  }
  const head = buf.toString('latin1', start, headEnd)
  const m = /^HTTP\/1\.[01] (\d{3})[^\r\n]*/.exec(head)
  if (m === null) throw new Error(`not a status line: ${JSON.stringify(head.slice(0, 80))}`)
  const status = Number(m[1])
  const lower = head.toLowerCase()
  let pos = headEnd + 4
  const base = { status, head, interim: status >= 100 && status < 200, close: /\r\nconnection: *close/.test(lower) }
  if (base.interim || status === 204 || status === 304 || method === 'HEAD') return { ...base, body: Buffer.alloc(0), end: pos }
  if (/\r\ntransfer-encoding: *chunked/.test(lower)) {
    /** @type {Buffer[]} */
    const parts = []
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', pos, 'latin1')
      if (lineEnd === -1) return null
      const size = parseInt(buf.toString('latin1', pos, lineEnd), 16)
      if (!Number.isFinite(size)) throw new Error('bad chunk size in a response')
      pos = lineEnd + 2
      if (size === 0) {
        const trailerEnd = buf.indexOf('\r\n', pos, 'latin1')
        if (trailerEnd === -1) return null
        return { ...base, body: Buffer.concat(parts), end: trailerEnd + 2 }
      }
      if (buf.length < pos + size + 2) return null
      parts.push(buf.subarray(pos, pos + size))
      pos += size + 2
    }
  }
  const cl = /\r\ncontent-length: *(\d+)/.exec(lower)
  if (cl !== null) {
    const n = Number(cl[1])
    if (buf.length < pos + n) return null
    return { ...base, body: buf.subarray(pos, pos + n), end: pos + n }
  }
  if (!ended) return null
  return { ...base, body: buf.subarray(pos), end: buf.length, close: true }
}

/**
 * A client connection: collects bytes, and resolves waits for the next
 * response or for the close, each bounded by HANG_MS.
 */
class Client {
  /** @param {number} port */
  constructor (port) {
    this.socket = net.connect(port, '127.0.0.1')
    /** @type {Buffer} */
    this.buf = Buffer.alloc(0)
    this.pos = 0
    this.ended = false
    this.closed = false
    this.interim = 0
    /** @type {(() => void) | null} */
    this.wake = null
    this.socket.on('data', (/** @type {Buffer} */ d) => { this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]); this.poke() })
    this.socket.on('end', () => { this.ended = true; this.poke() })
    this.socket.on('close', () => { this.closed = true; this.ended = true; this.poke() })
    this.socket.on('error', () => {})
  }

  poke () {
    const w = this.wake
    this.wake = null
    if (w !== null) w()
  }

  /** @param {number} ms */
  async waitEvent (ms) {
    if (ms <= 0) return false
    let timer
    const ok = await new Promise((resolve) => {
      this.wake = () => resolve(true)
      timer = setTimeout(() => resolve(false), ms)
    })
    clearTimeout(timer)
    this.wake = null
    return ok
  }

  async connected () {
    if (this.socket.connecting) {
      await Promise.race([once(this.socket, 'connect'), once(this.socket, 'close')]).catch(() => {})
    }
    return !this.closed
  }

  /** @param {Buffer} b */
  write (b) {
    if (!this.socket.destroyed && b.length > 0) this.socket.write(b)
  }

  /**
   * The next final response (1xx are counted and skipped); 'closed' when
   * the server closed first ('truncated' when part of a response came, as
   * from a stream that fails after its head); 'hang' when neither came in
   * time.
   * @param {string} method
   * @param {{ interimOnly?: boolean, ms?: number }} [opt]
   */
  async next (method, opt = {}) {
    const deadline = Date.now() + (opt.ms ?? HANG_MS)
    for (;;) {
      const r = parseResponse(this.buf, this.pos, method, this.ended)
      if (r !== null) {
        this.pos = r.end
        if (r.interim) {
          this.interim++
          if (opt.interimOnly) return r
          continue
        }
        return r
      }
      if (this.ended) return this.buf.length > this.pos ? 'truncated' : 'closed'
      if (!(await this.waitEvent(deadline - Date.now()))) return 'hang'
    }
  }

  /** Waits for the server to close (or for any byte when `anyByte`). */
  async settled (ms = HANG_MS, anyByte = false) {
    const deadline = Date.now() + ms
    const had = this.buf.length
    while (!this.ended && !(anyByte && this.buf.length > had)) {
      if (!(await this.waitEvent(deadline - Date.now()))) return false
    }
    return true
  }

  /** @param {'destroy' | 'end'} how */
  leave (how) {
    if (how === 'end') this.socket.end()
    else this.socket.destroy()
  }

  close () { this.socket.destroy() }
}

// --- the client side of one case ---------------------------------------------

/**
 * @typedef {object} Outcome
 * @property {Record<string, number>} kinds  outcome → count
 * @property {{ kind: string, detail: string }[]} failures
 */

/** @param {Outcome} out @param {string} kind */
function count (out, kind) { out.kinds[kind] = (out.kinds[kind] ?? 0) + 1 }

/**
 * Checks one answered request; records its outcome.
 * @param {Outcome} out
 * @param {Exclude<ReturnType<typeof parseResponse>, null>} r
 * @param {boolean} [sentAll]  every byte of the request went out in one write
 * @param {string} [label]
 */
function checkResponse (out, r, sentAll = false, label = 'a request') {
  count(out, `status ${r.status}`)
  // RFC 9110 §15.5.9: 408 says the client was too slow to send; every byte
  // of this request went out at once, well inside the timeouts
  if (r.status === 408 && sentAll) out.failures.push({ kind: 'wrong-answer', detail: `408 to ${label}, whose head and body were all sent at once` })
  if (r.status >= 500) {
    const text = r.body.toString('latin1')
    if (/chaos-secret|\n\s+at .*:\d+:\d+/.test(text)) out.failures.push({ kind: 'leak', detail: `${r.status} to ${label} shows an internal message: ${text.slice(0, 200)}` })
  }
}

/**
 * Runs one case over a socket.
 *
 * leave: none (read every answer), mid-head / mid-body (stop sending part
 * way, then go), stall-head / stall-body (stop sending and wait: the server
 * must answer 408 or close), mid-handler (send all, go after a few ms),
 * mid-stream (go after the first response byte), partial-read (read a bit,
 * stop reading, go), never-read (never read, go), half-close (send all and
 * FIN at once: the answer or a close must still come).
 * @param {number} port
 * @param {ChaosCase} c
 * @returns {Promise<Outcome>}
 */
export async function runSocketCase (port, c) {
  /** @type {Outcome} */
  const out = { kinds: {}, failures: [] }
  const client = new Client(port)
  try {
    if (!(await client.connected())) { count(out, 'connect failed'); return out }
    const n = c.requests.length
    const bytes = c.requests.map((r, i) => requestBytes(r, c.id, c.closeLast && i === n - 1))
    if (c.pipelined) {
      client.write(Buffer.concat(bytes.flatMap((b) => [b.head, b.body])))
      for (let i = 0; i < n; i++) {
        if (i === n - 1 && c.leave !== 'none') return await leaveAfterSend(client, c, out)
        const r = await client.next(c.requests[i].method)
        if (!record(out, r, c, i)) break
      }
      return out
    }
    for (let i = 0; i < n; i++) {
      const r = c.requests[i]
      const b = bytes[i]
      const last = i === n - 1
      if (last && (c.leave === 'mid-head' || c.leave === 'stall-head')) {
        client.write(b.head.subarray(0, 1 + Math.floor(c.at * (b.head.length - 2))))
        if (c.leave === 'stall-head') return await stall(client, c, out)
        await sleep(c.wait)
        client.leave(c.how)
        count(out, 'left mid-head')
        return out
      }
      if (last && (c.leave === 'mid-body' || c.leave === 'stall-body') && b.body.length > 1) {
        const part = b.body.subarray(0, 1 + Math.floor(c.at * (b.body.length - 2)))
        if (r.together) client.write(Buffer.concat([b.head, part]))
        else {
          client.write(b.head)
          await sleep(5)
          client.write(part)
        }
        if (c.leave === 'stall-body') return await stall(client, c, out)
        await sleep(c.wait)
        client.leave(c.how)
        count(out, 'left mid-body')
        return out
      }
      if (r.together && !r.expect && !r.drip) {
        client.write(Buffer.concat([b.head, b.body]))
        if (last && c.leave !== 'none') return await leaveAfterSend(client, c, out)
        const got = await client.next(r.method)
        // an over-limit body is never read to its end: a 408 can race the 413
        if (!record(out, got, c, i, (r.body?.size ?? 0) <= APP_OPTIONS.bodyLimit)) break
        continue
      }
      client.write(b.head)
      if (r.expect) {
        // RFC 9110 §10.1.1: wait for 100 (or a final answer), but not forever
        const before = client.interim
        const got = await client.next(r.method, { interimOnly: true, ms: 1000 })
        if (got !== 'hang' && client.interim === before) {
          // a final answer instead of 100: the body is not sent
          if (!record(out, got, c, i)) break
          if (last) return out
          continue
        }
      }
      if (r.drip && b.body.length > 0) {
        const step = Math.ceil(b.body.length / 4)
        for (let k = 0; k < b.body.length; k += step) {
          client.write(b.body.subarray(k, k + step))
          await sleep(15)
        }
      } else {
        client.write(b.body)
      }
      if (last && c.leave !== 'none') return await leaveAfterSend(client, c, out)
      const got = await client.next(r.method)
      if (!record(out, got, c, i)) break
    }
    return out
  } finally {
    client.close()
  }
}

/**
 * @param {Outcome} out
 * @param {Exclude<ReturnType<typeof parseResponse>, null> | 'closed' | 'truncated' | 'hang'} r
 * @param {ChaosCase} c
 * @param {number} i
 * @returns {boolean} whether the connection can go on
 */
function record (out, r, c, i, sentAll = false) {
  if (r === 'hang') {
    out.failures.push({ kind: 'hang', detail: `request ${i} (${c.requests[i].method} ${c.requests[i].path}) got no answer and no close within ${HANG_MS} ms` })
    return false
  }
  if (r === 'closed') { count(out, 'closed without an answer'); return false }
  if (r === 'truncated') { count(out, 'response cut short'); return false }
  checkResponse(out, r, sentAll, `request ${i} (${c.requests[i].method} ${c.requests[i].path})`)
  return !r.close
}

/**
 * The client stopped sending: the server must answer or close in time.
 * @param {Client} client @param {ChaosCase} c @param {Outcome} out
 */
async function stall (client, c, out) {
  const r = await client.next(c.requests[c.requests.length - 1].method)
  if (r === 'hang') {
    out.failures.push({ kind: 'hang', detail: `${c.leave}: no answer and no close within ${HANG_MS} ms` })
    return out
  }
  if (r === 'closed' || r === 'truncated') count(out, `${c.leave}: ${r}`)
  else {
    count(out, `${c.leave}: ${r.status}`)
    if (!(await client.settled())) out.failures.push({ kind: 'hang', detail: `${c.leave}: answered ${r.status} but the connection stayed open ${HANG_MS} ms` })
  }
  return out
}

/**
 * The whole last request is out; now leave the way the case says.
 * @param {Client} client @param {ChaosCase} c @param {Outcome} out
 */
async function leaveAfterSend (client, c, out) {
  const method = c.requests[c.requests.length - 1].method
  switch (c.leave) {
    case 'mid-handler':
      await sleep(c.wait)
      break
    case 'mid-stream':
      await client.settled(HANG_MS, true)
      break
    case 'partial-read':
      await client.settled(HANG_MS, true)
      client.socket.pause()
      await sleep(c.wait)
      break
    case 'never-read':
      client.socket.pause()
      await sleep(c.wait)
      break
    case 'half-close': {
      client.socket.end()
      const r = await client.next(method)
      if (r === 'hang') out.failures.push({ kind: 'hang', detail: `half-close: no answer and no close within ${HANG_MS} ms` })
      else if (r === 'closed' || r === 'truncated') count(out, `half-close: ${r}`)
      else checkResponse(out, r)
      return out
    }
  }
  client.leave(c.how)
  count(out, `left ${c.leave}`)
  return out
}

// --- the server (child process) ------------------------------------------------

/** @param {any} req */
function planOf (req) {
  if (req._chaosPlan !== undefined) return req._chaosPlan
  /** @type {Record<string, string>} */
  const plan = {}
  const h = req.headers['x-plan']
  if (typeof h === 'string') {
    for (const part of h.split(';')) {
      const eq = part.indexOf('=')
      if (eq > 0) plan[part.slice(0, eq)] = part.slice(eq + 1)
    }
  }
  req._chaosPlan = plan
  return plan
}

/** @param {string} what @param {any} req */
function violation (what, req) {
  process.send?.({ type: 'violation', what, caseId: String(req.headers['x-case'] ?? '?') })
}

const secret = () => new Error('chaos-secret')

/** @param {string} name */
function lifecycleHook (name) {
  /** @param {any} req @param {any} reply */
  return function (req, reply) {
    switch (planOf(req)[name]) {
      case 'a': return Promise.resolve()
      case 'd': return sleep(20)
      case 't': throw secret()
      case 'r': return Promise.reject(secret())
      case 'x': reply.code(200).send({ from: name }); return
      case 'y': return sleep(5).then(() => { reply.code(200).send({ from: name }) })
    }
  }
}

/** @param {string} name */
function payloadHook (name) {
  /** @param {any} req @param {any} reply @param {any} payload */
  return function (req, reply, payload) {
    switch (planOf(req)[name]) {
      case 'a': return Promise.resolve(payload)
      case 't': throw secret()
      case 'r': return Promise.reject(secret())
      case 'm': return name === 'onSend' ? 'replaced' : { wrapped: true }
      default: return payload
    }
  }
}

/** @param {string} name */
function observer (name) {
  /** @param {any} req */
  return function (req) {
    if (name === 'onResponse' || name === 'onRequestAbort') {
      req._chaosFinal = (req._chaosFinal ?? 0) + 1
      if (req._chaosFinal > 1) violation(`onResponse/onRequestAbort ran ${req._chaosFinal} times (last: ${name})`, req)
    } else if (name === 'onTimeout') {
      req._chaosTimeouts = (req._chaosTimeouts ?? 0) + 1
      if (req._chaosTimeouts > 1) violation('onTimeout ran twice', req)
    }
    switch (planOf(req)[name]) {
      case 'a': return Promise.resolve()
      case 't': throw secret()
      case 'r': return Promise.reject(secret())
    }
  }
}

/** @param {any} req @param {any} _reply @param {import('node:stream').Readable} payload */
function preParsing (req, _reply, payload) {
  switch (planOf(req).preParsing) {
    case 'a': return Promise.resolve(payload)
    case 'd': return sleep(100).then(() => payload)
    // user code often uses pipe(), which forwards neither errors nor an abort
    case 'T': return payload.pipe(new Transform({ transform (chunk, _enc, cb) { cb(null, chunk) } }))
    case 'P': {
      const t = new PassThrough()
      pipeline(payload, t, () => {})
      return t
    }
    // replaces the body and never reads the request's own
    case 'R': return Readable.from([Buffer.from('{"r":1}')])
    case 't': throw secret()
    case 'r': return Promise.reject(secret())
    default: return payload
  }
}

/** @param {any} body */
function bodyLength (body) {
  if (body === undefined || body === null) return 0
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body.length
  return JSON.stringify(body).length
}

/** A Node stream that pushes `n` chunks `ms` apart, then ends or fails. */
/** @param {number} n @param {number} ms @param {boolean} fail */
function slowStream (n, ms, fail) {
  /** @type {NodeJS.Timeout | null} */
  let timer = null
  let sent = 0
  return new Readable({
    read () {
      if (timer !== null) return
      timer = setTimeout(() => {
        timer = null
        if (fail && sent === 1) { this.destroy(secret()); return }
        this.push(Buffer.alloc(4096, 97))
        if (++sent === n) this.push(null)
      }, ms)
    },
    destroy (err, cb) {
      if (timer !== null) clearTimeout(timer)
      cb(err)
    }
  })
}

/** @param {number} n @param {number} ms @param {boolean} fail */
function webStream (n, ms, fail) {
  let sent = 0
  return new ReadableStream({
    async pull (controller) {
      if (ms > 0) await sleep(ms)
      if (fail && sent === 1) { controller.error(secret()); return }
      controller.enqueue(new Uint8Array(4096).fill(98))
      if (++sent === n) controller.close()
    }
  })
}

/** @param {any} req @param {any} reply */
function handler (req, reply) {
  switch (planOf(req).handler) {
    case 'text': reply.type('text/plain'); return 'hello chaos'
    case 'buf': reply.type('application/octet-stream'); return Buffer.alloc(1000, 99)
    case 'big': reply.type('text/plain'); return 'x'.repeat(300_000)
    case 'async': return sleep(10).then(() => ({ n: bodyLength(req.body) }))
    case 'delay': return sleep(200).then(() => ({ n: bodyLength(req.body) }))
    case 'throw': throw secret()
    case 'reject': return Promise.reject(secret())
    case 'rejnon': return Promise.reject('chaos-secret') // eslint-disable-line prefer-promise-reject-errors
    case 'undef': return Promise.resolve(undefined)
    case 'stream': return Readable.from([Buffer.from('a'), Buffer.from('b'), Buffer.from('c')])
    case 'slow': return slowStream(10, 20, false)
    case 'errpre': return new Readable({ read () { this.destroy(secret()) } })
    case 'errpost': return slowStream(10, 10, true)
    case 'web': return webStream(3, 0, false)
    case 'webslow': return webStream(10, 20, false)
    case 'weberr': return webStream(10, 10, true)
    case 'never': return reply
    case 'late': setTimeout(() => reply.send({ late: true }), 30); return
    case 'twice': reply.send('one'); reply.send('two'); return reply
    case 'signal': {
      const signal = req.signal
      return new Promise((resolve) => {
        const t = setTimeout(resolve, 300, { waited: true })
        signal.addEventListener('abort', () => { clearTimeout(t); resolve({ aborted: true }) }, { once: true })
      })
    }
    case 'nocontent': reply.code(204); return null
    default: return { n: bodyLength(req.body) }
  }
}

/** @param {any} req @param {any} res @param {(err?: unknown) => void} next */
function chaosMiddleware (req, res, next) {
  switch (planOf(req).mw) {
    case 'a': setImmediate(next); return
    case 'h': res.setHeader('x-mw', '1'); next(); return
    case 'e': res.statusCode = 200; res.setHeader('content-type', 'text/plain'); res.end('from middleware'); return
    case 'w': res.statusCode = 200; res.write('part '); setTimeout(() => res.end('rest'), 10); return
    case 'E': next(secret()); return
    case 'T': throw secret()
    default: next()
  }
}

/** @param {string} mode @param {string} staticRoot */
export async function buildApp (mode, staticRoot) {
  const { default: hotpath } = await import('../../lib/index.js')
  // @ts-ignore no types installed
  const { default: cors } = await import('cors')
  const { default: helmet } = await import('helmet')
  // @ts-ignore no types installed
  const { default: serveStatic } = await import('serve-static')
  const app = hotpath({
    ...APP_OPTIONS,
    ...(mode === 'inject' ? {} : { engine: mode }),
    // logging on, into a sink: the log calls on error and abort paths run too
    logger: { level: 'info', stream: { write () {} } }
  })
  /** @type {Record<string, any>} */
  const all = { preParsing }
  for (const h of HOOKS) all[h] = lifecycleHook(h)
  for (const h of PAYLOAD_HOOKS) all[h] = payloadHook(h)
  for (const h of OBSERVERS) all[h] = observer(h)
  const { preParsing: _, ...noPreParsing } = all
  app.get('/health', () => 'ok')
  app.all('/bare', handler)
  app.all('/hooks', all, handler)
  app.all('/nopp', noPreParsing, handler)
  app.register(async (/** @type {any} */ mw) => {
    mw.use(cors())
    mw.use(helmet())
    mw.use(chaosMiddleware)
    mw.all('/hooks', all, handler)
    mw.all('/bare', handler)
  }, { prefix: '/mw' })
  app.register(async (/** @type {any} */ st) => {
    st.use(serveStatic(staticRoot))
    st.all('/*', handler)
  }, { prefix: '/static' })
  return app
}

async function childMain () {
  const mode = /** @type {string} */ (process.env.CHAOS_MODE)
  process.on('warning', (w) => {
    process.send?.({ type: 'warning', name: w.name, message: w.message, stack: w.stack })
  })
  // No uncaughtException/unhandledRejection listener here on purpose: a
  // crash kills this process, as it would kill a user's server.
  const root = mkdtempSync(join(tmpdir(), 'chaos-static-'))
  mkdirSync(join(root, 'static', 'sub'), { recursive: true })
  writeFileSync(join(root, 'static', 'small.txt'), 'small file\n')
  writeFileSync(join(root, 'static', 'big.bin'), Buffer.alloc(300_000, 100))
  process.on('exit', () => rmSync(root, { recursive: true, force: true }))
  const app = await buildApp(mode, root)
  await app.ready()
  const core = /** @type {any} */ (app)._core
  let port = 0
  let handlesBefore = activeHandles()
  // Which case each open socket served last, to name the case behind a
  // leak: a 'request' listener on node, a wrapped handler on wire (neither
  // changes what the app does).
  /** @type {WeakMap<object, string>} */
  const lastCase = new WeakMap()
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set()
  if (mode === 'node') {
    app.server.on('connection', (/** @type {import('node:net').Socket} */ socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    app.server.on('request', (/** @type {any} */ req) => lastCase.set(req.socket, String(req.headers['x-case'])))
  } else if (mode === 'wire') {
    const dispatch = core.engine.handler
    core.engine.handler = (/** @type {any} */ raw, /** @type {any} */ res) => {
      lastCase.set(raw.conn, String(raw.headers['x-case']))
      dispatch(raw, res)
    }
  }
  const openCases = () => mode === 'node'
    ? [...sockets].map((s) => lastCase.get(s) ?? 'none')
    : mode === 'wire' ? [...core.engine.connections].map((c) => lastCase.get(c) ?? 'none') : []
  const stats = async () => ({
    connections: mode === 'inject' ? 0 : await new Promise((resolve) => app.server.getConnections((_e, n) => resolve(n))),
    engineConnections: core.engine?.connections?.size ?? 0,
    openCases: openCases()
  })
  process.on('message', async (/** @type {any} */ m) => {
    if (m.type === 'stats') {
      process.send?.({ type: 'stats', id: m.id, ...(await stats()) })
    } else if (m.type === 'inject') {
      try {
        const { payloadLatin1, ...request } = m.request
        if (payloadLatin1 !== undefined) request.payload = Buffer.from(payloadLatin1, 'latin1')
        const res = await app.inject(request)
        process.send?.({ type: 'injected', id: m.id, status: res.statusCode, body: String(res.body).slice(0, 300) })
      } catch (err) {
        process.send?.({ type: 'injected', id: m.id, error: String(/** @type {any} */ (err)?.stack ?? err) })
      }
    } else if (m.type === 'close') {
      await app.close()
      await sleep(100) // sockets destroyed in close() leave the handle list on the next turn
      process.send?.({ type: 'closed', id: m.id, ...(await stats()), handlesBefore, handlesAfter: activeHandles() })
    }
  })
  // measured once the IPC channel is listened to (that refs its handle)
  handlesBefore = activeHandles()
  if (mode !== 'inject') port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port)
  process.send?.({ type: 'ready', port })
}

/** Active handles, less the ones this harness owns (IPC, stdio). */
function activeHandles () {
  const names = /** @type {any} */ (process)._getActiveHandles().map((/** @type {any} */ h) => h.constructor?.name ?? typeof h)
  return { n: names.length, names: names.sort().join(', ') }
}

// --- the parent: one server process per mode ----------------------------------

/**
 * @typedef {object} Failure
 * @property {string} mode
 * @property {string} kind
 * @property {string} caseId   or a list of the cases in flight
 * @property {string} detail
 */

class Server {
  /** @param {string} mode @param {(f: Failure) => void} fail */
  constructor (mode, fail) {
    this.mode = mode
    this.fail = fail
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null
    this.port = 0
    this.generation = 0
    this.stderr = ''
    this.msgId = 0
    /** @type {Map<number, (m: any) => void>} */
    this.waiting = new Map()
    /** @type {Set<string>} */
    this.inFlight = new Set()
    /** the cases that finished last: a crash can come after its case (a timer) */
    /** @type {string[]} */
    this.recent = []
    this.closing = false
    /** open connections already reported as leaked */
    this.leaked = 0
  }

  async start () {
    this.generation++
    this.stderr = ''
    this.leaked = 0
    const child = fork(SELF, [], {
      env: { ...process.env, CHAOS_CHILD: '1', CHAOS_MODE: this.mode },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc']
    })
    this.child = child
    // a failed send to a dying child; its 'exit' reports the crash
    child.on('error', () => {})
    child.stderr?.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000) })
    child.on('message', (/** @type {any} */ m) => {
      if (m.type === 'warning') {
        if (m.name === 'MaxListenersExceededWarning') this.fail({ mode: this.mode, kind: 'warning', caseId: [...this.inFlight].join(' '), detail: m.stack ?? m.message })
        else if (m.name !== 'ExperimentalWarning') this.fail({ mode: this.mode, kind: 'warning', caseId: [...this.inFlight].join(' '), detail: `${m.name}: ${m.message}` })
      } else if (m.type === 'violation') {
        this.fail({ mode: this.mode, kind: 'hooks', caseId: m.caseId, detail: m.what })
      } else if (m.id !== undefined) {
        const w = this.waiting.get(m.id)
        this.waiting.delete(m.id)
        w?.(m)
      }
    })
    const ready = new Promise((resolve, reject) => {
      const onReady = (/** @type {any} */ m) => { if (m?.type === 'ready') { child.removeListener('message', onReady); resolve(m) } }
      child.on('message', onReady)
      child.once('exit', (code) => reject(new Error(`server process exited (${code}) before it was ready: ${this.stderr}`)))
    })
    child.on('exit', (code, signal) => {
      for (const w of this.waiting.values()) w({ type: 'dead' })
      this.waiting.clear()
      if (this.child === child) this.child = null
      if (!this.closing) {
        this.fail({
          mode: this.mode,
          kind: 'crash',
          caseId: [...this.inFlight].join(' '),
          detail: `the server process died (code ${code}, signal ${signal}); in flight: ${[...this.inFlight].join(' ')}; finished last: ${this.recent.join(' ')}; stderr:\n${this.stderr.trim()}`
        })
      }
    })
    const m = /** @type {any} */ (await ready)
    this.port = m.port
  }

  get alive () { return this.child !== null && this.child.connected }

  /**
   * @param {Record<string, any>} msg
   * @param {number} ms
   * @returns {Promise<any>}
   */
  ask (msg, ms = HANG_MS) {
    if (!this.alive) return Promise.resolve({ type: 'dead' })
    const id = ++this.msgId
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiting.delete(id); resolve({ type: 'timeout' }) }, ms)
      this.waiting.set(id, (m) => { clearTimeout(timer); resolve(m) })
      // a child dying meanwhile fails the send (EPIPE): it reads as 'dead'
      this.child?.send({ ...msg, id }, (err) => {
        if (err === null) return
        this.waiting.delete(id)
        clearTimeout(timer)
        resolve({ type: 'dead' })
      })
    })
  }

  async stop () {
    this.closing = true
    const child = this.child
    if (child === null) return null
    // close() waits up to closeGraceTimeout (10 s) for responses that never end
    const res = await this.ask({ type: 'close' }, 15_000)
    if (this.child === child) {
      child.kill()
      await once(child, 'exit').catch(() => {})
    }
    return res
  }
}

/**
 * The inject side of one case: every request of it, in order.
 * @param {Server} server @param {ChaosCase} c
 * @returns {Promise<Outcome>}
 */
async function runInjectCase (server, c) {
  /** @type {Outcome} */
  const out = { kinds: {}, failures: [] }
  for (const r of c.requests) {
    // the request timeout bounds every inject; the client never leaves here
    /** @type {Record<string, string>} */
    const headers = { 'x-case': c.id, ...r.headers }
    if (r.plan !== '') headers['x-plan'] = r.plan
    /** @type {Record<string, any>} */
    const request = { method: r.method, url: r.path, headers }
    if (r.body !== null) {
      if (r.body.type) headers['content-type'] = r.body.type
      // IPC is JSON: a Buffer would arrive as {type, data}
      request.payloadLatin1 = bodyBytes(r.body).toString('latin1')
    }
    const m = await server.ask({ type: 'inject', request })
    if (m.type === 'timeout') {
      out.failures.push({ kind: 'hang', detail: `inject ${r.method} ${r.path} did not settle within ${HANG_MS} ms` })
      return out
    }
    if (m.type === 'dead') { count(out, 'server died'); return out }
    if (m.error !== undefined) {
      out.failures.push({ kind: 'inject-error', detail: m.error })
      continue
    }
    checkResponse(out, { status: m.status, head: '', interim: false, close: false, body: Buffer.from(m.body, 'latin1'), end: 0 })
  }
  return out
}

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

if (process.env.CHAOS_CHILD === '1') {
  await childMain()
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main()
}
