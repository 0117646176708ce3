// When app.inject() resolves, against Fastify's (light-my-request resolves
// on the tick after the response finished). A log destination that calls
// back on the next tick (as a test's collecting Writable often does) holds
// the request's second line until then: it must be written when inject()
// resolves, as on Fastify.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import pino from 'pino'
import hotpathFastify from '../../lib/fastify.js'

/** @param {any} factory */
async function linesAfterInject (factory) {
  /** @type {string[]} */
  const lines = []
  const destination = new Writable({
    write (chunk, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()).msg)
      process.nextTick(callback)
    }
  })
  const app = factory({ loggerInstance: pino({ level: 'info' }, destination) })
  app.get('/', (_req, /** @type {any} */ reply) => { reply.send() })
  const res = await app.inject('/')
  const seen = lines.slice()
  await app.close()
  return { status: res.statusCode, seen }
}

test('inject() resolves after a log destination that calls back on the next tick has written the completion line', async () => {
  const fastify = await linesAfterInject(Fastify)
  const hotpath = await linesAfterInject(hotpathFastify)
  assert.deepEqual(fastify, { status: 200, seen: ['incoming request', 'request completed'] })
  assert.deepEqual(hotpath, fastify)
})
