// Middleware that puts its own writeHead/write/end on the response
// (response-time and morgan through on-headers, compression) sees hotpath's reply go
// through them and can change it, on both engines and under inject; that
// request alone takes the slower path.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { gunzipSync } from 'node:zlib'
import compression from 'compression'
import responseTime from 'response-time'
import morgan from 'morgan'
import { eachMode, setup } from '../helpers/engines.js'

const DATA = { items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `item number ${i}` })) }

/**
 * The raw bytes of a GET, as a client receives them.
 * @param {Awaited<ReturnType<typeof setup>>} s
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<{ statusCode: number, headers: Record<string, any>, bytes: Buffer }>}
 */
async function get (s, url, headers) {
  if (s.mode === 'inject') {
    const r = await s.app.inject({ url, headers })
    return { statusCode: r.statusCode, headers: r.headers, bytes: r.rawPayload }
  }
  if (s.h2 !== null) {
    const r = await s.h2.request({ url, headers })
    return { statusCode: r.statusCode, headers: r.headers, bytes: r.bytes }
  }
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: s.port, path: url, headers, agent: false }, (res) => {
      /** @type {Buffer[]} */
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ statusCode: /** @type {number} */ (res.statusCode), headers: res.headers, bytes: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

eachMode('middleware that replaces writeHead/write/end', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const logLines = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.register(async (api) => {
        api.use(responseTime())
        api.use(morgan(':method :url :status :res[content-length] :response-time ms', { stream: { write: (line) => { logLines.push(line) } } }))
        api.get('/timed', () => ({ ok: true }))
      }, { prefix: '/rt' })
      app.register(async (api) => {
        api.use(compression({ threshold: 100 }))
        api.get('/data', () => DATA)
        api.get('/small', () => ({ ok: true }))
      }, { prefix: '/gz' })
      app.get('/plain', () => DATA)
    })
  })
  after(() => s.close())

  test('response-time: X-Response-Time is on the reply', async () => {
    const r = await get(s, '/rt/timed', {})
    assert.equal(r.statusCode, 200)
    assert.match(String(r.headers['x-response-time']), /^\d+(\.\d+)?ms$/)
    assert.deepEqual(JSON.parse(r.bytes.toString()), { ok: true })
  })

  test('morgan: one line with the method, the URL, the status, the length and the time', async () => {
    logLines.length = 0
    const r = await get(s, '/rt/timed?x=1', {})
    assert.equal(r.statusCode, 200)
    for (let i = 0; i < 100 && logLines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    assert.equal(logLines.length, 1)
    assert.match(logLines[0], /^GET \/rt\/timed\?x=1 200 11 \d+(\.\d+)? ms\n$/)
  })

  test('compression: a gzip body that decompresses to the reply, its length right, Vary: Accept-Encoding', async () => {
    const r = await get(s, '/gz/data', { 'accept-encoding': 'gzip' })
    assert.equal(r.statusCode, 200)
    assert.equal(r.headers['content-encoding'], 'gzip')
    assert.match(String(r.headers.vary), /accept-encoding/i)
    if (r.headers['content-length'] !== undefined) assert.equal(Number(r.headers['content-length']), r.bytes.length)
    assert.deepEqual(JSON.parse(gunzipSync(r.bytes).toString()), DATA)
    assert.match(String(r.headers['content-type']), /^application\/json/)
  })

  test('compression honours its threshold and a client that asks for no encoding', async () => {
    const small = await get(s, '/gz/small', { 'accept-encoding': 'gzip' })
    assert.equal(small.headers['content-encoding'], undefined)
    assert.deepEqual(JSON.parse(small.bytes.toString()), { ok: true })
    const identity = await get(s, '/gz/data', {})
    assert.equal(identity.headers['content-encoding'], undefined)
    assert.deepEqual(JSON.parse(identity.bytes.toString()), DATA)
  })

  test('a route without the middleware is untouched', async () => {
    const r = await get(s, '/plain', { 'accept-encoding': 'gzip' })
    assert.equal(r.headers['content-encoding'], undefined)
    assert.equal(r.headers['x-response-time'], undefined)
    assert.deepEqual(JSON.parse(r.bytes.toString()), DATA)
  })
})
