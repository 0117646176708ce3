// req.raw is an instance of node's request class on every engine and
// under inject, as on Fastify (node:http's IncomingMessage; node:http2's
// Http2ServerRequest on h2), and carries its members: over HTTP/1.1,
// headersDistinct lists every value of a repeated field, as node:http's does.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import http2 from 'node:http2'
import { Readable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('the class of req.raw', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Record<string, unknown>} */
  const seen = {}
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/class', (/** @type {any} */ req) => {
        seen.incomingMessage = req.raw instanceof http.IncomingMessage
        seen.http2Request = req.raw instanceof http2.Http2ServerRequest
        seen.readable = req.raw instanceof Readable
        if (mode !== 'h2') seen.distinct = req.raw.headersDistinct['x-many']
        return 'ok'
      })
    })
  })
  after(() => s.close())

  test("is node's request class, with headersDistinct", async () => {
    const res = await s.request({ url: '/class', headers: mode === 'h2' ? {} : { 'x-many': ['1', '2'] } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(seen, {
      incomingMessage: mode !== 'h2',
      http2Request: mode === 'h2',
      readable: true,
      ...(mode === 'h2' ? {} : { distinct: ['1', '2'] })
    })
  })
})
