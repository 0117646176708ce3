// `req.raw` and `reply.raw` keep working when code swaps their prototypes
// for other descendants of node's IncomingMessage and ServerResponse, as
// Express's app.handle does for every request it handles
// (`Object.setPrototypeOf(res, app.response)`): from then on node's own
// methods run on the objects (setHeader, writeHead, write, end, the
// `headers` getter, the body stream), and the engine still gets the
// answer. @fastify/express (and with it NestJS's Express middleware on
// Fastify) calls an Express app from an onRequest hook this way.
//
// A differential test: the same app on Fastify and on hotpath/fastify,
// the same requests, over a socket on each HTTP/1.1 engine. Under
// inject(), Fastify's answers are not the reference: light-my-request
// collects the body in its own write()/end(), which the swap removes (the
// body comes back empty); hotpath's inject answers are compared with its
// socket answers instead.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { createRequire } from 'node:module'
import { besideFastify } from '../helpers/beside-fastify.js'

const require = createRequire(import.meta.url)
const express = require('express')

/**
 * The same app for either framework: an Express app run from an onRequest
 * hook, answering some paths itself and handing the rest on.
 * @param {any} app
 */
function build (app) {
  const ex = express()
  ex.disable('x-powered-by')
  // node's headers getter and setHeader, after the swap
  ex.use((/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => {
    res.setHeader('x-probe-seen', String(req.headers['x-probe'] ?? 'none'))
    next()
  })
  // Express answers: its res.status/set/send (node's writeHead and end)
  ex.get('/express/answer', (/** @type {any} */ req, /** @type {any} */ res) => {
    res.status(202).set('x-from', 'express').send(`hi ${req.query.name}`)
  })
  // a body read by Express's parsers from the request stream
  ex.post('/express/json', express.json(), (/** @type {any} */ req, /** @type {any} */ res) => {
    res.status(201).json({ got: req.body, type: req.headers['content-type'] })
  })
  ex.post('/express/form', express.urlencoded({ extended: false }), (/** @type {any} */ req, /** @type {any} */ res) => {
    res.json(req.body)
  })
  // written in parts, in later turns: a stream to the engine
  ex.get('/express/parts', (/** @type {any} */ req, /** @type {any} */ res) => {
    res.setHeader('content-type', 'text/plain')
    res.write('one,')
    setTimeout(() => {
      res.write('two,')
      setTimeout(() => res.end('three'), 5)
    }, 5)
  })
  ex.get('/express/empty', (/** @type {any} */ req, /** @type {any} */ res) => {
    res.statusCode = 204
    res.end()
  })
  // a status set through Express, the answer Fastify's
  ex.use('/status', (/** @type {any} */ req, /** @type {any} */ res, /** @type {Function} */ next) => {
    res.status(203)
    next()
  })
  app.addHook('onRequest', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => {
    ex(req.raw, reply.raw, done)
  })
  app.get('/status', async () => ({ from: 'route' }))
  app.get('/route', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.header('x-route', 'yes')
    return { probe: req.raw.headers['x-probe'] ?? null, swapped: !(req.raw instanceof http.IncomingMessage) || Object.getPrototypeOf(req.raw) !== http.IncomingMessage.prototype }
  })
}

const REQUESTS = [
  { url: '/express/answer?name=ada', headers: { 'x-probe': 'p1' } },
  { method: 'POST', url: '/express/json', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: [1, 2], b: 'x' }) },
  { method: 'POST', url: '/express/form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'input=test&n=2' },
  { url: '/express/parts' },
  { url: '/express/empty' },
  { url: '/status', headers: { 'x-probe': 'p2' } },
  { url: '/route', headers: { 'x-probe': 'p3' } }
]

/** What is compared: status, body, and the headers the app sets. @param {{ statusCode: number, headers: Record<string, any>, body: string }} a */
function seen (a) {
  const { date, connection, 'keep-alive': keepAlive, 'transfer-encoding': te, 'content-length': length, ...headers } = a.headers
  return { status: a.statusCode, headers, body: a.body }
}

