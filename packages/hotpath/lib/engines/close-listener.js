// Closing a listening socket without resetting the connections the kernel
// has already taken for it (the `drain` option's close, on wire and node).
//
// The kernel completes a TCP handshake on its own and queues the connection
// until the process accepts it; a client (a balancer) sends its request at
// once. Closing the listening socket resets every connection still in that
// queue, requests included: nginx then answers a POST 502, since a request
// it has sent is never sent twice. The queue fills whenever the process
// does not accept for a while: a busy turn of the event loop, a process the
// scheduler left waiting on a busy machine. A close() from a timer (the
// drain delay's end) lands right after such a turn.
//
// Node's libuv accepts one connection per turn of the event loop, and a
// turn serves every connection that has bytes to read: under load the
// queue holds connections all the time, and a listener closed at any
// moment resets some of them. So the engine holds its connections (stops
// reading them, ../wire and ../node: `hold`) while it waits: each turn is
// then short, the queue is accepted in a few milliseconds, connections
// accepted meanwhile are held too, and all are released (served,
// Connection: close, as every request during a drain) once the listener
// has closed. Nothing is lost by holding: the bytes wait in the kernel. On
// Linux the queue's length is read from /proc/net/tcp (tcp6), whose
// rx_queue column is that length for a listening socket.
//
// An empty queue is not enough. A connection whose handshake the kernel
// has begun (its SYN answered) but not finished is not in the queue yet,
// and is reset too when its last ACK reaches a closed listener, after its
// client has sent the request. On loopback the kernel finishes a handshake
// in the same softirq run as a rule, but on a busy machine that work is
// deferred to ksoftirqd, which waits for a CPU like any thread: measured
// behind nginx with 50 clients and two CPU burners, this process did not
// run for 9 ms, read an empty queue, closed, and 6 connections were reset
// (3 POSTs answered 502). Those are not listed anywhere cheap to read
// (/proc/net/tcp lists them among every other socket: 1.4 MB, 32 ms to
// read in that run). So the listener closes once the queue has read empty
// and no connection has been accepted for QUIET_MS of readings made on
// time: a reading more than LATE_MS after the one before (this process was
// not running, and maybe the kernel's network work neither) starts the
// quiet period again. Held, a balancer's requests to this instance stop
// coming back, so its clients wait here and stop opening connections: the
// quiet comes after a few milliseconds. Where the queue cannot be read
// (another OS, a Unix socket, /proc not mounted) the quiet period is
// counted from accepted connections alone. The wait is bounded: past
// MAX_MS (clients that open connections faster than they are held) the
// listener closes at the next empty reading, and at 2 × MAX_MS whatever it
// reads. What can still be reset is a connection whose handshake was begun
// and left unfinished for longer than QUIET_MS while this process ran.

import { closeSync, openSync, readSync, readlinkSync } from 'node:fs'

/** without a connection, on time, before the listener closes */
const QUIET_MS = 20
/** between two readings */
const POLL_MS = 2
/** a reading this long after the one before was late: the quiet period starts again */
const LATE_MS = 8
/** the longest the listener waits for a quiet period (then an empty reading will do) */
const MAX_MS = 1000

/** one read of /proc/net/tcp's first lines: the listening sockets come first */
const CHUNK = 16_384
/** @type {Buffer | null} */
let buffer = null

/**
 * @typedef {object} ListenerClose
 * @property {() => void} close      closes the listening socket (server.close(...)), called once
 * @property {() => void} hold       stops reading every open connection
 * @property {(socket: import('node:net').Socket) => void} holdNew  stops reading a connection just accepted
 * @property {() => void} release    reads them again (after close)
 */

/**
 * Closes `server`'s listening socket once no connection has waited in its
 * kernel queue for QUIET_MS: calls `o.hold()` at once, then `o.close()`
 * and `o.release()`.
 * @param {import('node:net').Server} server
 * @param {ListenerClose} o
 */
