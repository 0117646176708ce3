// One case from the client side (see ../chaos.js): over a socket, the
// client leaving where the case says, or through inject in the server
// process; every answer is checked and its outcome counted.

import { setTimeout as sleep } from 'node:timers/promises'
import { APP_OPTIONS, HANG_MS } from './cases.js'
import { Client, bodyBytes, requestBytes } from './http.js'

/** @typedef {import('./cases.js').ChaosCase} ChaosCase */

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
 * @param {Exclude<ReturnType<typeof import('./http.js').parseResponse>, null>} r
 * @param {boolean} [sentAll]  every byte of the request went out in one write
 * @param {string} [label]
 */
function checkResponse (out, r, sentAll = false, label = 'a request') {
  count(out, `status ${r.status}`)
  // RFC 9110 §15.5.9: 408 says the client was too slow to send; every byte
  // of this request went out at once, well inside the timeouts
  if (r.status === 408 && sentAll) out.failures.push({ kind: 'wrong-answer', detail: `408 to ${label}, whose head and body were all sent at once; the answer's head: ${JSON.stringify(r.head)}` })
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
 * @param {Exclude<ReturnType<typeof import('./http.js').parseResponse>, null> | 'closed' | 'truncated' | 'hang'} r
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

// --- the inject side of one case ---------------------------------------------

/**
 * The inject side of one case: every request of it, in order.
 * @param {import('./server.js').Server} server @param {ChaosCase} c
 * @returns {Promise<Outcome>}
 */
export async function runInjectCase (server, c) {
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
