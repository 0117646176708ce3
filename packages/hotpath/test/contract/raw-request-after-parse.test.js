// req.raw once the route's parser has read the body: ended and no longer
// readable, as node's IncomingMessage is then (on-finished, which Express
// middleware and `finished()` rely on, counts such a request as done); a
// GET whose body nobody read is still readable. Also `upgrade`, which
// node's parser sets on every request. Compared with Fastify through
// inject() and over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'

/** @param {any} raw */
const state = (raw) => ({ readable: raw.readable, readableEnded: raw.readableEnded, upgrade: raw.upgrade ?? 'absent' })

/** @param {any} app */
function build (app) {
  app.post('/parsed', (/** @type {any} */ req) => ({ body: req.body, ...state(req.raw) }))
  app.get('/unread', (/** @type {any} */ req) => state(req.raw))
  // req.raw made before the body is read (an onRequest hook looked at it)
  app.post('/touched-early', { onRequest: (/** @type {any} */ req, /** @type {any} */ _reply, /** @type {Function} */ done) => { req.early = state(req.raw); done() } }, (/** @type {any} */ req) => ({ early: req.early, ...state(req.raw) }))
}

test("req.raw's readable state after the body was parsed, as on Fastify", async () => {
  const json = { 'content-type': 'application/json' }
  const answers = await besideFastify(build, [
    { method: 'POST', url: '/parsed', headers: json, payload: '{"a":1}' },
    '/unread',
    { method: 'POST', url: '/touched-early', headers: json, payload: '{"a":1}' }
  ])
  for (const { what, mode, fastify, hotpath } of answers) {
    const theirs = JSON.parse(fastify.body)
    const ours = JSON.parse(hotpath.body)
    // light-my-request's request has no `upgrade`
    if (mode === 'inject') for (const o of [ours, ours.early, theirs, theirs.early]) delete o?.upgrade
    assert.deepEqual(ours, theirs, what)
  }
  const wire = answers.filter((a) => a.mode === 'wire').map((a) => JSON.parse(a.fastify.body))
  assert.deepEqual(wire[0], { body: { a: 1 }, readable: false, readableEnded: true, upgrade: false })
  assert.deepEqual(wire[1], { readable: true, readableEnded: false, upgrade: false })
})