export function closeListener (server, o) {
  const queue = queueReader(server)
  const began = performance.now()
  /** when the last connection was accepted, the queue read non-empty, or a reading came late */
  let busy = began
  let last = began
  let done = false
  const finish = () => {
    if (done) return
    done = true
    server.removeListener('connection', onConnection)
    clearTimeout(poll)
    o.close()
    o.release()
  }
  const check = () => {
    if (done) return
    if (!server.listening) return finish()
    const n = queue === null ? 0 : queue()
    // read the clock after the reading: a reading that took long is late too
    const now = performance.now()
    if (n !== 0 || now - last > LATE_MS) busy = now
    last = now
    if (n === 0 && (now - busy >= QUIET_MS || now - began >= MAX_MS)) return finish()
    if (now - began >= 2 * MAX_MS) return finish()
  }
  /** @param {import('node:net').Socket} socket  just accepted: held, and the quiet period starts again */
  const onConnection = (socket) => {
    o.holdNew(socket)
    busy = performance.now()
  }
  let poll = setTimeout(function again () {
    check()
    if (!done) poll = setTimeout(again, POLL_MS)
  }, POLL_MS)
  o.hold()
  server.on('connection', onConnection)
}

/**
 * A function that reads the length of `server`'s accept queue, or null
 * where it cannot be read.
 * @param {import('node:net').Server} server
 * @returns {(() => number | null) | null}
 */
function queueReader (server) {
  if (process.platform !== 'linux') return null
  const address = server.address()
  if (address === null || typeof address === 'string') return null
  const fd = /** @type {any} */ (server)._handle?.fd
  if (typeof fd !== 'number' || fd < 0) return null
  let inode
  try {
    const link = readlinkSync(`/proc/self/fd/${fd}`)
    const m = /^socket:\[(\d+)\]$/.exec(link)
    if (m === null) return null
    inode = m[1]
  } catch {
    return null
  }
  const file = address.family === 'IPv6' || address.family === /** @type {any} */ (6) ? '/proc/net/tcp6' : '/proc/net/tcp'
  const reader = () => acceptQueue(file, inode)
  return reader() === null ? null : reader
}

/**
 * The rx_queue of the socket with `inode` in /proc/net/tcp(6): for a
 * listening socket, the connections waiting to be accepted. null when the
 * line is not found in the first lines, or the file cannot be read.
 * @param {string} file
 * @param {string} inode
 * @returns {number | null}
 */
function acceptQueue (file, inode) {
  buffer ??= Buffer.allocUnsafe(CHUNK)
  let fd = -1
  try {
    fd = openSync(file, 'r')
    let text = ''
    // the listening sockets come first; a machine with very many of them
    // is read further, to a bound
    for (let i = 0; i < 8; i++) {
      const n = readSync(fd, buffer, 0, CHUNK, null)
      if (n <= 0) break
      text = text.slice(text.lastIndexOf('\n') + 1) + buffer.toString('latin1', 0, n)
      const found = findQueue(text, inode)
      if (found !== null) return found
    }
    return null
  } catch {
    return null
  } finally {
    if (fd !== -1) closeSync(fd)
  }
}

/**
 * @param {string} text  whole lines of /proc/net/tcp, the last one maybe cut
 * @param {string} inode
 * @returns {number | null}
 */
function findQueue (text, inode) {
  const key = ' ' + inode + ' '
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + 1)) {
    const start = text.lastIndexOf('\n', at) + 1
    //   sl  local_address rem_address   st tx_queue:rx_queue tr tm->when retrnsmt   uid  timeout inode
    const fields = text.slice(start, at + key.length).trim().split(/\s+/)
    if (fields.length !== 10 || fields[9] !== inode) continue // the number in another column
    if (fields[3] !== '0A') return null // not listening
    const n = parseInt(fields[4].split(':')[1], 16)
    return Number.isInteger(n) ? n : null
  }
  return null
}
