import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { eachMode, setup, rawRequest, LISTENING_MODES } from '../helpers/engines.js'

eachMode('reply.writeEarlyHints()', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  let called = 0
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', async (req, reply) => {
        await new Promise((resolve) => reply.writeEarlyHints({ link: '</app.css>; rel=preload; as=style' }, () => { called++; resolve(undefined) }))
        return 'final'
      })
    })
  })
  after(() => s.close())

  test('a 103 with the hints goes ahead of the final response, and the callback is called', async () => {
    called = 0
    /** @type {{ statusCode: number, link: unknown }[]} */
    const interim = []
    const res = await new Promise((resolve, reject) => {
      if (s.h2 !== null) {
        // HTTP/2: the 103 is a HEADERS frame ahead of the final one (RFC 9113 §8.1)
        const { stream } = s.h2.start({ url: '/' })
        stream.on('headers', (headers) => interim.push({ statusCode: Number(headers[':status']), link: headers.link }))
        stream.on('response', (headers) => {
          let body = ''
          stream.on('data', (c) => { body += c })
          stream.on('end', () => resolve({ statusCode: Number(headers[':status']), body }))
        })
        stream.on('error', reject)
        return
      }
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/', agent: false })
      req.on('information', (info) => interim.push({ statusCode: info.statusCode, link: info.headers.link }))
      req.on('response', (r) => {
        let body = ''
        r.on('data', (c) => { body += c })
        r.on('end', () => resolve({ statusCode: r.statusCode, body }))
      })
      req.on('error', reject)
    })
    assert.deepEqual(interim, [{ statusCode: 103, link: '</app.css>; rel=preload; as=style' }])
    assert.deepEqual(res, { statusCode: 200, body: 'final' })
    assert.equal(called, 1)
  })

  test('none to an HTTP/1.0 client (RFC 9110 §15.2)', { skip: mode === 'h2' && 'no HTTP/1.0 on an HTTP/2 port' }, async () => {
    const raw = await rawRequest(s.port, 'GET / HTTP/1.0\r\n\r\n')
    assert.match(raw, /^HTTP\/1\.[01] 200 /)
  })
}, LISTENING_MODES)

test('under inject no interim response is sent, and the callback is called', async () => {
  const s = await setup('inject', (app) => {
    app.get('/', (req, reply) => new Promise((resolve) => reply.writeEarlyHints({ link: '</a>' }, () => resolve('after hints'))))
  })
  const res = await s.request('/')
  assert.equal(res.body, 'after hints')
  await s.close()
})
