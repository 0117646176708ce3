// The floor of the idle profile, not an HTTP server: raw node:net, which
// answers every request head in a read (each CRLFCRLF) with the bytes
// node:http sends for `hello` and keeps the connection open. Its listeners
// are shared by every socket and it keeps nothing per connection, so what
// a connection costs here (the net.Socket, its handle, libuv's and
// malloc's share) is what any Node server pays for one; the rest of a
// target's bytes per connection is its own. It parses nothing (a head
// split across reads at its last bytes is not answered) and serves only
// `hello`: it is the idle profile's reference, not in targets/index.js.

import net from 'node:net'
import { scenarioId, port, host, unsupported, ready } from './common.js'

if (scenarioId !== 'hello') unsupported('node:net answers hello only')

const body = JSON.stringify({ hello: 'world' })
const answer = 'HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\n' +
  `content-length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`

/**
 * @this {net.Socket}
 * @param {Buffer} chunk
 */
function onData (chunk) {
  for (let at = chunk.indexOf('\r\n\r\n'); at !== -1; at = chunk.indexOf('\r\n\r\n', at + 4)) this.write(answer)
}

function ignore () {}

net.createServer({ noDelay: true }, (socket) => {
  socket.on('data', onData)
  socket.on('error', ignore)
}).listen(port, host, () => ready('node-net'))
