// Two hello-world servers for a quick pinned side-by-side check of the wire
// engine against raw node:http (not a benchmark of record: the lab is).
//   taskset -c 0 node hello-servers.js wire 3000 &
//   taskset -c 1 wrk -t1 -c100 -d5s http://127.0.0.1:3000/
import http from 'node:http'
import { createWireEngine } from '../../lib/engines/wire/index.js'

const [kind = 'wire', port = '3000'] = process.argv.slice(2)
const body = JSON.stringify({ hello: 'world' })
if (kind === 'node') {
  http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }).listen(Number(port), '127.0.0.1')
} else {
  const engine = createWireEngine({})
  const headers = { 'content-type': 'application/json; charset=utf-8' }
  engine.setHandler((req, res) => res.respond(200, headers, body))
  await engine.listen({ port: Number(port), host: '127.0.0.1' })
}
