// Request bodies that arrive late, never, or through a preParsing hook that
// hands the request stream back unchanged: every case is answered (or
// aborted) and the process stays up.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { Readable, Transform, pipeline } from 'node:stream'
import zlib from 'node:zlib'
import { setTimeout as sleep } from 'node:timers/promises'
import { once } from 'node:events'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'
import { exchange, responses } from '../wire/util.js'

/** @type {Error[]} */
const uncaught = []
process.on('uncaughtException', (err) => { uncaught.push(err) })

/** @param {() => boolean} cond */
async function waitFor (cond, ms = 5000) {
  for (let waited = 0; !cond() && waited < ms; waited += 10) await sleep(10)
  return cond()
}

const BIG = JSON.stringify({ a: 'x'.repeat(100_000) }) // over the 64 KiB an engine buffers unasked

/**
 * @param {string} path
 * @param {string} extra  more header lines
 * @param {string} body   what is sent of a BIG body
 */
function head (path, extra, body) {
  return `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BIG.length}\r\n${extra}\r\n${body}`
}

/** The head of head() on HTTP/2 */
const h2Head = { 'content-type': 'application/json', 'content-length': String(BIG.length) }

eachMode('preParsing that returns the request stream', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const state = { aborts: 0, handlers: 0, seen: 0 }
  before(async () => {
    s = await setup(mode, (app) => {
      const handler = (/** @type {any} */ req) => { state.handlers++; return { length: req.body.a.length } }
      const onRequestAbort = () => { state.aborts++ }
      // counts the requests the server has begun, so a test leaves only once its request is there
      const onRequest = () => { state.seen++ }
      app.post('/sync', { preParsing: (_req, _reply, payload) => payload, onRequest, onRequestAbort }, handler)
      app.post('/async', { preParsing: async (_req, _reply, payload) => payload, onRequest, onRequestAbort }, handler)
      // holds the stream, with nobody listening to it, while the client leaves
      app.post('/slow', {
        preParsing: async (_req, _reply, payload) => { await sleep(300); return payload },
        onRequest,
        onRequestAbort
      }, handler)
      app.post('/plain', { onRequest, onRequestAbort }, handler)
      // the body is replaced, so nobody reads what the client sent; the
      // handler never answers
      app.post('/replaced-never', {
        preParsing: () => Readable.from([Buffer.from('{"a":"x"}')])
      }, (_req, reply) => reply)
      app.get('/', () => 'alive')
    }, { requestTimeout: 1000 })
  })
  after(() => s.close())

  for (const path of ['/sync', '/async', '/slow']) {
    test(`${path}: a body over 64 KiB with Connection: close flows through`, async () => {
      // an HTTP/2 request may not carry Connection (RFC 9113 §8.2.2): the body alone
      const connection = mode === 'h2' ? {} : { connection: 'close' }
      const res = await s.request({ method: 'POST', url: path, headers: { 'content-type': 'application/json', ...connection }, payload: BIG })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), { length: 100_000 })
    })
  }

  test('a handler that never answers a request whose body nobody read: 503, not a 408 blaming the client', async () => {
    const res = await s.request({ method: 'POST', url: '/replaced-never', headers: { 'content-type': 'application/json' }, payload: BIG })
    assert.equal(res.statusCode, 503)
    assert.equal(res.json().code, 'HP_ERR_HANDLER_TIMEOUT')
  })

  if (mode === 'inject') return

  for (const path of ['/sync', '/slow', '/plain']) {
    test(`${path}: the client leaves mid-body: the request is aborted once, the process stays up`, async () => {
      const aborts = state.aborts
      const handlers = state.handlers
      const seen = state.seen
      // HTTP/1.1: the client closes its connection; HTTP/2: it resets the stream
      let leave
      if (s.h2 !== null) leave = s.h2.start({ method: 'POST', url: path, headers: h2Head, body: BIG.slice(0, 1000) }).leave
      else {
        const socket = net.connect(s.port, '127.0.0.1')
        socket.on('error', () => {})
        socket.write(head(path, '', BIG.slice(0, 1000)))
        leave = () => socket.destroy()
      }
      // leave once the server has the request (on a loaded machine that can take a while)
      assert.ok(await waitFor(() => state.seen === seen + 1), 'the request reached the server')
      leave()
      assert.ok(await waitFor(() => state.aborts === aborts + 1), 'onRequestAbort ran')
      await sleep(400) // past /slow's hook
      assert.equal(state.aborts, aborts + 1)
      assert.equal(state.handlers, handlers)
      assert.deepEqual(uncaught, [])
      assert.equal((await s.request('/')).body, 'alive')
    })

    test(`${path}: a body that stops coming gets 408 and the connection closes${mode === 'h2' ? ' (on h2, the stream)' : ''}`, async () => {
      if (s.h2 !== null) {
        // HTTP/2: the 408 ends the stream, and the session goes on
        const { stream } = s.h2.start({ method: 'POST', url: path, headers: h2Head, body: BIG.slice(0, 1000) })
        let body = ''
        stream.on('data', (c) => { body += c })
        const [fields] = await once(stream, 'response')
        await once(stream, 'close')
        assert.equal(fields[':status'], 408)
        assert.match(body, /"code":"HP_ERR_REQUEST_TIMEOUT"/)
        assert.deepEqual(uncaught, [])
        assert.equal((await s.request('/')).body, 'alive')
        return
      }
      const { text, closedByServer } = await exchange(s.port, head(path, '', BIG.slice(0, 1000)))
      assert.ok(closedByServer)
      assert.match(text, /^HTTP\/1\.1 408 /)
      assert.match(text, /"code":"HP_ERR_REQUEST_TIMEOUT"/)
      assert.deepEqual(uncaught, [])
      assert.equal((await s.request('/')).body, 'alive')
    })
  }
}, [...SOCKET_MODES, 'inject', 'h2'])

