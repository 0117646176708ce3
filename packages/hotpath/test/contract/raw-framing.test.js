// A body written through reply.raw is framed as node:http frames it:
// chunked after a head without a length (writeHead(), or a write(), before
// end()), with a Content-Length when end(body) comes with no head before
// it or the length was set. Compared with Fastify over a socket on each
// HTTP/1.1 engine (light-my-request frames an end(body) alone chunked,
// where node:http gives its length: inject is left out).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify, assertSameAnswers } from '../helpers/beside-fastify.js'

/** @param {any} app */
function build (app) {
  app.get('/write-head-end', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.writeHead(201, { 'content-type': 'text/plain' })
    reply.raw.end('whole')
  })
  app.get('/write-end', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.setHeader('content-type', 'text/plain')
    reply.raw.write('a')
    reply.raw.end('b')
  })
  app.get('/end-only', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.setHeader('content-type', 'text/plain')
    reply.raw.end('alone')
  })
  app.get('/length-set', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4' })
    reply.raw.end('four')
  })
  app.get('/later', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/plain' })
    reply.raw.write('x')
    setTimeout(() => reply.raw.end('y'), 5)
  })
}

test('a body written through reply.raw is framed as node:http frames it, as on Fastify', async () => {
  const answers = await besideFastify(build, ['/write-head-end', '/write-end', '/end-only', '/length-set', '/later'], { modes: ['node', 'wire'] })
  assertSameAnswers(answers, ['content-type', 'content-length', 'transfer-encoding'])
  const framing = answers.filter((a) => a.mode === 'wire').map((a) => a.fastify.headers['transfer-encoding'] ?? `length ${a.fastify.headers['content-length']}`)
  assert.deepEqual(framing, ['chunked', 'chunked', 'length 5', 'length 4', 'chunked'])
})
