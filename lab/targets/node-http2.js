// Raw node:http2, cleartext with prior knowledge (h2c): the baseline of the
// HTTP/2 scenarios, as node-http.js is of the HTTP/1.1 ones. The same bytes
// and headers as node-http.js's hello, through the stream API (no
// compatibility layer: what a careful hand-rolled h2 server uses).

import http2 from 'node:http2'
import { kind, port, host, unsupported, ready } from './common.js'

const JSON_CT = 'application/json; charset=utf-8'

let handler
switch (kind) {
  case 'hello': {
    const body = JSON.stringify({ hello: 'world' })
    handler = (stream) => {
      stream.respond({ ':status': 200, 'content-type': JSON_CT, 'content-length': Buffer.byteLength(body) })
      stream.end(body)
    }
    break
  }
  default: unsupported()
}

const server = http2.createServer()
server.on('stream', handler)
// a stream reset by the client mid-answer is the client's business, not a crash
server.on('sessionError', () => {})
server.listen(port, host, () => ready('node-http2'))
