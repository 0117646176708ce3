// Request-scoped async context, as Fastify carries it: a store an
// onRequest hook enters (around done(), through an AsyncResource as
// @fastify/request-context does, or with enterWith) is what every later
// stage sees: the hooks, the body parser's continuation, the handler,
// onSend and onResponse. A differential test: the same app on Fastify and
// on hotpath/fastify, the same requests, the stores each stage saw
// compared, through inject and over a socket on every engine. Over a
// socket the body comes 20 ms after the head, so reading it goes async.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'
import http from 'node:http'
import http2 from 'node:http2'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import { engineOption, MODES } from '../helpers/engines.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

const als = new AsyncLocalStorage()

/** How an onRequest hook enters the store. @type {Record<string, Function>} */
const ENTRIES = {
  'als.run(store, done)': (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => als.run({ id: req.headers['x-trial'] }, done),
  'resource.runInAsyncScope(done)': (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => {
    /** @type {AsyncResource} */
    const resource = als.run({ id: req.headers['x-trial'] }, () => new AsyncResource('test:context'))
    resource.runInAsyncScope(/** @type {any} */ (done), req.raw)
  },
  'enterWith in an async hook': async (/** @type {any} */ req) => { als.enterWith({ id: req.headers['x-trial'] }) },
  'enterWith, then done()': (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => {
    als.enterWith({ id: req.headers['x-trial'] })
    done()
  }
}

/**
 * The same app for either framework: each stage notes the store it sees,
 * by trial id, in `seen`.
 * @param {any} app
 * @param {Function} entry
 * @param {Map<string, string[]>} seen
 */
function build (app, entry, seen) {
  const mark = (/** @type {any} */ req, /** @type {string} */ stage) => {
    const trial = req.headers['x-trial']
    const list = seen.get(trial) ?? []
    list.push(`${stage}:${als.getStore()?.id === trial ? 'store' : 'none'}`)
    seen.set(trial, list)
  }
  app.addHook('onRequest', entry)
  app.addHook('preParsing', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload, /** @type {Function} */ done) => { mark(req, 'preParsing'); done(null, payload) })
  app.addHook('preValidation', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => { mark(req, 'preValidation'); done() })
  app.addHook('preHandler', async (/** @type {any} */ req) => { mark(req, 'preHandler') })
  app.addHook('preSerialization', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => { mark(req, 'preSerialization'); return payload })
  app.addHook('onSend', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload, /** @type {Function} */ done) => { mark(req, 'onSend'); done(null, payload) })
  app.addHook('onResponse', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => { mark(req, 'onResponse'); done() })
  const handler = async (/** @type {any} */ req) => {
    mark(req, 'handler')
    return { store: als.getStore()?.id ?? null, body: req.body ?? null }
  }
  app.get('/', handler)
  app.post('/', handler)
}

/**
 * One request over a socket; a POST's body is written 20 ms after its head.
 * @param {number} port
 * @param {string} method
 * @param {string} trial
 * @returns {Promise<{ status: number, body: string }>}
 */
function socketRequest (port, method, trial) {
  return new Promise((resolve, reject) => {
    const headers = { 'x-trial': trial, ...(method === 'POST' ? { 'content-type': 'application/json', 'content-length': '7' } : {}) }
    const req = http.request({ port, host: '127.0.0.1', method, path: '/', headers, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => { body += c })
      res.on('end', () => resolve({ status: /** @type {number} */ (res.statusCode), body }))
    })
    req.on('error', reject)
    if (method === 'POST') {
      req.flushHeaders()
      setTimeout(() => req.end('{"a":1}'), 20)
    } else {
      req.end()
    }
  })
}

/**
 * The same over HTTP/2 (prior knowledge), for the h2 engine.
 * @param {number} port
 * @param {string} method
 * @param {string} trial
 * @returns {Promise<{ status: number, body: string }>}
 */
function h2Request (port, method, trial) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`)
    session.on('error', reject)
    const headers = { ':method': method, ':path': '/', 'x-trial': trial, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }
    const stream = session.request(headers, { endStream: method !== 'POST' })
    let status = 0
    let body = ''
    stream.setEncoding('utf8')
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.on('data', (c) => { body += c })
    stream.on('end', () => {
      session.close()
      resolve({ status, body })
    })
    stream.on('error', reject)
    if (method === 'POST') setTimeout(() => stream.end('{"a":1}'), 20)
  })
}

/**
 * Runs the trial on one app and returns the answer and the stages' notes.
 * @param {any} app
 * @param {Map<string, string[]>} seen
 * @param {false | 'http' | 'h2'} overSocket
 * @param {string} method
 * @param {string} trial
 */
async function run (app, seen, overSocket, method, trial) {
  let res
  if (overSocket) {
    const port = app.server.address().port
    res = await (overSocket === 'h2' ? h2Request : socketRequest)(port, method, trial)
  } else {
    const r = await app.inject({ method, url: '/', headers: { 'x-trial': trial }, ...(method === 'POST' ? { payload: { a: 1 } } : {}) })
    res = { status: r.statusCode, body: r.body }
  }
  // onResponse runs once the response is handed over, which the client
  // may see first: wait for its note (bounded)
  for (let i = 0; i < 100 && !(seen.get(trial) ?? []).some((s) => s.startsWith('onResponse')); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  return { res, stages: seen.get(trial) ?? [] }
}

/** @type {Array<() => Promise<unknown>>} */
const closing = []
after(() => Promise.all(closing.map((close) => close())))

for (const mode of MODES) {
  // h2 is set beside Fastify over HTTP/1.1: the stages are the same
  const overSocket = mode !== 'inject'
  for (const [name, entry] of Object.entries(ENTRIES)) {
    test(`a store entered by ${name} reaches every later stage [${mode}]`, async () => {
      const seenF = new Map()
      const seenH = new Map()
      const fastify = Fastify()
      build(fastify, entry, seenF)
      const app = hotpathFastify(engineOption(mode))
      build(app, entry, seenH)
      closing.push(() => fastify.close(), () => app.close())
      if (overSocket) {
        await fastify.listen({ port: 0, host: '127.0.0.1' })
        await app.listen({ port: 0, host: '127.0.0.1' })
      } else {
        await Promise.all([fastify.ready(), app.ready()])
      }
      for (const method of ['GET', 'POST']) {
        const trial = `${method}-${mode}`
        const f = await run(fastify, seenF, overSocket && 'http', method, trial)
        const h = await run(app, seenH, overSocket && (mode === 'h2' ? 'h2' : 'http'), method, trial)
        assert.equal(h.res.status, 200)
        assert.deepEqual(JSON.parse(h.res.body), JSON.parse(f.res.body), `${method}: the handler's answer`)
        assert.equal(JSON.parse(h.res.body).store, trial, `${method}: the handler sees the store`)
        assert.deepEqual(h.stages, f.stages, `${method}: what each stage saw`)
        assert.ok(f.stages.length >= 7 && f.stages.every((s) => s.endsWith(':store')), `${method}: on Fastify every stage saw the store: ${f.stages}`)
      }
    })
  }
}
