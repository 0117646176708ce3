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

net.createServer({ noDelay: true }, (socket) => {
  /** @type {Buffer | null} the start of a request split across reads */
  let pending = null
  socket.on('data', (chunk) => {
    const data = pending === null ? chunk : Buffer.concat([pending, chunk])
    let count = 0
    let from = 0
    for (let end = data.indexOf(END, from); end !== -1; end = data.indexOf(END, from)) {
      count++
      from = end + END.length
    }
    pending = from < data.length ? data.subarray(from) : null
    if (count === 1) socket.write(answer)
    else if (count > 1) socket.write(Buffer.concat(Array(count).fill(answer)))
  })
  socket.on('error', () => socket.destroy())
}).listen(port, host, () => ready('net-canned'))
