// Upgrades as on node:http, on both engines: a request with
// `Connection: upgrade` and `Upgrade` goes to app.server's 'upgrade'
// listeners with the socket and the bytes read past its head, so ws's
// handleUpgrade works unmodified; with no listener it goes to the routes.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { WebSocketServer, WebSocket } from 'ws'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'
import { exchange, responses } from '../wire/util.js'

// Off h2 (both suites here): 'upgrade' is HTTP/1.1's (RFC 9113 §8.6: HTTP/2
// has no Upgrade).
eachMode('WebSocket upgrades through app.server', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const wss = new WebSocketServer({ noServer: true })
  wss.on('connection', (ws, req) => {
    ws.on('message', (data) => ws.send(`echo ${req.url} ${data}`))
  })
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/plain', () => ({ plain: true }))
      app.server.on('upgrade', (/** @type {any} */ req, /** @type {any} */ socket, /** @type {Buffer} */ head) => {
        if (req.url.startsWith('/ws')) wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
      })
    })
  })
  after(async () => {
    for (const client of wss.clients) client.terminate()
    wss.close()
    await s.close()
  })

  test("ws's handleUpgrade takes the request, the socket and the head: messages go both ways", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?room=1`)
    await once(ws, 'open')
    ws.send('hello')
    const [data] = await once(ws, 'message')
    assert.equal(String(data), 'echo /ws?room=1 hello')
    ws.send('again')
    const [second] = await once(ws, 'message')
    assert.equal(String(second), 'echo /ws?room=1 again')
    ws.close()
    await once(ws, 'close')
  })

  test('bytes sent right after the upgrade head reach the listener as `head`', async () => {
    /** @type {Buffer[]} */
    const heads = []
    const listener = (/** @type {any} */ req, /** @type {any} */ socket, /** @type {Buffer} */ head) => {
      if (!req.url.startsWith('/raw')) return
      heads.push(head)
      socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: raw\r\n\r\n')
    }
    s.app.server.on('upgrade', listener)
    try {
      const { text } = await exchange(s.port, 'GET /raw HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: raw\r\n\r\nearly bytes')
      assert.match(text, /^HTTP\/1\.1 101 /)
      assert.equal(Buffer.concat(heads).toString(), 'early bytes')
    } finally {
      s.app.server.removeListener('upgrade', listener)
    }
  })

  test('an upgrade without Host still goes to the listener, as node:http hands it over before its Host check', async () => {
    /** @type {string[]} */
    const seen = []
    const listener = (/** @type {any} */ req, /** @type {any} */ socket) => {
      if (req.url !== '/nohost') return
      seen.push(String(req.headers.host))
      socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: raw\r\n\r\n')
    }
    s.app.server.on('upgrade', listener)
    try {
      const { text } = await exchange(s.port, 'GET /nohost HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: raw\r\n\r\n')
      assert.match(text, /^HTTP\/1\.1 101 /)
      assert.deepEqual(seen, ['undefined'])
    } finally {
      s.app.server.removeListener('upgrade', listener)
    }
  })

  test('the routes still answer plain requests beside the upgrade listener', async () => {
    const res = await s.request('/plain')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { plain: true })
  })
}, SOCKET_MODES)

eachMode('an upgrade request with no upgrade listener', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/ws', (_req, reply) => reply.code(426).header('upgrade', 'websocket').send({ message: 'use a WebSocket client' }))
    })
  })
  after(() => s.close())

  test('goes to the routes like any request', async () => {
    const { text } = await exchange(s.port, 'GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nGET /none HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const all = responses(text)
    assert.equal(all[0].status, 426)
    assert.match(all[0].head, /\r\nupgrade: websocket/i)
    assert.deepEqual(JSON.parse(all[0].body), { message: 'use a WebSocket client' })
  })

  test('without Host it is refused 400, as any HTTP/1.1 request without Host (RFC 9112 §3.2)', async () => {
    const { text } = await exchange(s.port, 'GET /ws HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n')
    const all = responses(text)
    assert.equal(all.length, 1)
    assert.equal(all[0].status, 400)
    assert.match(JSON.parse(all[0].body).message, /Missing Host header/)
  })
}, SOCKET_MODES)

test('wire: an upgrade listener that throws costs its connection, not the process', async (t) => {
  const s = await setup('wire', (app) => {
    app.get('/', () => 'alive')
    app.server.on('upgrade', () => { throw new Error('listener bug') })
  })
  t.after(() => s.close())
  const socket = net.connect(s.port, '127.0.0.1')
  socket.on('error', () => {})
  await once(socket, 'connect')
  let got = ''
  socket.on('data', (d) => { got += d })
  socket.write('GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n')
  await once(socket, 'close')
  assert.equal(got, '', 'the socket was the listener\'s: the routes did not answer it')
  assert.equal((await s.request('/')).body, 'alive')
})
