// errorFormat 'fastify': a request the engine refuses before any route sees
// it is answered as Fastify's server answers it (its fixed JSON bodies, the
// socket then destroyed), unless the app gives a clientErrorHandler.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup, rawRequest, SOCKET_MODES } from '../helpers/engines.js'

/** Fastify's answer bytes for a status and message */
function fastifyAnswer (/** @type {string} */ statusLine, /** @type {string} */ body) {
  return `HTTP/1.1 ${statusLine}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`
}

// Off h2 (both suites here): malformed HTTP/1.1 heads written by hand; node:http2 ends a session
// on a protocol error itself (its 'sessionError').
eachMode("client errors, errorFormat 'fastify'", (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  let calls = 0
  before(async () => {
    s = await setup(mode, (app) => { app.all('/', () => { calls++; return 'ran' }) }, {
      errorFormat: 'fastify', logger: false, headersTimeout: 200, http: { connectionsCheckingInterval: 50 }
    })
  })
  after(() => s.close())

  test('a malformed request: 400 "Client Error"', async () => {
    const text = await rawRequest(s.port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n')
    assert.equal(text, fastifyAnswer('400 Bad Request', '{"error":"Bad Request","message":"Client Error","statusCode":400}'))
  })

  test('a head over maxHeaderSize: 431', async () => {
    const text = await rawRequest(s.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`)
    assert.equal(text, fastifyAnswer('431 Request Header Fields Too Large', '{"error":"Request Header Fields Too Large","message":"Exceeded maximum allowed HTTP header size","statusCode":431}'))
  })

  test('a head that never ends: 408 "Client Timeout"', async () => {
    const text = await rawRequest(s.port, 'GET / HTTP/1.1\r\nHost: x\r\n', 5000)
    assert.equal(text, fastifyAnswer('408 Request Timeout', '{"error":"Request Timeout","message":"Client Timeout","statusCode":408}'))
    assert.equal(calls, 0)
  })
}, SOCKET_MODES)

eachMode("client errors, errorFormat 'fastify' with the app's clientErrorHandler", (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, () => {}, {
      errorFormat: 'fastify',
      logger: false,
      clientErrorHandler: (/** @type {Error} */ err, /** @type {import('node:net').Socket} */ socket) => { socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 4\r\n\r\nmine') }
    })
  })
  after(() => s.close())

  test("the app's handler answers instead", async () => {
    const text = await rawRequest(s.port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n')
    assert.equal(text, 'HTTP/1.1 400 Bad Request\r\nContent-Length: 4\r\n\r\nmine')
  })
}, SOCKET_MODES)
