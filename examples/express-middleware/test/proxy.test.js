// http-proxy-middleware at /proxy, forwarding to a plain node:http server:
// a request, a large body echoed back, both directions streamed, a
// WebSocket through the proxy, and an upstream that dies.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import WebSocket from 'ws'
import { eachMode, setup, sleep, SOCKET_MODES } from './helpers.js'
import { startUpstream, DRIP_MS } from '../upstream.js'

/** @param {Buffer} buf */
const sha256 = (buf) => createHash('sha256').update(buf).digest('hex')

eachMode('http-proxy-middleware', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Awaited<ReturnType<typeof startUpstream>>} */
  let upstream
  before(async () => {
    upstream = await startUpstream()
    s = await setup(mode, { upstream: upstream.url })
  })
  after(async () => {
    await s.close()
    await upstream.close()
  })

  test('a GET is forwarded with the mount path cut off, and the upstream reply comes back', async () => {
    const res = await s.request('/proxy/hello?x=1')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-upstream'], 'yes')
    const body = res.json()
    assert.equal(body.from, 'upstream')
    assert.equal(body.method, 'GET')
    assert.equal(body.url, '/hello?x=1')
  })

  test('a large POST body is echoed back whole', async () => {
    const data = randomBytes(2 * 1024 * 1024)
    const res = await s.request({ method: 'POST', url: '/proxy/echo', headers: { 'content-type': 'application/octet-stream' }, payload: data, timeout: 10_000 })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/octet-stream')
    assert.equal(res.bytes.length, data.length)
    assert.equal(sha256(res.bytes), sha256(data))
  })

  test('an upstream that dies mid-request: the gateway error of http-proxy-middleware (504, as on Express)', async () => {
    const res = await s.request('/proxy/die')
    assert.equal(res.statusCode, 504)
    assert.match(res.body, /^Error occurred while trying to proxy: /)
  })
})

eachMode('http-proxy-middleware over sockets', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Awaited<ReturnType<typeof startUpstream>>} */
  let upstream
  before(async () => {
    upstream = await startUpstream()
    s = await setup(mode, { upstream: upstream.url })
  })
  after(async () => {
    await s.close()
    await upstream.close()
  })

  test('the reply is streamed: its first chunk arrives long before its end', async () => {
    const started = Date.now()
    /** @type {number[]} */
    const arrivals = []
    let text = ''
    await new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/proxy/drip', agent: false, timeout: 5000 }, (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk) => { arrivals.push(Date.now() - started); text += chunk })
        res.on('end', resolve)
        res.on('error', reject)
      })
      req.on('timeout', () => req.destroy(new Error('no answer in 5 s')))
      req.on('error', reject)
    })
    assert.equal(text, 'first\nsecond\n')
    assert.ok(arrivals.length >= 2, `the reply came in ${arrivals.length} piece(s)`)
    assert.ok(arrivals[0] < DRIP_MS / 2, `the first chunk came after ${arrivals[0]} ms, the upstream sent it at once`)
  })

  test('the request body is streamed: the upstream gets its first bytes before the client sends the last', async () => {
    const body = await new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: s.port, method: 'POST', path: '/proxy/timing', agent: false, timeout: 5000, headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' } }, (res) => {
        /** @type {Buffer[]} */
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())))
        res.on('error', reject)
      })
      req.on('timeout', () => req.destroy(new Error('no answer in 5 s')))
      req.on('error', reject)
      req.write(randomBytes(1000))
      setTimeout(() => req.end(randomBytes(1000)), 300)
    })
    assert.equal(body.bytes, 2000)
    assert.ok(body.lastByteMs - body.firstByteMs >= 200, `the upstream got the first byte ${body.firstByteMs} ms and the last ${body.lastByteMs} ms after the head`)
  })

  test('a WebSocket through the proxy (the upgrade forwarded) echoes messages', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/proxy/ws`, { handshakeTimeout: 3000 })
    /** @type {string[]} */
    const messages = []
    ws.on('message', (m) => messages.push(String(m)))
    const bounded = setTimeout(() => ws.terminate(), 5000)
    try {
      await once(ws, 'open')
      ws.send('ping')
      for (let i = 0; i < 100 && messages.length < 2; i++) await sleep(20)
      assert.deepEqual(messages, ['hello /ws', 'echo: ping'])
    } finally {
      clearTimeout(bounded)
      ws.close()
    }
  })

  test('an upstream that is gone: 504 from http-proxy-middleware (as on Express), and the server keeps serving', async () => {
    await upstream.close()
    const res = await s.request('/proxy/hello')
    assert.equal(res.statusCode, 504)
    assert.match(res.body, /^Error occurred while trying to proxy: /)
    assert.equal((await s.request('/health')).statusCode, 200)
  })
}, SOCKET_MODES)
