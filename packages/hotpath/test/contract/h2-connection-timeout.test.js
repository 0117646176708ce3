// connectionTimeout on the h2 engine: the HTTP/2 server's timeout, as
// Fastify sets it (server.timeout), beside Fastify.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

test("connectionTimeout is the HTTP/2 server's timeout, as on Fastify", async () => {
  for (const options of [{ connectionTimeout: 3, http2: true }, { http2: true }]) {
    const theirs = Fastify(options)
    const ours = hotpathFastify(options)
    try {
      assert.equal(ours.server.timeout, theirs.server.timeout, JSON.stringify(options))
    } finally {
      await Promise.all([theirs.close(), ours.close()])
    }
  }
})
