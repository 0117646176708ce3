// When onResponse runs, against Fastify (on the response's 'finish', which
// node:http emits after the socket write): after the code that sent the
// reply has returned, the handler and the hook whose done() went on to it,
// on each HTTP/1.1 engine. (Under Fastify's inject(), light-my-request's
// response finishes within end(): not compared here.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify, assertSameAnswers } from '../helpers/beside-fastify.js'

test('onResponse runs after the handler that sent the reply and the hook that called done() have returned', async () => {
  /** @type {Map<any, string[]>} the events of each app */
  const events = new Map()
  /** @type {Map<any, Promise<void>>} each app's last onResponse */
  const responded = new Map()
  const answers = await besideFastify((app) => {
    /** @type {string[]} */
    const seen = []
    events.set(app, seen)
    /** @type {() => void} */
    let ran = () => {}
    app.addHook('onRequest', (/** @type {any} */ _req, /** @type {any} */ _reply, /** @type {() => void} */ done) => {
      responded.set(app, new Promise((resolve) => { ran = () => resolve(undefined) }))
      done()
    })
    app.addHook('preHandler', (/** @type {any} */ _req, /** @type {any} */ _reply, /** @type {() => void} */ done) => {
      done()
      seen.push('preHandler done() returned')
    })
    app.addHook('onResponse', (/** @type {any} */ _req, /** @type {any} */ _reply, /** @type {() => void} */ done) => {
      seen.push('onResponse')
      ran()
      done()
    })
    app.get('/', (/** @type {any} */ _req, /** @type {any} */ reply) => {
      reply.send('ok')
      seen.push('send() returned')
    })
  }, ['/'], { modes: ['node', 'wire'] })
  // (the Date is not compared: the two answers may fall either side of a second)
  assertSameAnswers(answers, ['content-type', 'content-length', 'connection'])
  await Promise.all(responded.values())
  // built in pairs, Fastify's app first, for each mode
  const all = [...events.values()]
  for (let i = 0; i < all.length; i += 2) {
    assert.deepEqual(all[i], ['send() returned', 'preHandler done() returned', 'onResponse'], answers[i / 2].what)
    assert.deepEqual(all[i + 1], all[i], answers[i / 2].what)
  }
})