// Off h2: the next request on the same HTTP/1.1 connection after a body, written
// by hand; HTTP/2 has no connection reuse to get wrong (each request is a stream).
eachMode('keep-alive after a body', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      const handler = (/** @type {any} */ req) => ({ length: req.body.a.length })
      // the body is all buffered before anyone asks for it
      app.post('/late', { onRequest: async () => { await sleep(50) } }, handler)
      app.post('/pass', { preParsing: (_req, _reply, payload) => payload }, handler)
      app.post('/replaced', {
        preParsing: (_req, _reply, payload) => payload.pipe(new Transform({ transform (chunk, _e, cb) { cb(null, chunk) } }))
      }, handler)
      // the 413 for an unread body becomes the fallback 500
      app.post('/fallback', { onSend: () => { throw new Error('onSend failed') } }, handler)
      app.get('/', () => 'alive')
    }, { bodyLimit: 200_000 })
  })
  after(() => s.close())

  // bodies around the engines' high-water marks (16 KiB for a stream, 64 KiB buffered)
  for (const [path, size] of /** @type {const} */ ([['/late', 70_000], ['/pass', 20_000], ['/pass', 70_000], ['/replaced', 50_000]])) {
    test(`${path}, ${size} bytes: the next request on the connection is answered`, async () => {
      const body = JSON.stringify({ a: 'x'.repeat(size) })
      const first = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
      const { text, closedByServer } = await exchange(s.port, [first, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], { gap: 100 })
      assert.ok(closedByServer)
      const all = responses(text)
      assert.deepEqual(all.map((r) => r.status), [200, 200], text.slice(0, 300))
      assert.deepEqual(JSON.parse(all[0].body), { length: size })
      assert.equal(all[1].body, 'alive')
    })
  }

  test('a body over the limit answered by the fallback 500 still ends the connection', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(300_000) })
    const head = `POST /fallback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
    const chunk = (/** @type {string} */ c) => c.length.toString(16) + '\r\n' + c + '\r\n'
    const { text, closedByServer } = await exchange(s.port, [head + chunk(body.slice(0, 210_000)), 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'], { gap: 200 })
    assert.ok(closedByServer)
    const all = responses(text)
    assert.equal(all.length, 1, text.slice(0, 300))
    assert.equal(all[0].status, 500)
    assert.match(all[0].head, /\r\nconnection: close/i)
  })
}, SOCKET_MODES)

eachMode('a preParsing hook that hands back a paused stream', (mode) => {
  test('the body is read from it all the same (a decompressor made paused, as @fastify/compress does)', async () => {
    const s = await setup(mode, (app) => {
      app.addHook('preParsing', (_req, _reply, payload, done) => {
        const gunzip = zlib.createGunzip()
        gunzip.pause()
        pipeline(payload, gunzip, () => {})
        done(null, gunzip)
      })
      app.post('/', (/** @type {any} */ req) => req.body)
    })
    const res = await s.request({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: zlib.gzipSync(JSON.stringify({ name: 'x' })) })
    await s.close()
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { name: 'x' })
  })
})
