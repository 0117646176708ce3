'use strict'
// The application on hotpath, engine by engine, beside the same application
// on Fastify (@nestjs/platform-fastify's own): every request of cases.js
// through supertest on app.getHttpServer() (which listens and closes the
// server itself, without app.listen()), then through app.inject(); the
// status must be the one cases.js names, and the answer Fastify's.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const request = require('supertest')
const { createApp, fastify } = require('./helpers.js')
const { CASES, HEADER_CASES, CHECKS } = require('./cases.js')

const ENGINES = ['wire', 'node', 'h2']

/** An answer as the tests compare it: the status, the headers but Date, the body as text. */
function answer (status, headers, body) {
  const { date, ...rest } = headers
  return { status, headers: rest, body: body ?? '' }
}

async function overHttp (app, c, http2) {
  let req = request(app.getHttpServer(), { http2 })[c.method.toLowerCase()](c.url)
  for (const [name, value] of Object.entries(c.headers ?? {})) req = req.set(name, value)
  if (c.body !== undefined) req = req.send(c.body)
  const res = await req
  return answer(res.status, res.headers, res.text)
}

async function injected (app, c) {
  const res = await app.inject({ method: c.method, url: c.url, headers: c.headers, payload: c.body })
  return answer(res.statusCode, res.headers, res.body)
}

function compare (engine, over, c, hotpath, fastify, status = c.status) {
  assert.equal(hotpath.status, status, `${c.name}: ${hotpath.body}`)
  if (status === c.status) CHECKS[c.name]?.(hotpath, c)
  // Nest's SSE writes Connection: keep-alive itself; supertest asks for
  // Connection: close, and wire, which closes the connection then, says so,
  // where node:http writes the app's header and closes the connection anyway
  if (over === 'http' && engine === 'wire' && c.name === 'server-sent events') {
    assert.equal(hotpath.headers.connection, 'close')
    assert.equal(fastify.headers.connection, 'keep-alive')
    delete hotpath.headers.connection
    delete fastify.headers.connection
  }
  // A body a middleware ends Node's response with (res.end(text), no
  // Content-Length set): light-my-request writes it before the head is
  // made, which makes it chunked; hotpath's inject() gives the head a
  // socket carries (Content-Length, as on Fastify over HTTP above)
  if (over === 'inject' && c.name === 'middleware that answers') {
    assert.equal(hotpath.headers['content-length'], String(hotpath.body.length))
    assert.equal(fastify.headers['transfer-encoding'], 'chunked')
    delete hotpath.headers['content-length']
    delete fastify.headers['transfer-encoding']
  }
  assert.deepEqual(hotpath, fastify, c.name)
}

for (const engine of ENGINES) {
  const http2 = engine === 'h2'

  test(`each feature answers as on Fastify, over HTTP [${engine}]`, { timeout: 60_000 }, async () => {
    const hotpath = await createApp({ engine })
    const reference = await createApp({ engine, factory: fastify })
    try {
      for (const c of CASES) compare(engine, 'http', c, await overHttp(hotpath, c, http2), await overHttp(reference, c, http2))
    } finally {
      // supertest listened on the server and closed it: close() ends
      await Promise.all([hotpath.close(), reference.close()])
    }
    assert.equal(hotpath.getHttpServer().listening, false)
  })

  test(`header versioning answers as on Fastify [${engine}]`, { timeout: 60_000 }, async () => {
    const hotpath = await createApp({ engine, versioning: 'header' })
    const reference = await createApp({ engine, versioning: 'header', factory: fastify })
    try {
      for (const c of HEADER_CASES) compare(engine, 'http', c, await overHttp(hotpath, c, http2), await overHttp(reference, c, http2))
      for (const c of HEADER_CASES) compare(engine, 'inject', c, await injected(hotpath, c), await injected(reference, c))
    } finally {
      await Promise.all([hotpath.close(), reference.close()])
    }
  })

  test(`each feature answers as on Fastify, through inject() [${engine}]`, { timeout: 60_000 }, async () => {
    const hotpath = await createApp({ engine })
    const reference = await createApp({ engine, factory: fastify })
    try {
      for (const c of CASES) compare(engine, 'inject', c, await injected(hotpath, c), await injected(reference, c), c.injectStatus)
    } finally {
      await Promise.all([hotpath.close(), reference.close()])
    }
  })
}

test('app.listen(), then app.close() [wire]', { timeout: 30_000 }, async () => {
  const app = await createApp()
  await app.listen({ port: 0, host: '127.0.0.1' })
  const res = await fetch(`${await app.getUrl()}/v1/greetings`)
  assert.deepEqual(await res.json(), { version: '1', greeting: 'hello' })
  await app.close()
  assert.equal(app.getHttpServer().listening, false)
})
