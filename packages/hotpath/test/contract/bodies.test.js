import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { eachMode, setup, rawRequest, SOCKET_MODES } from '../helpers/engines.js'

eachMode('bodies', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.post('/echo', (req) => ({ body: req.body, type: typeof req.body }))
      app.post('/small', { bodyLimit: 10 }, (req) => ({ body: req.body }))
      app.post('/proto', (req) => ({ polluted: /** @type {any} */ ({}).polluted === undefined ? 'no' : 'yes', keys: Object.keys(req.body ?? {}) }))
      app.register(async (child) => {
        child.addContentTypeParser('application/csv', { parseAs: 'string' }, (req, body) => body.split(','))
        child.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: 4 }, async (req, body) => ({ bytes: body.length }))
        child.post('/custom', (req) => ({ body: req.body }))
      })
      app.post('/no-custom', (req) => ({ body: req.body }))
    }, { bodyLimit: 1024 })
  })
  after(() => s.close())

  /** @param {string} ct @param {string | Buffer} payload @param {string} [url] */
  const post = (ct, payload, url = '/echo') => s.request({ method: 'POST', url, headers: { 'content-type': ct }, payload })

  test('JSON', async () => {
    const res = await post('application/json', '{"a":[1,2],"b":{"c":null}}')
    assert.deepEqual(res.json(), { body: { a: [1, 2], b: { c: null } }, type: 'object' })
  })

  test('content-type with odd case, spaces and parameters', async () => {
    assert.deepEqual((await post('Application/JSON ; charset=utf-8', '{"a":1}')).json().body, { a: 1 })
    assert.deepEqual((await post('application/json;charset="utf-8"', '{"a":1}')).json().body, { a: 1 })
    assert.equal((await post('application/json garbage', '{"a":1}')).statusCode, 415)
    assert.equal((await post('application/json; =x', '{"a":1}')).statusCode, 415)
  })

  test('prototype poisoning → 400, prototype untouched', async () => {
    for (const body of ['{"__proto__":{"polluted":1}}', '{"a":{"constructor":{"prototype":{"polluted":1}}}}']) {
      const res = await post('application/json', body, '/proto')
      assert.equal(res.statusCode, 400, body)
      assert.equal(res.json().code, 'HP_ERR_PROTO_POISONING')
    }
    assert.equal(/** @type {any} */ ({}).polluted, undefined)
    assert.deepEqual((await post('application/json', '{"constructor":"ok"}', '/proto')).json(), { polluted: 'no', keys: ['constructor'] })
  })

  test('invalid JSON → 400, empty JSON → 400', async () => {
    const bad = await post('application/json', '{"a":')
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().code, 'HP_ERR_INVALID_JSON')
    const empty = await post('application/json', '')
    assert.equal(empty.statusCode, 400)
    assert.equal(empty.json().code, 'HP_ERR_EMPTY_JSON_BODY')
  })

  test('text/plain and urlencoded', async () => {
    assert.deepEqual((await post('text/plain', 'héllo')).json(), { body: 'héllo', type: 'string' })
    assert.deepEqual((await post('application/x-www-form-urlencoded', 'a=1&b=2&b=3&c=%20x')).json().body, { a: '1', b: ['2', '3'], c: ' x' })
  })

  test('urlencoded with too many keys → 413', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&')
    const res = await s.request({ method: 'POST', url: '/small', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: many })
    assert.equal(res.statusCode, 413) // the body limit or the key limit, both 413
    const app2 = await setup(mode, (app) => app.post('/f', (req) => ({ n: Object.keys(/** @type {any} */ (req.body)).length })))
    try {
      const r = await app2.request({ method: 'POST', url: '/f', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: many })
      assert.equal(r.statusCode, 413)
      assert.equal(r.json().code, 'HP_ERR_TOO_MANY_KEYS')
      const q = await app2.request({ method: 'POST', url: '/f?' + many, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' })
      assert.equal(q.statusCode, 200)
    } finally {
      await app2.close()
    }
  })

  test('custom parsers are encapsulated', async () => {
    assert.deepEqual((await post('application/csv', 'a,b', '/custom')).json(), { body: ['a', 'b'] })
    assert.deepEqual((await post('application/octet-stream', Buffer.from([1, 2, 3]), '/custom')).json(), { body: { bytes: 3 } })
    assert.equal((await post('application/octet-stream', Buffer.from([1, 2, 3, 4, 5]), '/custom')).statusCode, 413)
    assert.equal((await post('application/csv', 'a,b', '/no-custom')).statusCode, 415)
  })

  test('unknown or missing content type on a route with a body → 415', async () => {
    const res = await post('application/xml', '<a/>')
    assert.equal(res.statusCode, 415)
    assert.equal(res.json().code, 'HP_ERR_UNSUPPORTED_MEDIA_TYPE')
    const none = await s.request({ method: 'POST', url: '/echo', payload: Buffer.from('abc') })
    assert.equal(none.statusCode, 415)
  })

  test('no body → req.body undefined', async () => {
    assert.deepEqual((await s.request({ method: 'POST', url: '/echo' })).json(), { type: 'undefined' })
  })

  test('over bodyLimit with Content-Length → 413', async () => {
    const res = await post('application/json', JSON.stringify({ x: 'y'.repeat(2000) }))
    assert.equal(res.statusCode, 413)
    assert.equal(res.json().code, 'HP_ERR_BODY_TOO_LARGE')
    assert.equal((await post('application/json', '{"x":"123456"}', '/small')).statusCode, 413)
  })

  if (SOCKET_MODES.includes(mode)) {
    test('over bodyLimit without Content-Length (chunked) → 413 before the body ends', async () => {
      const result = await new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: s.port, method: 'POST', path: '/echo', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, agent: false }, (res) => {
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, sent }))
        })
        let sent = 0
        let stop = false
        req.on('error', (err) => { if (!stop) reject(err) })
        req.on('response', () => { stop = true })
        // Keep sending 256-byte chunks until the answer arrives: the server
        // must answer without waiting for an end that never comes.
        const pump = () => {
          if (stop || sent > 1024 * 1024) return
          sent += 256
          req.write('x'.repeat(256), () => setImmediate(pump))
        }
        pump()
      })
      assert.equal(/** @type {any} */ (result).status, 413)
      assert.equal(/** @type {any} */ (result).connection, 'close')
      assert.ok(/** @type {any} */ (result).sent < 1024 * 1024, 'answered before the client stopped')
    })

    test('declared Content-Length over the limit → 413 without reading the body', async () => {
      const out = await rawRequest(s.port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"a":')
      assert.match(out, /^HTTP\/1\.1 413 /)
      assert.match(out, /connection: close/i)
    })
  }

  // HTTP/2's forms: the 413 ends the stream (reset with NO_ERROR once the
  // answer is out, RFC 9113 §8.1), and the session goes on
  if (mode === 'h2') {
    /**
     * @param {Record<string, string>} headers
     * @returns {Promise<{ status: number, sent: number }>}
     */
    const pumpUntilAnswered = (headers) => new Promise((resolve, reject) => {
      const { stream } = /** @type {import('../helpers/engines.js').H2Client} */ (s.h2).start({ method: 'POST', url: '/echo', headers })
      let sent = 0
      let status = 0
      stream.on('response', (fields) => { status = Number(fields[':status']) })
      stream.resume()
      stream.on('close', () => status === 0 ? reject(new Error(`no answer (code ${stream.rstCode})`)) : resolve({ status, sent }))
      // 256-byte DATA frames until the answer: it must not wait for an end
      const pump = () => {
        if (status !== 0 || stream.closed || stream.destroyed || sent > 1024 * 1024) return
        sent += 256
        stream.write('x'.repeat(256), () => setImmediate(pump))
      }
      pump()
    })

    test('over bodyLimit without Content-Length → 413 before the body ends, on its stream', async () => {
      const result = await pumpUntilAnswered({ 'content-type': 'application/json' })
      assert.equal(result.status, 413)
      assert.ok(result.sent < 1024 * 1024, 'answered before the client stopped')
      assert.equal((await s.request({ method: 'POST', url: '/echo', payload: { a: 1 } })).statusCode, 200)
    })

    test('declared Content-Length over the limit → 413 without reading the body, on its stream', async () => {
      const result = await pumpUntilAnswered({ 'content-type': 'application/json', 'content-length': '100000000' })
      assert.equal(result.status, 413)
      assert.ok(result.sent < 1024 * 1024, 'answered before the client stopped')
      assert.equal((await s.request({ method: 'POST', url: '/echo', payload: { a: 1 } })).statusCode, 200)
    })
  }
})
