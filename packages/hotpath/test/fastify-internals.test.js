// hotpath/fastify/lib/reply, lib/symbols and lib/errors, the modules a
// program loads as `fastify/lib/reply`, `fastify/lib/symbols` and
// `fastify/lib/errors` when
// hotpath is installed in Fastify's place (packages/hotpath-fastify): a Reply
// built around a bare Node response, as NestJS's adapter builds one, answers
// as Fastify's does; request[kRouteContext] is the route's context, with
// Fastify's hook arrays.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import { createRequire } from 'node:module'
import { besideFastify } from './helpers/beside-fastify.js'
import HotpathReply from 'hotpath/fastify/lib/reply'
import hotpathSymbols from 'hotpath/fastify/lib/symbols'

const require = createRequire(import.meta.url)
const FastifyReply = require('fastify/lib/reply')
const fastifySymbols = require('fastify/lib/symbols')

/** What each case does with a Reply around a bare response. */
const CASES = {
  object: (r) => r.status(418).send({ a: 1 }),
  string: (r) => r.send('hello'),
  buffer: (r) => r.header('X-A', 'b').send(Buffer.from('xy')),
  typedArray: (r) => r.send(new Uint8Array([65, 66])),
  stream: (r) => r.header('content-type', 'text/plain').send(Readable.from(['a', 'b'])),
  webStream: (r) => r.send(new ReadableStream({ start (c) { c.enqueue(new TextEncoder().encode('web')); c.close() } })),
  null: (r) => r.send(null),
  empty: (r) => r.code(204).send(),
  emptyOk: (r) => r.send(),
  html: (r) => r.type('text/html').send('<b>'),
  jsonString: (r) => r.type('application/json').send('{"x":1}'),
  halObject: (r) => r.type('application/hal+json').send({ h: 1 }),
  headers: (r) => {
    r.headers({ 'x-one': '1', 'x-two': ['a', 'b'] })
    return r.send({ all: r.getHeaders(), has: r.hasHeader('X-ONE'), two: r.getHeader('x-two') })
  },
  rawHeader: (r) => { r.raw.setHeader('x-raw', 'r'); return r.send({ seen: r.getHeader('X-Raw'), has: r.hasHeader('x-raw') }) },
  removed: (r) => r.header('x-gone', '1').removeHeader('X-Gone').send({ has: r.hasHeader('x-gone') }),
  cookies: (r) => r.header('set-cookie', 'a=1').header('Set-Cookie', 'b=2').send('c'),
  redirect: (r) => r.redirect('/elsewhere'),
  redirect301: (r) => r.redirect('/moved', 301),
  statusCode: (r) => { r.statusCode = 202; return r.send({ status: r.statusCode, sent: r.sent }) },
  sentAfter: (r) => { r.send('first'); return r.send({ sentAfter: r.sent }) },
  badStatus: (r) => { try { r.code(99) } catch (err) { return r.send({ code: err.code, message: err.message }) } }
}

/** @param {any} framework Reply constructor @param {any} symbols @param {any} res @param {any} req @param {string} name @param {any[]} [onSend] */
function answer (framework, symbols, res, req, name, onSend = []) {
  const log = { warn () {}, error () {}, info () {}, debug () {} }
  const request = { [symbols.kRouteContext]: { preSerialization: null, preValidation: [], preHandler: [], onSend, onError: [] }, method: req.method, url: req.url }
  CASES[name](new framework(res, request, log))
}

/** Sends every case to a node:http server answering with `framework`'s Reply; returns status, headers (less date) and body. */
async function throughNodeHttp (framework, symbols, onSend, names = Object.keys(CASES)) {
  const server = http.createServer((req, res) => answer(framework, symbols, res, req, req.url.slice(1).split('?')[0], onSend))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const out = {}
  try {
    for (const name of names) {
      const res = await fetch(`http://127.0.0.1:${server.address().port}/${name}`, { redirect: 'manual' })
      const headers = Object.fromEntries([...res.headers].filter(([k]) => k !== 'date' && k !== 'keep-alive' && k !== 'connection'))
      out[name] = { status: res.status, headers, body: await res.text() }
    }
  } finally {
    server.close()
  }
  return out
}

test("a Reply around node:http's response answers every kind of payload as Fastify's does", async () => {
  const fastify = await throughNodeHttp(FastifyReply, fastifySymbols)
  const ours = await throughNodeHttp(HotpathReply, hotpathSymbols)
  for (const name of Object.keys(CASES)) assert.deepEqual(ours[name], fastify[name], name)
})

test("a Reply runs its context's onSend hooks (callback and async) as Fastify's does", async () => {
  const hooks = [
    (req, reply, payload, done) => { reply.header('x-hooked', '1'); done(null, typeof payload === 'string' ? payload + '!' : payload) },
    async (req, reply, payload) => typeof payload === 'string' ? payload.toUpperCase() : payload
  ]
  // Fastify's own Reply, built so, fails on an object or an empty payload
  // once it has onSend hooks (it reaches for the serializer of a route it
  // does not have): the payloads it answers are compared
  const names = ['string', 'html', 'buffer', 'jsonString', 'cookies']
  const fastify = await throughNodeHttp(FastifyReply, fastifySymbols, hooks, names)
  const ours = await throughNodeHttp(HotpathReply, hotpathSymbols, hooks, names)
  for (const name of names) assert.deepEqual(ours[name], fastify[name], name)
})

