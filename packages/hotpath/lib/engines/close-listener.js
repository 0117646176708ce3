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
// moment resets some of them. So the listener is closed only once its
// queue is seen empty, in the same turn, and to get there the engine holds
// its connections (stops reading them, ../wire and ../node: `hold`) while
// it waits: each turn is then short, the queue is accepted in a few
// milliseconds, connections accepted meanwhile are held too, and all are
// released (served, Connection: close, as every request during a drain)
// once the listener has closed. Nothing is lost by holding: the bytes wait
// in the kernel. On Linux the queue's length is read from /proc/net/tcp
// (tcp6), whose rx_queue column is that length for a listening socket: at
// once, as each connection is accepted, and every few milliseconds. What
// can still be reset is a connection that arrives between the reading and
// the close, microseconds. Where the queue cannot be read (another OS, a
// Unix socket, /proc not mounted) the listener closes after the next poll
// phase, which accepts one more connection. The wait is bounded: a
// listener whose queue never empties (its clients open connections faster
// than it accepts them, however short its turns) closes after MAX_MS.

import { closeSync, openSync, readSync, readlinkSync } from 'node:fs'

/** the longest the listener stays open, its connections held, waiting for an empty queue */
const MAX_MS = 1000
/** between two readings while no connection is accepted */
const POLL_MS = 2

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
 * Closes `server`'s listening socket once no connection waits in its
 * kernel queue: calls `o.close()`, then `o.release()`.
 * @param {import('node:net').Server} server
 * @param {ListenerClose} o
 */
export function closeListener (server, o) {
  const queue = queueReader(server)
  if (queue === null) {
    // one poll phase: a connection that waits now is accepted before the close
    setImmediate(() => {
      o.close()
      o.release()
    })
    return
  }
  if (queue() === 0) {
    o.close()
    return
  }
  let done = false
  const finish = () => {
    if (done) return
    done = true
    server.removeListener('connection', onConnection)
    clearTimeout(bound)
    clearTimeout(poll)
    o.close()
    o.release()
  }
  const check = () => {
    if (!done && (!server.listening || queue() === 0)) finish()
  }
  /** @param {import('node:net').Socket} socket  just accepted: held, and was it the last one queued? */
  const onConnection = (socket) => {
    o.holdNew(socket)
    check()
  }
  const bound = setTimeout(finish, MAX_MS)
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
