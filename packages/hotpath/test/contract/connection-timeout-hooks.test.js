// onTimeout when the connection's idle timeout (connectionTimeout) ends a
// request still in flight, against Fastify (which runs the route's onTimeout
// hooks on the socket's 'timeout', before the socket closes): the hooks
// that run, in their order, and what the client gets, on each HTTP/1.1
// engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import Fastify from 'fastify'
import hotpathFastify from '../../lib/fastify.js'

/**
 * @param {any} factory
 * @param {Record<string, any>} options
 */
async function timedOut (factory, options) {
  /** @type {string[]} */
  const events = []
  /** @type {() => void} */
  let hooksRan = () => {}
  const ran = new Promise((resolve) => { hooksRan = () => resolve(undefined) })
  /** @type {() => void} */
  let release = () => {}
  const released = new Promise((resolve) => { release = () => resolve(undefined) })
  const app = factory({ connectionTimeout: 50, ...options })
  app.addHook('onTimeout', async (/** @type {any} */ req) => { events.push(`onTimeout ${req.url}`) })
  app.addHook('onRequestAbort', async (/** @type {any} */ req) => {
    events.push(`onRequestAbort ${req.url}`)
    hooksRan()
  })
  app.get('/wait', async () => {
    await released
    return { late: true }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const client = await new Promise((resolve) => {
    const req = http.get({ port: app.server.address().port, path: '/wait', agent: false })
    req.on('response', (res) => resolve(`answered ${res.statusCode}`))
    // the onTimeout hooks ran before the client saw the socket close
    req.on('error', (err) => resolve(`${err.message}, onTimeout before: ${events.includes('onTimeout /wait')}`))
  })
  await ran
  release()
  await app.close()
  return { client, events }
}

test('connectionTimeout: the route\'s onTimeout hooks run when the socket times out with the request in flight, before onRequestAbort', async () => {
  const fastify = await timedOut(Fastify, {})
  assert.deepEqual(fastify, { client: 'socket hang up, onTimeout before: true', events: ['onTimeout /wait', 'onRequestAbort /wait'] })
  for (const engine of ['wire', 'node']) {
    assert.deepEqual(await timedOut(hotpathFastify, { engine }), fastify, engine)
  }
})
