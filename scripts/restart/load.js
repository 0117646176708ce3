// The load: `clients` concurrent loops over keep-alive connections (one
// node:http Agent, a socket per client; or, for an HTTP/2 target, an
// HTTP/2 session per client), each sending its next request as soon as
// the last one is settled, GET /items/:id and POST /items in turn.
// Every request sent is counted exactly once: by its status once its body
// has arrived (a 2xx whose body is not the expected JSON counts as
// `bad-body`), or by the code of the socket error that ended it
// (ECONNRESET, ECONNREFUSED, TIMEOUT…). `accounted` checks the sum.
import { Agent, request } from 'node:http'
import { h2Clients } from './h2-client.js'

const REQUEST_TIMEOUT_MS = 10_000

/** @typedef {{ status: number, instance: string, text: string }} Answer */
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
 * @property {number} retried                     HTTP/2: requests the server refused unprocessed (REFUSED_STREAM), sent again once on a new session; counted by the outcome of that second try
 * @property {Record<string, number>} instances   x-instance → count of 2xx
 * @property {{ t: number, method: string, outcome: string, instance?: string }[]} failures  the first failures, t in ms from the start
 */

/**
 * @param {{ port: number, clients: number, h2?: boolean }} o  h2: each client holds an HTTP/2 session (./h2-client.js)
 */
export function startLoad (o) {
  const agent = new Agent({ keepAlive: true, maxSockets: o.clients, maxFreeSockets: o.clients })
  const h2 = o.h2 === true ? h2Clients(o.port, o.clients) : null
  /** @type {LoadStats} */
  const stats = { sent: 0, get: 0, post: 0, status: {}, errors: {}, badBody: 0, retried: 0, instances: {}, failures: [] }
  const t0 = Date.now()
  let stopping = false

  /** @param {string} method @param {string} outcome @param {string} [instance] */
  function fail (method, outcome, instance) {
    if (stats.failures.length < MAX_FAILURES_KEPT) stats.failures.push({ t: Date.now() - t0, method, outcome, instance })
  }

  /**
   * One request over HTTP/1.1; resolves with its answer, rejects with the
   * error (its code) that ended it.
   * @param {{ method: string, path: string, headers: Record<string, string | number>, body: string | null }} r
   * @returns {Promise<Answer>}
   */
  function overHttp1 (r) {
    return new Promise((resolve, reject) => {
      const req = request({ agent, host: '127.0.0.1', port: o.port, method: r.method, path: r.path, headers: r.headers }, (res) => {
        /** @type {Buffer[]} */
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('error', reject)
        res.on('aborted', () => reject(Object.assign(new Error('response aborted'), { code: 'ECONNRESET' })))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, instance: String(res.headers['x-instance'] ?? ''), text: Buffer.concat(chunks).toString() }))
      })
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })))
      req.on('error', reject)
      req.end(r.body ?? undefined)
    })
  }

  /**
   * One request; resolves once it is counted.
   * @param {number} n  the request's number; `client`: the client sending it
   * @param {number} client
   * @returns {Promise<void>}
   */
  async function one (n, client) {
    const isGet = n % 2 === 0
    const id = String(n)
    const body = isGet ? null : JSON.stringify({ name: 'n' + id, qty: n })
    stats.sent++
    if (isGet) stats.get++; else stats.post++
    const method = isGet ? 'GET' : 'POST'
    const r = { method, path: isGet ? '/items/' + id : '/items', headers: body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, body }
    /** @type {Answer} */
    let answer
    try {
      if (h2 === null) answer = await overHttp1(r)
      else {
        try {
          answer = await h2.send(client, r, REQUEST_TIMEOUT_MS)
        } catch (err) {
          // never processed (RFC 9113 §8.7): an HTTP/2 client may send it
          // again, as browsers and proxies do; once, on a new session
          if (/** @type {any} */ (err).code !== 'REFUSED_STREAM') throw err
          stats.retried++
          answer = await h2.send(client, r, REQUEST_TIMEOUT_MS)
        }
      }
    } catch (err) {
      const code = /** @type {any} */ (err).code ?? /** @type {Error} */ (err).message
      stats.errors[code] = (stats.errors[code] ?? 0) + 1
      fail(method, code)
      return
    }
    const { status, instance } = answer
    if (status >= 200 && status < 300) {
      if (!expected(answer.text, id, isGet)) {
        stats.badBody++
        fail(method, 'bad-body', instance)
        return
      }
      stats.instances[instance] = (stats.instances[instance] ?? 0) + 1
    } else {
      fail(method, String(status), instance)
    }
    stats.status[status] = (stats.status[status] ?? 0) + 1
  }

  let counter = 0
  /** @param {number} k */
  async function client (k) {
    // each client alternates GET and POST, and clients start on alternate methods
    let n = k
    while (!stopping) {
      await one(n, k)
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
      h2?.close()
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
