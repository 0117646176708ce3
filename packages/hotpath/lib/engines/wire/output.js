// Bytes out: every write of a connection goes through send(). Writes made
// while a read is being processed are collected and go out in one socket
// write at the end of that read, so N pipelined requests that came in one
// packet get their N responses in one packet (docs/architecture.md, "One
// write per response"). A socket that does not take more pauses reading.
//
// A string handed to send() is written as latin1, one byte a character, as
// node:http writes a head: heads hold nothing above 0xFF (./writer.js checks
// every value by node's rule), so obs-text in a header or trailer value goes
// out as its one byte, and a body joins its head only when it is ASCII (any
// other comes as its UTF-8 bytes, a Buffer). One rule for every string
// instead of an ASCII flag carried with each head; not a speed matter: for
// a 3.5 KiB string node's UTF-8 write costs 145 ns against latin1's 98.

import { PAUSE_WRITE } from './states.js'

/** @typedef {import('./connection.js').Connection} Connection */

/** RFC 9110 §10.1.1: the interim answer to Expect: 100-continue. */
export const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'

// Past this many bytes collected during one read, the batch goes out at once.
const OUT_BATCH = 64 * 1024

/**
 * Ends a read: collected writes go out, then a pending half-close.
 * @param {Connection} conn
 */
export function flush (conn) {
  if (conn.out.length > 0) drainOut(conn)
  conn.batching = false
  if (conn.endAfterFlush) conn.shutdown()
}

/**
 * Writes what was collected so far in one socket write (or one writev).
 * @param {Connection} conn
 */
export function drainOut (conn) {
  const out = conn.out
  conn.outBytes = 0
  if (conn.detached) {
    out.length = 0
    return
  }
  const socket = conn.socket
  let ok = true
  if (out.length === 1) {
    // pop, not length = 0: setting an array's length is a runtime call
    ok = socket.write(/** @type {string | Buffer} */ (out.pop()), 'latin1')
  } else if (out.length > 1) {
    let strings = true
    for (let i = 0; i < out.length; i++) if (typeof out[i] !== 'string') { strings = false; break }
    if (strings) {
      const data = out.join('')
      out.length = 0
      ok = socket.write(data, 'latin1')
    } else {
      const list = out.splice(0, out.length)
      socket.cork()
      for (let i = 0; i < list.length; i++) ok = socket.write(list[i], 'latin1')
      socket.uncork()
    }
  }
  if (!ok) blocked(conn)
}

/**
 * @param {Connection} conn
 * @param {string | Buffer} data
 */
export function send (conn, data) {
  if (conn.closedWrite) return
  if (conn.batching) {
    conn.out.push(data)
    // one read of small pipelined requests can ask for huge responses:
    // past 64 KiB the batch goes out now, so the socket's backpressure
    // (a client that does not read) stops the parsing of this very read
    conn.outBytes += data.length
    if (conn.outBytes >= OUT_BATCH) drainOut(conn)
  } else if (!conn.detached) {
    if (!conn.socket.write(data, 'latin1')) blocked(conn)
  }
}

/** @param {Connection} conn */
function blocked (conn) {
  conn.writeBlocked = true
  conn.pause(PAUSE_WRITE)
}

/**
 * A refused request answered by the application's clientErrorHandler
 * (Fastify's option) instead of the engine: what was collected goes out
 * first, then the handler writes to the socket and ends or destroys it.
 * Nothing more of the engine's is written; a socket the handler leaves
 * open is half-closed and bounded by the linger timer.
 * @param {Connection} conn
 * @param {Error} err  carries the code of the error table
 */
export function handOffClientError (conn, err) {
  if (conn.out.length > 0) drainOut(conn)
  conn.closedWrite = true
  conn.closing = true
  conn.stopped = true
  conn.discard = true
  const socket = conn.socket
  try {
    /** @type {(err: Error, socket: import('node:net').Socket) => void} */ (conn.engine.clientErrorHandler)(err, socket)
  } catch {
    socket.destroy()
    return
  }
  if (!socket.destroyed) conn.shutdownSoon()
}
