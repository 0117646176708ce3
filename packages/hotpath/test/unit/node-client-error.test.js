// node:http answers malformed requests itself with an empty body; the node
// engine answers them as wire does, with a JSON body saying what was wrong.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import hotpath from '../../lib/index.js'

/** @type {any} */
let app
let port = 0
let runs = 0
before(async () => {
  app = hotpath({ engine: 'node', logger: false, maxHeaderSize: 4096 })
  app.post('/', () => { runs++; return 'ran' })
  app.get('/', () => { runs++; return 'ran' })
  port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port)
})
after(() => app.close())

/** @param {string} bytes */
function send (bytes) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let data = ''
    socket.on('data', (c) => { data += c.toString('latin1') })
    socket.on('error', () => {})
    socket.on('close', () => { clearTimeout(timer); resolve({ data, closed: true }) })
    const timer = setTimeout(() => { socket.destroy(); resolve({ data, closed: false }) }, 2000)
    socket.write(bytes)
  })
}

/** @param {string} data */
function parse (data) {
  const end = data.indexOf('\r\n\r\n')
  return { status: Number(data.slice(9, 12)), head: data.slice(0, end + 2), body: JSON.parse(data.slice(end + 4)) }
}

for (const [name, bytes, status, code] of [
  ['Content-Length with Transfer-Encoding', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'HP_ERR_BAD_REQUEST'],
  ['obs-fold', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n', 400, 'HP_ERR_BAD_REQUEST'],
  ['headers over the limit', `GET / HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(8000)}\r\n\r\n`, 431, 'HP_ERR_HEADERS_TOO_LARGE']
]) {
  test(`${name}: ${status} with a JSON body, connection closed, no handler`, async () => {
    const before = runs
    const r = /** @type {{ data: string, closed: boolean }} */ (await send(/** @type {string} */ (bytes)))
    assert.equal(r.closed, true)
    const { status: got, head, body } = parse(r.data)
    assert.equal(got, status)
    assert.match(head, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i)
    assert.match(head, /\r\nconnection: close\r\n/i)
    assert.equal(body.statusCode, status)
    assert.equal(body.code, code)
    assert.equal(typeof body.message, 'string')
    assert.equal(runs, before)
  })
}
