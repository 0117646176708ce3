// The load: `clients` concurrent loops over keep-alive connections (one
// node:http Agent, a socket per client), each sending its next request as
// soon as the last one is settled, GET /items/:id and POST /items in turn.
// Every request sent is counted exactly once: by its status once its body
// has arrived (a 2xx whose body is not the expected JSON counts as
// `bad-body`), or by the code of the socket error that ended it
// (ECONNRESET, ECONNREFUSED, TIMEOUT…). `accounted` checks the sum.
import { Agent, request } from 'node:http'

const REQUEST_TIMEOUT_MS = 10_000
/** failures kept with their time, for the report (the counts hold them all) */
const MAX_FAILURES_KEPT = 200

/**
 * @typedef {object} LoadStats
 * @property {number} sent
 * @property {number} get
 * @property {number} post
 * @property {Record<string, number>} status      status code → count
 * @property {Record<string, number>} errors      socket error code → count
 * @property {number} badBody                     2xx with an unexpected body
 * @property {Record<string, number>} instances   x-instance → count of 2xx
 * @property {{ t: number, method: string, outcome: string, instance?: string }[]} failures  the first failures, t in ms from the start
 */

/**
 * @param {{ port: number, clients: number }} o
 */
export function startLoad (o) {
  const agent = new Agent({ keepAlive: true, maxSockets: o.clients, maxFreeSockets: o.clients })
  /** @type {LoadStats} */
  const stats = { sent: 0, get: 0, post: 0, status: {}, errors: {}, badBody: 0, instances: {}, failures: [] }
  const t0 = Date.now()
  let stopping = false

  /** @param {string} method @param {string} outcome @param {string} [instance] */
  function fail (method, outcome, instance) {
    if (stats.failures.length < MAX_FAILURES_KEPT) stats.failures.push({ t: Date.now() - t0, method, outcome, instance })
  }

  /**
   * One request; resolves once it is counted.
   * @param {number} n
   * @returns {Promise<void>}
   */
  function one (n) {
    const isGet = n % 2 === 0
    const id = String(n)
    const body = isGet ? null : JSON.stringify({ name: 'n' + id, qty: n })
    stats.sent++
    if (isGet) stats.get++; else stats.post++
    const method = isGet ? 'GET' : 'POST'
    return new Promise((resolve) => {
      let settled = false
      /** @param {() => void} count */
      const settle = (count) => {
        if (settled) return
        settled = true
        count()
        resolve()
      }
      /** @param {Error & { code?: string }} err */
      const onError = (err) => settle(() => {
        const code = err.code ?? err.message
        stats.errors[code] = (stats.errors[code] ?? 0) + 1
        fail(method, code)
      })
      const req = request({
        agent,
        host: '127.0.0.1',
        port: o.port,
        method,
        path: isGet ? '/items/' + id : '/items',
        headers: body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
      }, (res) => {
        /** @type {Buffer[]} */
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('error', onError)
        res.on('aborted', () => onError(Object.assign(new Error('response aborted'), { code: 'ECONNRESET' })))
        res.on('end', () => settle(() => {
          const status = res.statusCode ?? 0
          const instance = String(res.headers['x-instance'] ?? '')
          if (status >= 200 && status < 300) {
            if (!expected(Buffer.concat(chunks).toString(), id, isGet)) {
              stats.badBody++
              fail(method, 'bad-body', instance)
              return
            }
            stats.instances[instance] = (stats.instances[instance] ?? 0) + 1
          } else {
            fail(method, String(status), instance)
          }
          stats.status[status] = (stats.status[status] ?? 0) + 1
        }))
      })
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })))
      req.on('error', onError)
      req.end(body ?? undefined)
    })
  }

  let counter = 0
  /** @param {number} k */
  async function client (k) {
    // each client alternates GET and POST, and clients start on alternate methods
    let n = k
    while (!stopping) {
      await one(n)
      n += 1
      counter++
    }
  }
  const loops = Array.from({ length: o.clients }, (_, k) => client(k))

  return {
    stats,
    /** ms since the load started (the failures' `t`) */
    now: () => Date.now() - t0,
    /** completed requests so far */
    get completed () { return counter },
    /** stops sending; resolves with the stats once every request in flight is counted */
    async stop () {
      stopping = true
      await Promise.all(loops)
      agent.destroy()
      return stats
    }
  }
}

/**
 * The answer the app gives: GET echoes the id, POST the body.
 * @param {string} text
 * @param {string} id
 * @param {boolean} isGet
 */
function expected (text, id, isGet) {
  try {
    const v = JSON.parse(text)
    return isGet ? v.id === id && v.name === 'item ' + id : v.name === 'n' + id && v.qty === Number(id)
  } catch {
    return false
  }
}

/**
 * Whether every request sent was counted exactly once.
 * @param {LoadStats} s
 */
export function accounted (s) {
  const byStatus = Object.values(s.status).reduce((a, b) => a + b, 0)
  const byError = Object.values(s.errors).reduce((a, b) => a + b, 0)
  return s.sent === byStatus + byError + s.badBody && s.sent === s.get + s.post
}
