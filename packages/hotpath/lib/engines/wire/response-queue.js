// The per-connection response queue and pipelining (RFC 9112 §9.3.2): a
// client may send requests before the earlier ones are answered, and the
// responses must go out in request order. A response that is ready before
// its turn waits in the queue with its bytes; a stream waits for the socket.
// Past maxPipelined owed responses, reading pauses. The queue also decides
// whether the connection survives a response (RFC 9112 §9.3, §9.6), and
// owes 100 Continue to a request whose turn has not come (RFC 9110 §10.1.1).
import { PAUSE_BODY, PAUSE_PIPELINE } from './states.js'
import { send, CONTINUE } from './output.js'
import { abandonBody } from './request-body.js'
import { updatePhase } from './timers.js'

/** @typedef {import('./connection.js').Connection} Connection */
/** @typedef {import('./response.js').WireResponse} WireResponse */

/**
 * Decides whether the connection survives this response.
 * @param {Connection} conn
 * @param {WireResponse} res
 */
export function prepareClose (conn, res) {
  const req = res.req
  if (!req.complete && req.sinkKind === 2) {
    // Someone is reading the body as a stream (a proxy sending it on while
    // the answer streams back): both go on at once, as on node:http. The
    // body keeps flowing to its reader (dropping its rest here left the
    // reader waiting for ever); the connection still ends after this
    // response, as for any answer that came before its body's end.
    res.closeAfter = true
  } else if (!req.complete && req.sinkKind !== 3) {
    // answered before the body was read. A small declared body that the
    // client is already sending is read and dropped (keep-alive survives,
    // as on node:http); anything else closes the connection.
    const left = req.contentLength - req.buffered
    if (req.contentLength >= 0 && left <= conn.engine.limits.bodyHighWater && !req.expectContinue && !req.continueLater) {
      req.sinkKind = 3
      req.chunks = null
      conn.resume(PAUSE_BODY)
    } else {
      abandonBody(conn, req)
    }
  } else if (!req.complete) {
    res.closeAfter = true
  }
  if (!req.keepAlive || conn.engine.closeBusy) res.closeAfter = true
}

/**
 * Sends a complete response now, or keeps it until the responses to
 * earlier requests are out.
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {string | Buffer} data
 * @param {Buffer | null} data2
 */
export function emitComplete (conn, res, data, data2) {
  res.headersSent = true
  if (conn.queue[0] === res) {
    send(conn, data)
    if (data2 !== null) send(conn, data2)
    finished(conn, res, null)
    advance(conn)
  } else {
    res.state = 1
    res.data = data
    res.data2 = data2
  }
}

/**
 * Writes the responses that were waiting for earlier ones.
 * @param {Connection} conn
 */
export function advance (conn) {
  const queue = conn.queue
  while (queue.length > 0 && !conn.detached && !conn.closedWrite) {
    const res = queue[0]
    if (res.state === 1) {
      send(conn, /** @type {string | Buffer} */ (res.data))
      if (res.data2 !== null) send(conn, res.data2)
      res.data = null
      res.data2 = null
      finished(conn, res, null)
      continue
    }
    if (res.req.continueLater && res.state === 0) {
      res.req.continueLater = false
      send(conn, CONTINUE)
    }
    if (res.state === 2 && conn.streaming === null) conn.startStream(res)
    break
  }
  if (queue.length === 0 && conn.pendingError !== null) {
    send(conn, conn.pendingError)
    conn.pendingError = null
    conn.closedWrite = true
    conn.shutdownSoon()
  }
}

/**
 * @param {Connection} conn
 * @param {WireResponse} res
 * @param {Error | null} err
 */
export function finished (conn, res, err) {
  res.state = 3
  if (conn.queue[0] === res) conn.queue.shift()
  else {
    const i = conn.queue.indexOf(res)
    if (i !== -1) conn.queue.splice(i, 1)
  }
  res.ended(err)
  if (err !== null) return
  if (res.closeAfter || (conn.closing && conn.pendingError === null && conn.queue.length === 0 && conn.current === null)) {
    conn.endAfterWrites()
    return
  }
  if (conn.queue.length < conn.engine.limits.maxPipelined / 2) conn.resume(PAUSE_PIPELINE)
  if (!conn.batching) updatePhase(conn)
}
