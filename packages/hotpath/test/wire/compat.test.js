// The compatibility object of the wire engine (connect middleware): headers
// set on it merge into the engine's response, end() answers directly, and
// 'finish'/'close' fire. res.compat() returns it, with the request as `req`.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import cors from 'cors'
import helmet from 'helmet'
import { serve, exchange, responses } from './util.js'

const H = 'Host: example.com\r\n'

test('setHeader/getHeader/removeHeader merge into the response; the core headers win', async (t) => {
  /** @type {string[]} */
  const events = []
  const s = await serve({}, (engine, req, res) => {
    const cres = res.compat(console)
    const creq = cres.req
    assert.equal(creq.url, req.url)
    cres.setHeader('X-One', '1')
    cres.setHeader('X-Two', ['a', 'b'])
    cres.setHeader('X-Gone', 'x')
    cres.removeHeader('x-gone')
    cres.setHeader('content-type', 'text/html')
    events.push(String(cres.getHeader('x-one')), String(cres.hasHeader('X-Gone')))
    cres.on('finish', () => events.push('finish'))
    cres.on('close', () => events.push('close'))
    res.respond(200, { 'content-type': 'text/plain' }, 'body')
  })
  t.after(() => s.close())
  const r = responses((await exchange(s.port, 'GET / HTTP/1.1\r\n' + H + 'Connection: close\r\n\r\n')).text)[0]
  assert.match(r.head, /\r\nX-One: 1\r\n/i)
  assert.match(r.head, /\r\nX-Two: a\r\nX-Two: b\r\n/i)
  assert.doesNotMatch(r.head, /x-gone/i)
  assert.match(r.head, /\r\ncontent-type: text\/plain\r\n/)
  assert.doesNotMatch(r.head, /text\/html/)
  assert.deepEqual(events, ['1', 'false', 'finish', 'close'])
})

test('cors and helmet run on the compat pair; a preflight is answered by end()', async (t) => {
  const corsMw = cors({ origin: 'https://example.com' })
  const helmetMw = helmet()
  const s = await serve({}, (engine, req, res) => {
    const cres = res.compat(console)
    const creq = cres.req
    helmetMw(creq, cres, () => corsMw(creq, cres, () => {
      if (!res.headersSent) res.respond(200, {}, 'ok')
    }))
  })
  t.after(() => s.close())
  const get = responses((await exchange(s.port, 'GET / HTTP/1.1\r\n' + H + 'Origin: https://example.com\r\nConnection: close\r\n\r\n')).text)[0]
  assert.equal(get.body, 'ok')
  assert.match(get.head, /access-control-allow-origin: https:\/\/example\.com/i)
  assert.match(get.head, /content-security-policy: /i)
  assert.match(get.head, /x-content-type-options: nosniff/i)
  const pre = responses((await exchange(s.port, 'OPTIONS / HTTP/1.1\r\n' + H + 'Origin: https://example.com\r\nAccess-Control-Request-Method: PUT\r\nConnection: close\r\n\r\n')).text)[0]
  assert.equal(pre.status, 204)
  assert.match(pre.head, /access-control-allow-methods: /i)
})
