// A difference planted for `hotpath check` to report: this test reads
// Fastify's internal state through its private symbols, which hotpath only
// names (docs/migrating-from-fastify.md, "Internals"). It passes on Fastify
// and fails on hotpath.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { build } from '../app.js'

const require = createRequire(import.meta.url)

test("Fastify's internal state says the app is listening", async () => {
  const { kState } = require('fastify/lib/symbols')
  const app = build()
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    assert.equal(app[kState].listening, true)
  } finally {
    await app.close()
  }
})