test("a Reply around an app's raw response (hijacked) answers as Fastify's, through inject() and on each engine", async () => {
  const names = Object.keys(CASES).filter((n) => n !== 'webStream')
  const pairs = await besideFastify((app) => {
    const hotpath = '_core' in app
    app.get('/:name', (req, reply) => {
      reply.hijack()
      answer(hotpath ? HotpathReply : FastifyReply, hotpath ? hotpathSymbols : fastifySymbols, reply.raw, req.raw, req.params.name)
    })
  }, names.map((n) => `/${n}`))
  for (const { what, mode, fastify, hotpath } of pairs) {
    // a stream that ends at once: node:http frames it chunked; hotpath's
    // engines (and its inject()) send it with the Content-Length they
    // know when its end comes before the head was written
    if (what.startsWith('GET /stream')) {
      for (const h of ['content-length', 'transfer-encoding']) { delete fastify.headers[h]; delete hotpath.headers[h] }
    }
    delete fastify.headers.date
    delete hotpath.headers.date
    assert.deepEqual(hotpath, fastify, what)
  }
})

test("request[kRouteContext] and reply[kRouteContext] are the route's context, with Fastify's hook arrays (null when none)", async () => {
  const seen = []
  const build = (symbols) => (app) => {
    app.register(async (scoped) => {
      scoped.addHook('onRequest', async () => {})
      scoped.addHook('preHandler', (req, reply, done) => done())
      scoped.get('/hooked', { config: { tag: 't' } }, (req, reply) => {
        const ctx = req[symbols.kRouteContext]
        seen.push({
          same: reply[symbols.kRouteContext] === ctx,
          tag: ctx.config.tag,
          hooks: Object.fromEntries(['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort']
            .map((name) => [name, ctx[name] === null ? null : ctx[name].length]))
        })
        reply.send('ok')
      })
    })
    app.get('/plain', (req, reply) => { seen.push({ onRequest: req[symbols.kRouteContext].onRequest }); reply.send('ok') })
  }
  const Fastify = require('fastify')
  const { default: hotpathFastify } = await import('../lib/fastify.js')
  for (const [make, symbols] of [[Fastify, fastifySymbols], [hotpathFastify, hotpathSymbols]]) {
    const app = make()
    build(symbols)(app)
    assert.equal((await app.inject('/hooked')).body, 'ok')
    assert.equal((await app.inject('/plain')).body, 'ok')
    await app.close()
  }
  assert.equal(seen.length, 4)
  assert.deepEqual(seen[2], seen[0])
  assert.deepEqual(seen[3], seen[1])
  assert.deepEqual(seen[0].hooks.onRequest, 1)
})

test('hotpath/fastify/lib/symbols names every symbol fastify/lib/symbols does', () => {
  assert.deepEqual(Object.keys(hotpathSymbols).sort(), Object.keys(fastifySymbols).sort())
  for (const value of Object.values(hotpathSymbols)) assert.equal(typeof value, 'symbol')
  assert.equal(require('hotpath/fastify/lib/reply'), HotpathReply)
  assert.equal(require('hotpath/fastify/lib/symbols').kRouteContext, hotpathSymbols.kRouteContext)
})

test('hotpath/fastify/lib/errors has every constructor fastify/lib/errors has, with its name, code, status and message; what hotpath/fastify throws is an instance of it', async () => {
  const fastifyErrors = require('fastify/lib/errors')
  const hotpathErrors = require('hotpath/fastify/lib/errors')
  const { default: imported } = await import('hotpath/fastify/lib/errors')
  assert.equal(imported, hotpathErrors)
  assert.deepEqual(Object.keys(hotpathErrors).sort(), Object.keys(fastifyErrors).sort())
  for (const code of Object.keys(fastifyErrors).filter((k) => k.startsWith('FST_'))) {
    const theirs = new fastifyErrors[code]('a', 'b')
    const ours = new hotpathErrors[code]('a', 'b')
    assert.deepEqual([ours.name, ours.code, ours.statusCode, ours.message], [theirs.name, theirs.code, theirs.statusCode, theirs.message], code)
  }
  assert.deepEqual(Object.keys(hotpathErrors.AVVIO_ERRORS_MAP), Object.keys(fastifyErrors.AVVIO_ERRORS_MAP))
  const cause = new Error('old')
  assert.equal(hotpathErrors.appendStackTrace(cause, new Error('new')).cause, cause)
  // a plugin's test compares what it caught with one of them, as on Fastify
  const { default: fastifyEntry } = await import('../lib/fastify.js')
  const app = fastifyEntry()
  app.addSchema({ $id: 'a', type: 'object' })
  assert.throws(() => app.addSchema({ $id: 'a', type: 'object' }), new hotpathErrors.FST_ERR_SCH_ALREADY_PRESENT('a'))
  assert.throws(() => app.addSchema({ $id: 'a', type: 'object' }), hotpathErrors.FST_ERR_SCH_ALREADY_PRESENT)
  assert.equal(hotpathErrors.FST_ERR_BAD_URL, fastifyEntry.errorCodes.FST_ERR_BAD_URL)
})
