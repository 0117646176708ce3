// The floor: a node:net server that does no HTTP work at all. It counts the
// requests in what it reads (each ends at its blank line; the scenarios it
// serves send no body) and writes one canned answer per request, the same
// bytes hotpath sends for `hello`, in one write per read. No parser, no
// router, no objects per request: what is left is node's socket, libuv and
// the kernel, the part of a request's CPU no node server can avoid. The
// `floor` profile measures hotpath's wire engine against it.

import net from 'node:net'
import { kind, port, host, unsupported, ready } from './common.js'

if (kind !== 'hello') unsupported('the canned server answers only hello (and hello pipelined)')

const BODY = JSON.stringify({ hello: 'world' })
const END = Buffer.from('\r\n\r\n')

let answer = cannedAnswer()
// The Date header changes once a second, as every other target's does.
setInterval(() => { answer = cannedAnswer() }, 1000).unref()

function cannedAnswer () {
  return Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\n' +
    `content-length: ${BODY.length}\r\nDate: ${new Date().toUTCString()}\r\n` +
    `Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${BODY}`)
}

// --floor-work N (LAB_FLOOR_WORK): a loop of N iterations on each request,
// work done for nothing, so that the floor can be timed at a slower
// server's throughput (lab/runner/run.js, withFloorWork)
const FLOOR_WORK = Number(process.env.LAB_FLOOR_WORK || 0)
let workDone = 0

/** the start of a request head split across reads, kept on its socket only while it waits */
const kPending = Symbol('pending')

// Listeners shared by every socket, and nothing kept per connection
// between requests: what an idle connection costs here (the net.Socket,
// its handle, libuv's and malloc's share) is what any node server pays.
/**
 * @this {net.Socket & { [kPending]?: Buffer }}
 * @param {Buffer} chunk
 */
function onData (chunk) {
  const pending = this[kPending]
  const data = pending === undefined ? chunk : Buffer.concat([pending, chunk])
  let count = 0
  let from = 0
  for (let end = data.indexOf(END, from); end !== -1; end = data.indexOf(END, from)) {
    count++
    for (let i = 0; i < FLOOR_WORK; i++) workDone = (workDone * 31 + i) | 0
    from = end + END.length
  }
  if (from < data.length) this[kPending] = data.subarray(from)
  else if (pending !== undefined) delete this[kPending]
  if (count === 1) this.write(answer)
  else if (count > 1) this.write(Buffer.concat(Array(count).fill(answer)))
}

/** @this {net.Socket} */
function onError () { this.destroy() }

net.createServer({ noDelay: true }, (socket) => {
  socket.on('data', onData)
  socket.on('error', onError)
}).listen(port, host, () => ready('net-canned'))
