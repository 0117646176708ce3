// A chunked body that breaks after the head was handed to the core: the one
// answer the client gets names the framing error, not a client abort.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import hotpath from '../../lib/index.js'

/**
 * Sends raw bytes, half-closes after `endAfterMs`, resolves with every byte
 * the server wrote before closing.
 * @param {number} port
 * @param {string} bytes
 */
function exchange (port, bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let out = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => { out += d })
    socket.on('error', reject)
    socket.on('close', () => resolve(out))
    socket.write(bytes)
    // the server closes after its 400; this only bounds a server that would not
    setTimeout(() => socket.end(), 2000).unref()
  })
}

test('a bad chunk size mid-body answers 400 HP_ERR_BAD_REQUEST once, and the handler never runs', async (t) => {
  const app = hotpath({ engine: 'wire' })
  let handled = 0
  app.post('/', () => { handled++; return { ok: true } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  const { port } = /** @type {import('node:net').AddressInfo} */ (app.server.address())

  const out = await exchange(port,
    'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '5\r\n{"a":\r\nzz\r\n')

  assert.equal(out.split('HTTP/1.1 ').length - 1, 1, 'exactly one response')
  assert.match(out, /^HTTP\/1\.1 400 /)
  assert.match(out, /\r\nConnection: close\r\n/i)
  const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))
  assert.equal(body.statusCode, 400)
  assert.equal(body.code, 'HP_ERR_BAD_REQUEST')
  assert.match(body.message, /chunk size/i)
  assert.equal(handled, 0)
})
