import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import { eachMode, setup, rawRequest, SOCKET_MODES } from '../helpers/engines.js'

/**
 * A GET over a socket that keeps the trailer section node:http's client read.
 * @param {number} port
 * @param {string} path
 * @returns {Promise<{ statusCode: number, headers: Record<string, any>, body: string, trailers: Record<string, string> }>}
 */
function get (port, path) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => { body += c })
      res.on('end', () => resolve({ statusCode: /** @type {number} */ (res.statusCode), headers: res.headers, body, trailers: /** @type {any} */ (res.trailers) }))
      res.on('error', reject)
    }).on('error', reject)
  })
}

eachMode('reply.trailer()', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {unknown[]} what the trailer functions were given */
  const payloads = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/text', (req, reply) => {
        reply.trailer('X-Length', (_reply, payload, done) => {
          payloads.push(payload)
          done(null, String(/** @type {string} */ (payload).length))
        })
        return 'some text'
      })
      app.get('/json', (req, reply) => {
        reply.trailer('X-Async', async (_reply, payload) => `after ${payload}`)
        return { a: 1 }
      })
      app.get('/empty', (req, reply) => {
        reply.trailer('X-Done', (_reply, _payload, done) => done(null, 'yes'))
        reply.send()
      })
      app.get('/stream', (req, reply) => {
        reply.trailer('X-Checksum', (_reply, payload, done) => {
          payloads.push(payload)
          setTimeout(() => done(null, 'abc'), 2)
        })
        return Readable.from(['one ', 'two'])
      })
      app.get('/failing', (req, reply) => {
        reply.trailer('X-Fails', (_reply, _payload, done) => done(new Error('no value')))
        reply.trailer('X-Throws', () => { throw new Error('thrown') })
        reply.trailer('X-Rejects', async () => { throw new Error('rejected') })
        reply.trailer('X-Kept', (_reply, _payload, done) => done(null, 'kept'))
        reply.trailer('X-Bad-Value', (_reply, _payload, done) => done(null, 'a\r\nb'))
        return 'body'
      })
      app.get('/removed', (req, reply) => {
        reply.trailer('X-Gone', () => { throw new Error('a removed trailer must not run') })
        reply.removeTrailer('x-gone')
        return { has: reply.hasTrailer('X-Gone') }
      })
      app.get('/removed-during-stream', (req, reply) => {
        reply.trailer('X-Late', () => { throw new Error('removed before the end, it must not run') })
        return Readable.from((function * () {
          reply.removeTrailer('X-Late')
          yield 'streamed'
        })())
      })
      app.get('/refused', (req, reply) => {
        /** @type {string[]} */
        const codes = []
        for (const [name, fn] of [['Content-Length', () => '1'], ['trailer', () => '1'], ['X-Fine', 'not a function']]) {
          try {
            reply.trailer(/** @type {string} */ (name), /** @type {any} */ (fn))
          } catch (err) {
            codes.push(/** @type {any} */ (err).code)
          }
        }
        return { codes, has: reply.hasTrailer('x-fine') }
      })
    })
  })
  after(() => s.close())

  /** @param {string} path */
  const request = async (path) => {
    if (mode === 'inject') return /** @type {any} */ (await s.app.inject({ url: path }))
    if (s.h2 !== null) return s.h2.request({ url: path })
    return get(s.port, path)
  }
  // HTTP/2 has no chunked coding: trailers follow the DATA frames in a
  // HEADERS frame (RFC 9113 §8.1), and Transfer-Encoding is not sent (§8.2.2)
  const chunked = mode === 'h2' ? undefined : 'chunked'

  test('a string body goes chunked, announced by Trailer, the field after it', async () => {
    payloads.length = 0
    const res = await request('/text')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'some text')
    assert.equal(res.headers.trailer, 'x-length')
    assert.equal(res.headers['transfer-encoding'], chunked)
    assert.equal(res.headers['content-length'], undefined)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.deepEqual(res.trailers, { 'x-length': '9' })
    assert.deepEqual(payloads, ['some text'])
  })

  test('an async trailer function gets the serialized JSON', async () => {
    const res = await request('/json')
    assert.equal(res.body, '{"a":1}')
    assert.equal(res.trailers['x-async'], 'after {"a":1}')
  })

  test('an empty body still carries its trailers', async () => {
    const res = await request('/empty')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, '')
    assert.equal(res.headers.trailer, 'x-done')
    assert.equal(res.trailers['x-done'], 'yes')
  })

  test('a stream: the trailers once it has ended, its function given null', async () => {
    payloads.length = 0
    const res = await request('/stream')
    assert.equal(res.body, 'one two')
    assert.equal(res.headers['transfer-encoding'], chunked)
    assert.equal(res.trailers['x-checksum'], 'abc')
    assert.deepEqual(payloads, [null])
  })

  test('a trailer that fails, throws, rejects or has an invalid value is left out; the others go', async () => {
    const res = await request('/failing')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'body')
    assert.equal(res.headers.trailer, 'x-fails x-throws x-rejects x-kept x-bad-value')
    assert.deepEqual(res.trailers, { 'x-kept': 'kept' })
  })

  test('with every trailer removed, the reply is sent as if none was declared', async () => {
    const res = await request('/removed')
    assert.deepEqual(JSON.parse(res.body), { has: false })
    assert.equal(res.headers.trailer, undefined)
    assert.equal(res.headers['transfer-encoding'], undefined)
    assert.equal(res.headers['content-length'], String(res.body.length))
  })

  test('a trailer removed while the stream is read is announced but not computed', async () => {
    const res = await request('/removed-during-stream')
    assert.equal(res.body, 'streamed')
    assert.equal(res.headers.trailer, 'x-late')
    assert.deepEqual(res.trailers, {})
  })

  test('fields that may not be trailers, and values that are not functions, are refused', async () => {
    const res = await request('/refused')
    assert.deepEqual(JSON.parse(res.body), { codes: ['HP_ERR_BAD_TRAILER_NAME', 'HP_ERR_BAD_TRAILER_NAME', 'HP_ERR_BAD_TRAILER_VALUE'], has: false })
  })
})

// Off h2: the chunked trailer section, byte by byte (HTTP/1.1 framing).
eachMode('reply.trailer() on the wire', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', (req, reply) => {
        reply.trailer('ETag', (_reply, _payload, done) => done(null, '"v1"'))
        return 'hi'
      })
    })
  })
  after(() => s.close())

  test('the last chunk is followed by the trailer section (RFC 9112 §7.1.2)', async () => {
    const raw = await rawRequest(s.port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match(raw, /\r\ntrailer: etag\r\n/i)
    assert.match(raw, /\r\ntransfer-encoding: chunked\r\n/i)
    assert.doesNotMatch(raw, /content-length/i)
    assert.ok(raw.endsWith('\r\n\r\n2\r\nhi\r\n0\r\netag: "v1"\r\n\r\n'), raw)
  })

  test('HEAD: the head alone, no trailer section', async () => {
    const raw = await rawRequest(s.port, 'HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match(raw, /^HTTP\/1\.1 200 /)
    assert.ok(raw.endsWith('\r\n\r\n'), raw)
    assert.doesNotMatch(raw, /etag: "v1"/)
  })

  test('HTTP/1.0 has no chunked coding: the body alone, no Trailer header', async () => {
    const raw = await rawRequest(s.port, 'GET / HTTP/1.0\r\n\r\n')
    assert.match(raw, /^HTTP\/1\.1 200 /)
    assert.doesNotMatch(raw, /trailer/i)
    assert.ok(raw.endsWith('\r\n\r\nhi'), raw)
  })
}, SOCKET_MODES)
