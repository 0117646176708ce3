// ready() and listen() start the boot after what the calling code queued
// on process.nextTick and as microtasks, as Fastify's does: what is added
// after them meanwhile (a test file's first tests, a process.nextTick) is
// part of the app; once ready, adding a route is refused.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../lib/index.js'

test('routes and hooks added in the turn that called ready() are taken', async () => {
  const app = hotpath()
  const ready = app.ready()
  app.get('/same-tick', () => 'same tick')
  await Promise.resolve()
  app.get('/microtask', () => 'microtask')
  await new Promise((resolve) => process.nextTick(resolve))
  app.addHook('onRequest', (_req, reply, done) => { reply.header('x-hook', 'added late'); done() })
  await ready
  const res = await app.inject('/same-tick')
  assert.equal(res.body, 'same tick')
  assert.equal(res.headers['x-hook'], 'added late')
  assert.equal((await app.inject('/microtask')).body, 'microtask')
  assert.throws(() => app.get('/after', () => 'after'), { code: 'HP_ERR_ROUTE_AFTER_READY' })
})

test('the same for listen()', async () => {
  const app = hotpath()
  const listening = app.listen({ port: 0, host: '127.0.0.1' })
  app.get('/', () => 'taken')
  const base = await listening
  try {
    assert.equal(await (await fetch(base)).text(), 'taken')
  } finally {
    await app.close()
  }
})
