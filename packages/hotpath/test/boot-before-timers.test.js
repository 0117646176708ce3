// An app that is not ready yet boots within the turn that called ready()
// or inject(), as Fastify's does (its boot goes through process.nextTick
// and microtasks only): a plugin that does no I/O has loaded, and an
// injected request has its answer, before the timers and setImmediate
// callbacks set in that turn run. A test that injects with a callback and
// then waits for a short timer (@fastify/cors's "custom hook with dynamic
// config (callback)" waits for a 1 ms sleep) sees the answers first.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import hotpathFastify from '../lib/fastify.js'

/**
 * What comes first: the answer, a setTimeout(0) or a setImmediate, both
 * set before the app is started.
 * @param {any} factory
 * @param {(app: any) => Promise<string>} start  resolves with what it got
 */
async function firstOf (factory, start) {
  const app = factory()
  app.register((/** @type {any} */ instance, /** @type {any} */ _opts, /** @type {() => void} */ done) => {
    instance.addHook('preParsing', (/** @type {any} */ _req, /** @type {any} */ reply, /** @type {any} */ payload, /** @type {Function} */ next) => {
      reply.header('x-plugin', 'loaded')
      next(null, payload)
    })
    instance.get('/', (/** @type {any} */ _req, /** @type {any} */ reply) => { reply.send('ok') })
    done()
  })
  /** @type {string[]} */
  const seen = []
  const timeout = new Promise((resolve) => setTimeout(() => resolve(seen.push('setTimeout')), 0))
  const immediate = new Promise((resolve) => setImmediate(() => resolve(seen.push('setImmediate'))))
  const answered = start(app).then((got) => { seen.push(got) })
  await Promise.all([timeout, immediate, answered])
  await app.close()
  return seen[0]
}

/** @type {[string, (app: any) => Promise<string>][]} */
const starts = [
  ['ready()', (app) => app.ready().then(() => 'ready')],
  ['inject() with a callback', (app) => new Promise((resolve, reject) => {
    app.inject({ method: 'GET', url: '/' }, (/** @type {Error | null} */ err, /** @type {any} */ res) => {
      if (err) reject(err)
      else resolve(`${res.statusCode} ${res.body} ${res.headers['x-plugin']}`)
    })
  })],
  ['inject() as a promise', (app) => app.inject('/').then((/** @type {any} */ res) => `${res.statusCode} ${res.body} ${res.headers['x-plugin']}`)]
]

for (const [name, start] of starts) {
  test(`${name} on an app not yet ready answers before the turn's timers, as on Fastify`, async () => {
    const fastify = await firstOf(Fastify, start)
    assert.notEqual(fastify, 'setTimeout')
    assert.notEqual(fastify, 'setImmediate')
    assert.equal(await firstOf(hotpathFastify, start), fastify)
  })
}

// listen() on 'localhost', Fastify's default host, answers a turn of the
// event loop later: Fastify looks the name up once more when bound, to
// bind its other addresses, and what a plugin queued with setImmediate
// while it loaded has run by then (Fastify's own plugin tests count on it).
/** @param {any} factory */
async function listenAfterImmediate (factory) {
  // from inside a setImmediate callback, as a test that follows one that
  // ended there: the plugin's goes to the next turn
  await new Promise((resolve) => setImmediate(resolve))
  const app = factory()
  /** @type {string[]} */
  const seen = []
  app.register((/** @type {any} */ _instance, /** @type {any} */ _opts, /** @type {() => void} */ done) => {
    setImmediate(() => seen.push('setImmediate'))
    done()
  })
  await new Promise((resolve, reject) => app.listen({ port: 0 }, (/** @type {Error | null} */ err) => {
    seen.push('listening')
    if (err) reject(err)
    else resolve(undefined)
  }))
  await app.close()
  return seen
}

for (const engine of ['wire', 'node']) {
  test(`listen() on localhost answers after what plugins queued with setImmediate, as on Fastify (${engine})`, async () => {
    const fastify = await listenAfterImmediate(Fastify)
    assert.deepEqual(fastify, ['setImmediate', 'listening'])
    assert.deepEqual(await listenAfterImmediate(() => hotpathFastify({ engine })), fastify)
  })
}