test('after Express swaps the prototypes: the same answers as Fastify over a socket, on every engine', async () => {
  const answers = await besideFastify(build, REQUESTS, { modes: ['node', 'wire'] })
  assert.equal(answers.length, REQUESTS.length * 2)
  for (const { what, fastify, hotpath } of answers) {
    assert.deepEqual(seen(hotpath), seen(fastify), what)
  }
  // the answers are what the app wrote (not two empty answers alike)
  const answer = answers.find((a) => a.what.startsWith('GET /express/answer'))
  assert.equal(answer?.hotpath.body, 'hi ada')
  assert.equal(answer?.hotpath.headers['x-probe-seen'], 'p1')
  assert.equal(answers.find((a) => a.what.startsWith('POST /express/json'))?.hotpath.statusCode, 201)
  assert.equal(answers.find((a) => a.what.startsWith('GET /express/parts'))?.hotpath.body, 'one,two,three')
  assert.equal(answers.find((a) => a.what.startsWith('GET /status'))?.hotpath.statusCode, 203)
})

test('after Express swaps the prototypes: inject() answers as the socket engines do', async () => {
  const injected = await besideFastify(build, REQUESTS, { modes: ['inject'] })
  const overSocket = await besideFastify(build, REQUESTS, { modes: ['wire'] })
  for (let i = 0; i < REQUESTS.length; i++) {
    assert.deepEqual(seen(injected[i].hotpath), seen(overSocket[i].hotpath), injected[i].what)
  }
})

test('a swapped response: node:http\'s own methods called on reply.raw reach the client', async () => {
  /** @param {any} app */
  const swapping = (app) => {
    app.addHook('onRequest', async (/** @type {any} */ req, /** @type {any} */ reply) => {
      Object.setPrototypeOf(req.raw, Object.create(http.IncomingMessage.prototype))
      Object.setPrototypeOf(reply.raw, Object.create(http.ServerResponse.prototype))
    })
    app.get('/node-methods', (/** @type {any} */ req, /** @type {any} */ reply) => {
      http.ServerResponse.prototype.setHeader.call(reply.raw, 'x-host', req.raw.headers.host === undefined ? 'none' : 'seen')
      reply.raw.writeHead(200, { 'content-type': 'text/plain' })
      reply.raw.end(`ua=${req.raw.headers['user-agent']}`)
    })
    app.get('/reply', async () => ({ ok: true }))
  }
  const asks = [{ url: '/node-methods', headers: { 'user-agent': 'probe/1' } }, { url: '/reply' }]
  for (const { what, fastify, hotpath } of await besideFastify(swapping, asks, { modes: ['node', 'wire'] })) {
    assert.deepEqual(seen(hotpath), seen(fastify), what)
  }
})

test('request.raw replaced by a plugin, and a status set on reply.raw: as Fastify\'s fields, on inject and every engine', async () => {
  /** @param {any} app */
  const build = (app) => {
    // @fastify/express's createProxyHandler puts a Proxy in request.raw's place
    app.addHook('onRequest', async (/** @type {any} */ req) => {
      req.raw = new Proxy(req.raw, { get: (target, name) => name === 'tag' ? 'proxied' : Reflect.get(target, name) })
    })
    app.get('/proxied', async (/** @type {any} */ req) => ({ tag: req.raw.tag, method: req.raw.method }))
    // the status node's response holds is the reply's (Fastify's statusCode reads reply.raw's)
    app.get('/raw-status', async (/** @type {any} */ req, /** @type {any} */ reply) => {
      reply.raw.statusCode = 202
      return { seen: reply.statusCode }
    })
    app.get('/reply-status', async (/** @type {any} */ req, /** @type {any} */ reply) => {
      reply.code(201)
      return { raw: reply.raw.statusCode }
    })
  }
  const answers = await besideFastify(build, ['/proxied', '/raw-status', '/reply-status'])
  assert.equal(answers.length, 9)
  for (const { what, fastify, hotpath } of answers) assert.deepEqual(seen(hotpath), seen(fastify), what)
  assert.deepEqual(JSON.parse(answers[0].fastify.body), { tag: 'proxied', method: 'GET' })
  assert.equal(answers[1].fastify.statusCode, 202)
})
