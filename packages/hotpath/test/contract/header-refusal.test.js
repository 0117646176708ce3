// A header no socket may carry gets one answer everywhere: through inject
// and over a socket on both engines, a name that is not a token (RFC 9110
// §5.1) or a value with CR, LF, NUL or another control, or a character
// above 0xFF (§5.5), is refused with a 500, the masked body and one error
// line; a value with obs-text (0x80-0xFF) goes out as its latin1 bytes.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable, Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup } from '../helpers/engines.js'

/** @type {unknown[]} */
const uncaught = []
process.on('uncaughtException', (err) => { uncaught.push(err) })
process.on('unhandledRejection', (err) => { uncaught.push(err) })

const REFUSED = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error', code: 'HP_ERR_INTERNAL' }
const MASKED = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }

/** @type {Record<string, [string, string | string[]]>} the header each route sets */
const HEADERS = {
  'value-crlf': ['x-test', 'a\r\nset-cookie: injected=1'],
  'value-lf-in-list': ['x-test', ['fine', 'a\nb']],
  'value-nul': ['x-test', 'a\0b'],
  'value-above-latin1': ['x-test', 'ünï€'],
  'value-emoji': ['x-test', 'ok 😀'],
  'name-space': ['x test', 'v'],
  'name-crlf': ['x\r\ntest', 'v'],
  'name-not-token': ['x(test)', 'v'],
  'name-not-ascii': ['x-tëst', 'v'],
  'value-latin1': ['x-test', 'ünï']
}

/**
 * @typedef {object} Answer
 * @property {number} statusCode
 * @property {string} statusMessage
 * @property {Record<string, any>} headers
 * @property {string} body
 */

/**
 * @param {number} port
 * @param {string} path
 * @returns {Promise<Answer>}
 */
function get (port, path) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      /** @type {Buffer[]} */
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ statusCode: /** @type {number} */ (res.statusCode), statusMessage: String(res.statusMessage), headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
  })
}

eachMode('headers a socket cannot carry', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  let crashes = 0
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/ok', () => 'still up')
      for (const [name, [field, value]] of Object.entries(HEADERS)) {
        app.get('/reply/' + name, (req, reply) => { reply.header(field, value); return 'sent' })
        app.get('/stream/' + name, (req, reply) => { reply.header(field, value); return Readable.from(['streamed']) })
        app.register(async (child) => {
          child.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {any} */ next) => { res.setHeader(field, value); next() })
          child.get('/', () => 'sent')
        }, { prefix: '/middleware/' + name })
      }
    }, { logger: { level: 'error', stream } })
  })
  after(() => s.close())

  /**
   * @param {string} url
   * @returns {Promise<Answer>}
   */
  async function ask (url) {
    lines.length = 0
    crashes = uncaught.length
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer
    const timeout = new Promise((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${url} was not answered within 5 s`)), 5000) })
    const answer = mode === 'inject'
      ? s.app.inject(url)
      : s.h2 !== null ? s.h2.request({ url }).then((r) => ({ ...r, statusMessage: '' })) : get(s.port, url)
    try {
      return /** @type {Answer} */ (await Promise.race([answer, timeout]))
    } finally {
      clearTimeout(timer)
      await sleep(10)
    }
  }

  /**
   * @param {string} url
   * @param {object} body
   */
  async function assertRefused (url, body) {
    const res = await ask(url)
    assert.equal(res.statusCode, 500)
    // HTTP/2 has no reason phrase (RFC 9113 §8.3.2: :status alone)
    assert.equal(res.statusMessage, mode === 'h2' ? '' : 'Internal Server Error')
    assert.deepEqual(JSON.parse(res.body), body)
    assert.equal(res.headers['x-test'], undefined)
    assert.equal(res.headers['set-cookie'], undefined)
    assert.equal(lines.filter((l) => l.level >= 50).length, 1, JSON.stringify(lines))
    const next = await ask('/ok')
    assert.equal(next.statusCode, 200)
    assert.equal(next.body, 'still up')
    assert.deepEqual(uncaught.slice(crashes), [])
  }

  for (const name of Object.keys(HEADERS)) {
    if (name === 'value-latin1') continue
    test(`reply.header(): ${name} is refused with a 500`, () => assertRefused('/reply/' + name, REFUSED))
    test(`reply.header() on a stream reply: ${name} is refused with a 500`, () => assertRefused('/stream/' + name, REFUSED))
    // res.setHeader() throws at once, as node:http's does: the middleware's
    // error, answered by the error handler.
    test(`res.setHeader() in middleware: ${name} is refused with a 500`, () => assertRefused('/middleware/' + name, MASKED))
  }

  for (const kind of ['reply', 'stream', 'middleware']) {
    test(`${kind}: a latin1 value goes out as latin1 bytes, read back the same everywhere`, async () => {
      const res = await ask(`/${kind}/value-latin1`)
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-test'], 'ünï')
      assert.deepEqual(uncaught.slice(crashes), [])
    })
  }
})
