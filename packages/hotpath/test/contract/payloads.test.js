import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Readable, Transform } from 'node:stream'
import http from 'node:http'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'

/** A Response of another class, known by its tag, as another fetch implementation makes them. */
class ForeignResponse {
  /** @param {Response} inner */
  constructor (inner) { this.inner = inner }
  get [Symbol.toStringTag] () { return 'Response' }
  get status () { return this.inner.status }
  get headers () { return this.inner.headers }
  get body () { return this.inner.body }
  get bodyUsed () { return this.inner.bodyUsed }
}

eachMode('payloads and reply', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {() => void} */
  let streamEnded = () => {}
  const drained = new Promise((resolve) => { streamEnded = () => resolve(true) })
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/buffer', () => Buffer.from([1, 2, 3]))
      app.get('/u8', () => new Uint8Array([104, 105]))
      app.get('/204-length-0', (_req, reply) => reply.code(204).header('Content-Length', '0').send())
      app.get('/204-length-5', (_req, reply) => reply.code(204).header('Content-Length', '5').send())
      app.get('/204-object', (_req, reply) => reply.code(204).send({ dropped: true }))
      app.get('/204-typed', (_req, reply) => reply.code(204).type('text/csv').send('a,b'))
      app.get('/204-stream', (_req, reply) => {
        const stream = new Readable({ read () { this.push('unread'); this.push(null) } })
        stream.on('end', () => streamEnded())
        reply.code(204).send(stream)
      })
      app.get('/null', () => null)
      app.get('/array', () => [1, 'two'])
      app.get('/number', (req, reply) => reply.send(42))
      // JSON.stringify gives undefined for these: not a body anyone meant to send.
      app.get('/symbol', () => Symbol('x'))
      app.get('/function', () => () => {})
      app.get('/to-json-undefined', () => ({ toJSON () {} }))
      app.get('/stream', (req, reply) => reply.type('text/csv').send(Readable.from(['a,b\n', '1,2\n'])))
      app.get('/stream-fails-late', () => {
        let sent = false
        return new Readable({
          read () {
            if (!sent) { sent = true; this.push('partial'); return }
            setTimeout(() => this.destroy(new Error('disk gone')), 5)
          }
        })
      })
      app.get('/web-stream', () => new ReadableStream({
        start (c) { c.enqueue(new TextEncoder().encode('web ')); c.enqueue(new TextEncoder().encode('stream')); c.close() }
      }))
      app.get('/response', () => new Response(JSON.stringify({ via: 'Response' }), { status: 202, headers: { 'content-type': 'application/json', 'x-from': 'response' } }))
      app.get('/response-empty', () => new Response(null, { status: 204 }))
      // another fetch implementation's Response (the undici package has its own class)
      app.get('/foreign-response', () => new ForeignResponse(new Response(JSON.stringify({ via: 'foreign' }), { status: 203, headers: { 'content-type': 'application/json' } })))
      app.get('/redirect', (req, reply) => reply.redirect('/target'))
      app.get('/redirect-301', (req, reply) => reply.redirect('/target', 301))
      app.get('/headers', (req, reply) => reply.code(201).headers({ 'x-a': '1', 'X-B': 2 }).header('set-cookie', 'a=1').header('set-cookie', 'b=2').type('application/vnd.x+json').send({ ok: true }))
      app.get('/hijack', (req, reply) => {
        reply.hijack()
        // as in Fastify: after hijack(), user code answers through reply.raw
        setTimeout(() => {
          reply.raw.writeHead(200, { 'content-type': 'text/plain' })
          reply.raw.write('hi')
          reply.raw.end('jacked')
        }, 5)
      })
      app.post('/pre-parsing', {
        preParsing: (req, reply, payload) => payload.pipe(new Transform({ transform (chunk, _e, cb) { cb(null, chunk.toString().toUpperCase()) } }))
      }, (req) => ({ body: req.body }))
    })
  })
  after(() => s.close())

  test('Buffer and Uint8Array → application/octet-stream', async () => {
    const res = await s.request('/buffer')
    assert.equal(res.headers['content-type'], 'application/octet-stream')
    assert.equal(String(res.headers['content-length']), '3')
    assert.equal((await s.request('/u8')).body, 'hi')
  })

  test('null → empty body; arrays and numbers → JSON', async () => {
    const res = await s.request('/null')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, '')
    assert.equal(String(res.headers['content-length']), '0')
    assert.deepEqual((await s.request('/array')).json(), [1, 'two'])
    assert.equal((await s.request('/number')).body, '42')
  })

  test('a payload JSON cannot represent (symbol, function, toJSON → undefined) → 500 HP_ERR_SERIALIZATION, not an empty 200', async () => {
    for (const url of ['/symbol', '/function', '/to-json-undefined']) {
      const res = await s.request(url)
      assert.equal(res.statusCode, 500, url)
      assert.equal(res.json().code, 'HP_ERR_SERIALIZATION', url)
    }
  })

  test('Node and web streams are streamed', async () => {
    const res = await s.request('/stream')
    assert.equal(res.headers['content-type'], 'text/csv')
    assert.equal(res.body, 'a,b\n1,2\n')
    assert.equal((await s.request('/web-stream')).body, 'web stream')
  })

  test('a web Response gives status, headers and body', async () => {
    const res = await s.request('/response')
    assert.equal(res.statusCode, 202)
    assert.equal(res.headers['x-from'], 'response')
    assert.equal(res.headers['content-type'], 'application/json')
    assert.deepEqual(res.json(), { via: 'Response' })
    assert.equal((await s.request('/response-empty')).statusCode, 204)
  })

  test('a 204 keeps a Content-Length: 0 the route set, and drops any other length', async () => {
    const zero = await s.request('/204-length-0')
    const five = await s.request('/204-length-5')
    assert.equal(zero.statusCode, 204)
    // the h2 engine sends none: HTTP/2 has no use for it, and a 204 must
    // not carry one (RFC 9110 §8.6)
    assert.equal(zero.headers['content-length'], mode === 'h2' ? undefined : '0')
    assert.equal(five.statusCode, 204)
    assert.equal(five.headers['content-length'], undefined)
  })

  test("another implementation's Response is sent as a Response, not as JSON", async () => {
    const res = await s.request('/foreign-response')
    assert.equal(res.statusCode, 203)
    assert.deepEqual(res.json(), { via: 'foreign' })
  })

  test('a 204 sent with a payload has no body, Content-Type or Content-Length; a stream is drained', async () => {
    for (const url of ['/204-object', '/204-typed', '/204-stream']) {
      const res = await s.request(url)
      assert.equal(res.statusCode, 204, url)
      assert.equal(res.body, '', url)
      assert.equal(res.headers['content-type'], undefined, url)
      assert.equal(res.headers['content-length'], undefined, url)
    }
    assert.equal(await drained, true)
  })

  test('redirect', async () => {
    const a = await s.request('/redirect')
    assert.equal(a.statusCode, 302)
    assert.equal(a.headers.location, '/target')
    assert.equal((await s.request('/redirect-301')).statusCode, 301)
  })

  test('code, headers, set-cookie lists and type', async () => {
    const res = await s.request('/headers')
    assert.equal(res.statusCode, 201)
    assert.equal(res.headers['x-a'], '1')
    assert.equal(res.headers['x-b'], '2')
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2'])
    assert.equal(res.headers['content-type'], 'application/vnd.x+json')
    assert.deepEqual(res.json(), { ok: true })
  })

  test('preParsing may replace the body stream', async () => {
    const res = await s.request({ method: 'POST', url: '/pre-parsing', headers: { 'content-type': 'text/plain' }, payload: 'shout' })
    assert.deepEqual(res.json(), { body: 'SHOUT' })
  })

  if (SOCKET_MODES.includes(mode)) {
    test('a stream failing after its first bytes ends the connection; the server stays up', async () => {
      const outcome = await new Promise((resolve) => {
        const req = http.get({ host: '127.0.0.1', port: s.port, path: '/stream-fails-late', agent: false }, (res) => {
          let data = ''
          res.on('data', (c) => { data += c })
          res.on('end', () => resolve({ complete: res.complete, data }))
          res.on('error', () => resolve({ complete: false, data }))
          res.on('aborted', () => resolve({ complete: false, data }))
        })
        req.on('error', () => resolve({ complete: false, data: '' }))
      })
      assert.equal(/** @type {any} */ (outcome).complete, false)
      assert.equal((await s.request('/null')).statusCode, 200)
    })
  }

  if (mode === 'h2') {
    test('a stream failing after its first bytes resets its HTTP/2 stream; the session goes on', async () => {
      const outcome = await s.request('/stream-fails-late').then(() => 0, (/** @type {any} */ err) => err.rstCode)
      assert.notEqual(outcome, 0, 'the stream was reset with an error code')
      assert.equal((await s.request('/null')).statusCode, 200)
    })
  }

  test('hijack leaves the response to user code, written through reply.raw', async () => {
    const res = await s.request('/hijack')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'text/plain')
    assert.equal(res.body, 'hijacked')
  })
})

