// The log lines of a few requests, written by hotpath/fastify and by
// Fastify with the same logger options, compared whole: what varies by
// run (time, pid, hostname, request id, response time, stack, a socket's
// port) is set aside. Through inject(), where the request's socket is
// light-my-request's (no remote port), and over a socket on each HTTP/1.1
// engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} app */
function build (app) {
  app.get('/ok', (/** @type {any} */ req) => { req.log.info({ extra: 1 }, 'in handler'); return 'ok' })
  app.get('/err', () => { throw new Error('bad') })
  app.get('/client-error', () => { throw Object.assign(new Error('client'), { statusCode: 400 }) })
}

/**
 * @param {any} make
 * @param {string} mode  inject, node or wire
 */
async function linesOf (make, mode) {
  /** @type {any[]} */
  const lines = []
  const stream = new Writable({ write (chunk, _enc, cb) { lines.push(JSON.parse(String(chunk))); cb() } })
  const app = make({ logger: { level: 'info', stream }, ...(make === hotpathFastify && mode !== 'inject' ? { engine: mode } : {}) })
  build(app)
  try {
    if (mode === 'inject') {
      for (const url of ['/ok', '/err', '/client-error', '/missing']) await app.inject({ url })
    } else {
      await app.listen({ port: 0, host: '127.0.0.1' })
      for (const url of ['/ok', '/err', '/client-error', '/missing']) await (await fetch(`http://127.0.0.1:${app.server.address().port}${url}`)).text()
    }
  } finally {
    await app.close()
  }
  return lines.map((line) => {
    const { time, pid, hostname, reqId, responseTime, ...rest } = line
    if (typeof rest.msg === 'string') rest.msg = rest.msg.replace(/:\d+$/, ':(port)')
    if (rest.err?.stack) rest.err.stack = '(stack)'
    if (rest.req !== undefined) {
      if (typeof rest.req.remotePort === 'number') rest.req.remotePort = '(port)'
      if (mode !== 'inject') rest.req.host = '(host)'
    }
    return { ...rest, reqId: typeof reqId, responseTime: typeof responseTime }
  })
}

for (const mode of ['inject', 'node', 'wire']) {
  test(`the request log lines are Fastify's [${mode}]`, async () => {
    const theirs = await linesOf(Fastify, mode)
    const ours = await linesOf(hotpathFastify, mode)
    assert.deepEqual(ours, theirs)
    assert.equal(theirs.filter((l) => l.msg === 'incoming request').length, 4)
  })
}
