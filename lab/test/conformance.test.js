import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { once } from 'node:events'
import zlib from 'node:zlib'
import { parseResponses, formatRequest, exchange } from '../runner/http-client.js'
import { checkResponse, checkTarget, mediaType, charsetOf } from '../runner/conformance.js'
import { getScenario } from '../scenarios/index.js'

const res = (status, headers, body) => ({ status, headers, headBytes: 0, body: Buffer.from(body) })

test('media type and charset are compared without case or spacing', () => {
  assert.equal(mediaType('Application/JSON ; charset=UTF-8'), 'application/json')
  assert.equal(mediaType(undefined), '')
  assert.equal(charsetOf('application/json;charset="UTF-8"'), 'utf-8')
  assert.equal(charsetOf('application/json'), null)
})

test('checkResponse: status, media type, charset and exact body bytes', () => {
  const expect = { status: 200, type: 'application/json', body: '{"hello":"world"}' }
  assert.deepEqual(checkResponse(expect, res(200, { 'content-type': 'application/json; charset=utf-8' }, '{"hello":"world"}')), [])
  assert.deepEqual(checkResponse(expect, res(200, { 'content-type': 'application/json' }, '{"hello":"world"}')), [])
  assert.deepEqual(checkResponse(expect, res(500, { 'content-type': 'application/json' }, '{"hello":"world"}')), ['status 500, expected 200'])
  assert.match(checkResponse(expect, res(200, { 'content-type': 'text/plain' }, '{"hello":"world"}'))[0], /content-type "text\/plain", expected application\/json/)
  assert.match(checkResponse(expect, res(200, {}, '{"hello":"world"}'))[0], /content-type null/)
  assert.match(checkResponse(expect, res(200, { 'content-type': 'application/json; charset=latin1' }, '{"hello":"world"}'))[0], /charset latin1/)
  assert.match(checkResponse(expect, res(200, { 'content-type': 'application/json' }, '{"hello": "world"}'))[0], /^body "\{\\"hello\\": \\"world\\"\}", expected/)
  assert.match(checkResponse({ status: 200, body: 'x'.repeat(500) }, res(200, {}, 'x'.repeat(499)))[0], /body 499 bytes, expected 500 bytes/)
  assert.deepEqual(checkResponse({ status: 400 }, res(400, { 'content-type': 'text/html' }, 'nope')), [], 'only the status when that is all that is asked')
  assert.deepEqual(checkResponse({ status: 0 }, res(204, {}, '')), [], 'status 0 means any 2xx')
  assert.deepEqual(checkResponse({ status: 0 }, res(302, {}, '')), ['status 302, expected 2xx'])
})

