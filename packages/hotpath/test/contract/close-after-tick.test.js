// close() settles after a process.nextTick at least, as Fastify's does (its
// boot queues the close there): a tick queued right after close() runs
// first. A test that queues subtests in a ready() callback and closes the
// app in its after hook (@fastify/mysql's) had its last subtest cancelled
// when close() settled within the microtasks. Beside Fastify, listening
// or not; hotpath's own entry too.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'
import hotpath from '../../lib/index.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

for (const [name, make] of /** @type {const} */ ([['Fastify', Fastify], ['hotpath/fastify', hotpathFastify], ['hotpath', hotpath]])) {
  for (const listening of [false, true]) {
    test(`close() settles after a tick queued right after it [${name}, ${listening ? 'listening' : 'not listening'}]`, async () => {
      const app = /** @type {any} */ (make)()
      app.get('/', () => 'x')
      await app.ready()
      if (listening) await app.listen({ port: 0, host: '127.0.0.1' })
      /** @type {string[]} */
      const order = []
      const closed = app.close().then(() => order.push('closed'))
      process.nextTick(() => order.push('tick'))
      await closed
      assert.deepEqual(order, ['tick', 'closed'])
    })
  }
}
