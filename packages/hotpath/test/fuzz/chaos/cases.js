// The crash hunt's cases (see ../chaos.js): the app's options they are
// drawn against and the bound on a hang, a seeded PRNG, the case `index` of
// `seed` generated from the two alone, and the pinned regression cases.

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
export const HANG_MS = 6000

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
export const HOOKS = ['onRequest', 'preValidation', 'preHandler']
export const PAYLOAD_HOOKS = ['preSerialization', 'onSend']
export const OBSERVERS = ['onError', 'onResponse', 'onRequestAbort', 'onTimeout']
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
  // a body replaced by preParsing is never read, and the handler never
  // answers: the request timeout is the handler's (503), not the client's
  'replaced-body-never-answered': {
    requests: [{ ...req('PATCH', '/hooks', 'preParsing=R;handler=never', json(58_000)), chunked: true }],
    pipelined: false, closeLast: false, leave: 'none', how: 'destroy', at: 0, wait: 0
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
