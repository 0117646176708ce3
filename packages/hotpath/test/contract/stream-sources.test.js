import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable, Writable } from 'node:stream'
import { eachMode, setup, LISTENING_MODES } from '../helpers/engines.js'

/**
 * A stream that sends one chunk and then waits, ending itself only by the
 * method named (the others removed), which settles `ended`.
 * @param {'close' | 'abort'} how
 */
function oldStyleStream (how) {
  /** @type {(v: string) => void} */
  let settle = () => {}
  const ended = new Promise((resolve) => { settle = resolve })
  let sent = false
  const stream = /** @type {any} */ (new Readable({
    read () {
      if (!sent) this.push('first\n')
      sent = true
    }
  }))
  stream.destroy = undefined
  if (how === 'close') stream.close = () => settle('close')
  else stream.abort = () => settle('abort')
  return { stream, ended }
}

/**
 * HTTP/2's form of leaving after the first chunk: the stream is reset
 * (CANCEL), the session goes on.
 * @param {import('../helpers/engines.js').H2Client} client
 * @param {string} path
 */
async function leaveH2 (client, path) {
  const request = client.start({ url: path })
  await request.firstData
  request.leave()
}

eachMode('a source stream the client leaves', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Promise<string>[]} */
  const ended = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/close', (req, reply) => {
        const o = oldStyleStream('close')
        ended.push(o.ended)
        reply.send(o.stream)
      })
      app.get('/abort', (req, reply) => {
        const o = oldStyleStream('abort')
        ended.push(o.ended)
        reply.send(o.stream)
      })
    })
  })
  after(() => s.close())

  /** @param {string} path */
  const leaveAfterFirstChunk = (path) => s.h2 !== null ? leaveH2(s.h2, path) : new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: s.port, path, agent: false }, (res) => {
      res.once('data', () => {
        res.destroy()
        resolve(undefined)
      })
    }).on('error', (err) => { if (/** @type {any} */ (err).code !== 'ECONNRESET') reject(err) })
  })

  test('one with close() but no destroy() is closed', async () => {
    ended.length = 0
    await leaveAfterFirstChunk('/close')
    assert.equal(await ended[0], 'close')
  })

  test('one with only abort() is aborted', async (t) => {
    // node:http's pipeline ends a source by destroy() or close() only; h2
    // streams a body through the same writer
    if (mode === 'node' || mode === 'h2') return t.skip('node:http pipeline')
    ended.length = 0
    await leaveAfterFirstChunk('/abort')
    assert.equal(await ended[0], 'abort')
  })
}, LISTENING_MODES)

eachMode('reply.raw.end() before the stream sent anything', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Promise<void> | null} */
  let destroyed = null
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', (req, reply) => {
        /** @type {() => void} */
        let settle = () => {}
        destroyed = new Promise((resolve) => { settle = resolve })
        const idle = new Readable({ read () {}, destroy (err, cb) { settle(); cb(err) } })
        reply.send(idle)
        reply.raw.end('from raw\n')
      })
    })
  })
  after(() => s.close())

  test("the raw response is sent and the stream is ended unread", async () => {
    const res = await s.request('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'from raw\n')
    await destroyed
  })
}, ['wire'])

eachMode("logFormat 'fastify': a stream the client left", (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  /** @type {(line: any) => void} */
  let onLine = () => {}
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', () => {
        let sent = false
        return new Readable({ read () { if (!sent) this.push('first\n'); sent = true } })
      })
    }, {
      logFormat: 'fastify',
      logger: { level: 'info', stream: new Writable({ write (chunk, _e, cb) { const line = JSON.parse(chunk.toString()); lines.push(line); onLine(line); cb() } }) }
    })
  })
  after(() => s.close())

  test('is logged at info as Fastify logs it, with the response', async () => {
    const logged = new Promise((resolve) => { onLine = (line) => { if (line.msg === 'stream closed prematurely') resolve(line) } })
    if (s.h2 !== null) await leaveH2(s.h2, '/')
    else await new Promise((resolve) => {
      http.get({ host: '127.0.0.1', port: s.port, path: '/', agent: false }, (res) => {
        res.once('data', () => { res.destroy(); resolve(undefined) })
      }).on('error', () => {})
    })
    const line = /** @type {any} */ (await logged)
    assert.equal(line.level, 30)
    assert.deepEqual(line.res, { statusCode: 200 })
  })
}, LISTENING_MODES)