eachMode('request fields', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let proxied
  /** @param {any} app */
  const build = (app) => {
    app.get('/info', (/** @type {any} */ req) => ({ ip: req.ip, ips: req.ips, hostname: req.hostname, protocol: req.protocol, id: req.id, method: req.method, routeUrl: req.routeOptions.url }))
  }
  before(async () => {
    s = await setup(mode, build)
    proxied = await setup(mode, build, { trustProxy: ['127.0.0.1', '10.0.0.0/8'] })
  })
  after(async () => { await s.close(); await proxied.close() })

  test('ip, hostname, protocol and id', async () => {
    const res = (await s.request({ url: '/info', headers: { host: 'example.com:8080', 'x-forwarded-for': '1.2.3.4' } })).json()
    assert.equal(res.ip, '127.0.0.1')
    // without trustProxy, X-Forwarded-For is anyone's word: not an address
    assert.deepEqual(res.ips, ['127.0.0.1'])
    assert.equal(res.hostname, 'example.com')
    assert.equal(res.protocol, 'http')
    assert.equal(typeof res.id, 'string')
    assert.equal(res.routeUrl, '/info')
    const second = (await s.request('/info')).json()
    assert.notEqual(second.id, res.id)
  })

  test('trustProxy: X-Forwarded-* from trusted hops only', async () => {
    const res = (await proxied.request({ url: '/info', headers: { 'x-forwarded-for': '9.9.9.9, 10.1.2.3', 'x-forwarded-host': 'api.example.com', 'x-forwarded-proto': 'https' } })).json()
    assert.equal(res.ip, '9.9.9.9')
    assert.equal(res.hostname, 'api.example.com')
    assert.equal(res.protocol, 'https')
    const spoofed = (await proxied.request({ url: '/info', headers: { 'x-forwarded-for': '9.9.9.9, 8.8.8.8' } })).json()
    assert.equal(spoofed.ip, '8.8.8.8')
    // closest first, up to the first hop no trusted proxy vouches for
    assert.deepEqual(res.ips, ['127.0.0.1', '10.1.2.3', '9.9.9.9'])
    assert.deepEqual(spoofed.ips, ['127.0.0.1', '8.8.8.8'])
  })
})
