// Timeouts of the wire engine: one shared timer for every connection (no
// timer armed per request), and what each phase of a connection allows:
// headersTimeout for a head, requestTimeout for a body being read (408,
// RFC 9110 §15.5.9), keepAliveTimeout while idle, a short linger after we
// half-closed. The application's own time is not watched here: the core's
// request timeout bounds it.
import { errorAnswer } from '../../reply/error-body.js'
import { P_HEAD, P_BODY, P_BUSY, P_IDLE, P_LINGER, PAUSE_ACCEPT } from './states.js'
import { send, handOffClientError } from './output.js'
import { abortBody, engineError } from './request-body.js'
import { errorResponse } from './writer.js'
import { TIMEOUT_LINGER_MS, CLOSE_IDLE_MS, TICK_MS } from './limits.js'
import { publishRejected } from '../../lifecycle/tracing.js'

/** @typedef {import('./connection.js').Connection} Connection */

/**
 * The one shared timer: refreshes the Date header and the timeouts' clock,
 * and enforces every connection's timeout.
 *
 * A tick that comes late comes after a turn the process spent busy (a
 * loaded machine): the clock counts at most two periods for it, so that
 * time the server could not read is not counted against its clients. And
 * timers run before the sockets are read: a client that seems late may
 * have sent what the server has not read yet, so a head or a body past its
 * time is judged after this turn's reads.
 * @param {import('./index.js').WireEngine} engine
 */
export function tick (engine) {
  // no connection left: the timer stops until the next one is accepted
  // (WireEngine#startTimer says why)
  if (engine.connections.size === 0) {
    if (engine.timer !== null) clearInterval(engine.timer)
    engine.timer = null
    return
  }
  const now = Date.now()
  engine.clock += Math.min(Math.max(0, now - engine.tickedAt), 2 * TICK_MS)
  engine.tickedAt = now
  engine.refreshDate(now)
  let late = false
  for (const conn of engine.connections) {
    switch (conn.phase) {
      case P_HEAD:
      case P_BODY:
        if (!late && overdue(engine, conn)) {
          late = true
          setImmediate(timeoutLate, engine)
        }
        break
      case P_IDLE:
        // held while close() accepts the listener's queue: its request may be waiting unread
        if ((conn.paused & PAUSE_ACCEPT) !== 0) break
        if (engine.clock - conn.since > engine.limits.keepAliveTimeout || (engine.closing && !engine.drain && engine.clock - conn.since >= CLOSE_IDLE_MS)) timeout(conn)
        // idle through a whole tick: let go of what only a request needs
        // (Connection#sleep), here rather than at each answer, so that
        // requests back to back on a connection allocate nothing for it
        else if (engine.clock - conn.since >= TICK_MS && !conn.asleep) conn.sleep()
        break
      case P_LINGER:
        if (engine.clock - conn.since > conn.linger) timeout(conn)
        break
    }
  }
}

/**
 * A head (headersTimeout, and requestTimeout) or a body being read
 * (requestTimeout) past its time.
 * @param {import('./index.js').WireEngine} engine
 * @param {Connection} conn
 */
function overdue (engine, conn) {
  const { headersTimeout, requestTimeout } = engine.limits
  const age = engine.clock - conn.since
  if (conn.phase === P_HEAD) return (headersTimeout > 0 && age > headersTimeout) || (requestTimeout > 0 && age > requestTimeout)
  return conn.phase === P_BODY && requestTimeout > 0 && age > requestTimeout
}

/**
 * After the reads of the tick's turn: 408 to the clients still late.
 * @param {import('./index.js').WireEngine} engine
 */
function timeoutLate (engine) {
  for (const conn of engine.connections) {
    if (overdue(engine, conn)) timeout(conn)
  }
}

/**
 * The phase the timer checks, after a read or a response.
 * @param {Connection} conn
 */
export function updatePhase (conn) {
  if (conn.detached || conn.ended) return
  // waiting for the body: only while it is read; a body paused because
  // nobody reads it (or the client does not read our answers) is the
  // application's time, bounded by the core's request timeout
  if (conn.parser.inBody && conn.paused === 0) {
    if (conn.phase !== P_BODY) { conn.phase = P_BODY; conn.since = conn.reqStart }
  } else if (conn.stopped || conn.queue.length > 0) {
    conn.phase = P_BUSY
  } else if (conn.headStarted) {
    conn.phase = P_HEAD
  } else if (conn.phase !== P_IDLE) {
    conn.phase = P_IDLE
    conn.since = conn.engine.clock
  }
}

/**
 * Timeout fired in `phase` (called by the shared timer).
 * @param {Connection} conn
 */
export function timeout (conn) {
  const q = conn.queue
  const res = q.length === 1 ? q[0] : null
  if (conn.phase === P_IDLE || conn.phase === P_LINGER) return conn.destroy()
  if (q.length === 0 || (res !== null && res.req === conn.current && res.state === 0)) {
    const err = engineError('HP_ERR_REQUEST_TIMEOUT')
    conn.engine.clientError(err, conn)
    publishRejected(408, 'HP_ERR_REQUEST_TIMEOUT', res?.req.method, res?.req.url, conn.remoteAddress)
    conn.closing = true
    conn.stopped = true
    conn.discard = true
    if (conn.current !== null) {
      const req = conn.current
      conn.current = null
      abortBody(conn, req, 'HP_ERR_REQUEST_TIMEOUT')
    }
    if (res !== null) {
      // the application's response can no longer be sent after this one
      conn.queue.length = 0
      res.state = 3
    }
    conn.linger = TIMEOUT_LINGER_MS
    if (res === null && conn.engine.clientErrorHandler !== null) {
      handOffClientError(conn, err)
    } else {
      send(conn, errorResponse(errorAnswer('HP_ERR_REQUEST_TIMEOUT'), conn.engine.dateLine))
      conn.closedWrite = true
      conn.shutdown()
    }
    if (res !== null) {
      res.ended(engineError('HP_ERR_REQUEST_TIMEOUT'))
    }
    return
  }
  conn.destroy()
}