test('checkResponse: expected headers by exact value or pattern, a gzip body compared decoded', () => {
  const json = '{"hello":"world"}'
  const expect = { status: 200, type: 'application/json', encoding: /** @type {const} */ ('gzip'), body: json, headers: { 'x-frame-options': 'SAMEORIGIN', vary: /(^|,)\s*accept-encoding\s*(,|$)/i } }
  const good = { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-frame-options': 'SAMEORIGIN', vary: 'Origin, Accept-Encoding' }
  const gz = (text) => ({ status: 200, headers: good, headBytes: 0, body: zlib.gzipSync(text) })
  assert.deepEqual(checkResponse(expect, gz(json)), [])
  assert.deepEqual(checkResponse(expect, { ...gz(json), headers: { ...good, 'content-encoding': 'GZIP' } }), [], 'a coding is case-insensitive')
  assert.deepEqual(checkResponse(expect, gz('{"hello":"World"}')), ['body "{\\"hello\\":\\"World\\"}", expected "{\\"hello\\":\\"world\\"}"'], 'compared after gunzip')
  assert.deepEqual(checkResponse(expect, res(200, { ...good, 'content-encoding': undefined }, json)), ['content-encoding null, expected gzip'])
  assert.match(checkResponse(expect, res(200, good, json))[0], /^body is not valid gzip/)
  const { 'x-frame-options': _, ...noFrame } = good
  assert.deepEqual(checkResponse(expect, { ...gz(json), headers: { ...noFrame, vary: 'Origin' } }),
    ['x-frame-options null, expected "SAMEORIGIN"', 'vary "Origin", expected to match /(^|,)\\s*accept-encoding\\s*(,|$)/i'])
  // a body the client did not ask to be coded must come as it is
  assert.deepEqual(checkResponse({ status: 200, body: json }, gz(json)), ['content-encoding "gzip", expected none'])
  assert.deepEqual(checkResponse({ status: 400 }, { ...gz('bad'), status: 400 }), [], 'no body asked: its coding is not checked')
})

test('parseResponses: content-length, chunked with trailers, pipelined, incomplete', () => {
  const a = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: 1\r\nx-a: 2\r\n\r\nhi'
  const b = 'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n'
  const c = 'HTTP/1.1 204 No Content\r\n\r\n'
  const all = Buffer.from(a + b + c + 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab')
  const { responses, rest } = parseResponses(all)
  assert.equal(responses.length, 3)
  assert.equal(responses[0].body.toString(), 'hi')
  assert.equal(responses[0].headers['x-a'], '1, 2')
  assert.equal(responses[0].headBytes, a.length - 2)
  assert.equal(responses[1].status, 201)
  assert.equal(responses[1].body.toString(), 'abcde')
  assert.equal(responses[2].status, 204)
  assert.equal(rest.toString(), 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab')
  // split at every byte: the same responses come out
  const bytes = Buffer.from(a + b + c)
  for (let i = 0; i <= bytes.length; i++) {
    const first = parseResponses(bytes.subarray(0, i))
    const second = parseResponses(Buffer.concat([first.rest, bytes.subarray(i)]))
    assert.equal(first.responses.length + second.responses.length, 3, `split at ${i}`)
  }
  assert.equal(parseResponses(Buffer.from('HTTP/1.1 200 OK\r\n\r\nuntil close'), true).responses[0].body.toString(), 'until close')
  assert.throws(() => parseResponses(Buffer.from('SMTP 220 hi\r\n\r\n')), /malformed status line/)
})

test('formatRequest writes exact bytes with content-length for bodies', () => {
  assert.equal(formatRequest({ method: 'POST', path: '/e', headers: { 'content-type': 'application/json' }, body: '{"é":1}' }, 'h:1').toString(),
    'POST /e HTTP/1.1\r\nhost: h:1\r\ncontent-type: application/json\r\ncontent-length: 8\r\n\r\n{"é":1}')
})

async function serve (handler) {
  const server = http.createServer(handler)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, port: server.address().port }
}

test('exchange sends pipelined requests in one write and reads every response', async (t) => {
  let n = 0
  const { server, port } = await serve((req, res) => { res.setHeader('content-type', 'text/plain'); res.end(`r${++n}`) })
  t.after(() => server.close())
  const got = await exchange({ port, request: { method: 'GET', path: '/' }, count: 5 })
  assert.deepEqual(got.map((r) => r.body.toString()), ['r1', 'r2', 'r3', 'r4', 'r5'])
})

test('checkTarget passes a correct server and names every fault of a wrong one', async (t) => {
  const scenario = getScenario('json-post')
  const good = await serve(async (req, res) => {
    let body = ''
    for await (const c of req) body += c
    let parsed
    try { parsed = JSON.parse(body) } catch { res.writeHead(400).end(); return }
    if (typeof parsed.id !== 'number') { res.writeHead(400).end(); return }
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.end(JSON.stringify({ id: parsed.id, name: parsed.name, email: parsed.email }))
  })
  t.after(() => good.server.close())
  const ok = await checkTarget({ port: good.port, scenario })
  assert.deepEqual(ok.problems, [])
  assert.equal(ok.ok, true)
  assert.ok(ok.headBytes > 0)

  // accepts anything: wrong body bytes, and no 400 for bad input
  const lax = await serve((req, res) => { req.resume(); res.setHeader('content-type', 'application/json'); res.end('{"id":4242}') })
  t.after(() => lax.server.close())
  const bad = await checkTarget({ port: lax.port, scenario })
  assert.equal(bad.ok, false)
  assert.equal(bad.problems.length, 3)
  assert.match(bad.problems[0], /^body/)
  assert.match(bad.problems[1], /^body failing the schema: status 200, expected 400/)
  assert.match(bad.problems[2], /^malformed JSON: status 200, expected 400/)

  const closed = await checkTarget({ port: 1, scenario: getScenario('hello') })
  assert.equal(closed.ok, false)
  assert.match(closed.problems[0], /request failed/)
})

test('pipelined scenario: every pipelined response is checked', async (t) => {
  let n = 0
  const { server, port } = await serve((req, res) => { res.setHeader('content-type', 'application/json'); res.end(++n === 3 ? '{}' : '{"hello":"world"}') })
  t.after(() => server.close())
  const r = await checkTarget({ port, scenario: getScenario('pipelined') })
  assert.equal(r.ok, false)
  assert.deepEqual(r.problems.map((p) => p.slice(0, 22)), ['pipelined response 3: '])
})
