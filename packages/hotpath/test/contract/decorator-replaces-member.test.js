// A decorator may replace a built-in method or accessor of requests and
// replies for the scope it is declared in (a test double for
// `reply.getHeader`, a plugin's own `request.hostname`), as Fastify lets it;
// the fields Fastify sets on each request and reply (`request.body`,
// `reply.raw`…) stay refused. Compared with Fastify through inject() and
// over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { besideFastify } from '../helpers/beside-fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} app */
function build (app) {
  app.get('/root', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.header('x-a', '1')
    return { header: reply.getHeader('x-a') ?? null, hostname: req.hostname }
  })
  app.register(async (/** @type {any} */ child) => {
    child.decorateReply('getHeader', () => ['foo', 'bar'])
    child.decorateRequest('hostname', { getter () { return 'from-decorator' } })
    child.get('/child', (/** @type {any} */ req, /** @type {any} */ reply) => {
      reply.header('x-a', '1')
      return { header: reply.getHeader('x-a'), hostname: req.hostname }
    })
  })
}

test('a decorator replaces reply.getHeader and request.hostname in its scope only, as on Fastify', async () => {
  const answers = await besideFastify(build, [
    { url: '/root', headers: { host: 'example.test' } },
    { url: '/child', headers: { host: 'example.test' } }
  ])
  for (const { what, fastify, hotpath } of answers) {
    assert.equal(hotpath.statusCode, fastify.statusCode, what)
    assert.deepEqual(JSON.parse(hotpath.body), JSON.parse(fastify.body), what)
    assert.equal(hotpath.headers['x-a'], fastify.headers['x-a'], what)
  }
  // and what they were
  const child = answers.find((a) => a.what.startsWith('GET /child'))
  assert.deepEqual(JSON.parse(child?.fastify.body ?? ''), { header: ['foo', 'bar'], hostname: 'from-decorator' })
})

test("the fields Fastify sets on each request and reply are refused as decorators, as on Fastify; a method is not", () => {
  for (const make of [Fastify, hotpathFastify]) {
    const app = make()
    for (const name of ['id', 'params', 'raw', 'query', 'log', 'body']) {
      assert.throws(() => app.decorateRequest(name, null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' }, name)
    }
    for (const name of ['raw', 'request', 'log']) {
      assert.throws(() => app.decorateReply(name, null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' }, name)
    }
    app.decorateReply('send', null)
    app.decorateRequest('headers', null)
    assert.throws(() => app.decorateReply('send', null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  }
})
