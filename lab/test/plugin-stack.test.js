// The plugin-stack scenario: Fastify and both hotpath engines load the five
// official plugins unmodified and pass its conformance (the plugins' headers,
// the cookie set, the token refused, the body refused, the preflight), with
// the very same body bytes; every other target says it does not serve it.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { targets } from '../targets/index.js'
import { getScenario, signHs256, jwtSecret } from '../scenarios/index.js'
import { startServer } from '../runner/server.js'
import { checkTarget } from '../runner/conformance.js'
import { exchange } from '../runner/http-client.js'

const scenario = getScenario('plugin-stack')
const SERVING = ['fastify', 'hotpath-node', 'hotpath-wire']

// startTimeout 0: wait until the target listens or exits, however long a
// loaded machine takes; the test's timeout bounds a hang
/** @param {import('../targets/index.js').Target} target */
const start = (target) => startServer({ file: target.file, env: { ...target.env, LAB_SCENARIO: scenario.id }, nodeBin: process.execPath, cpu: null, startTimeout: 0 })

test('the plugin-stack scenario is taken against Fastify, whose plugins it runs', () => {
  assert.equal(scenario.baseline, 'fastify')
  assert.ok(SERVING.includes(scenario.baseline))
})

test('signHs256 makes a compact JWT: header, payload, and a signature that depends on the secret', () => {
  // That @fastify/jwt accepts it is checked by the conformance below (200 for
  // the scenario's token, 401 for one signed with another secret).
  const token = signHs256({ sub: 'ada' }, jwtSecret)
  const [header, payload, signature] = token.split('.')
  assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url')), { alg: 'HS256', typ: 'JWT' })
  assert.deepEqual(JSON.parse(Buffer.from(payload, 'base64url')), { sub: 'ada' })
  assert.match(signature, /^[A-Za-z0-9_-]{43}$/)
  assert.notEqual(signHs256({ sub: 'ada' }, 'another').split('.')[2], signature)
})

/** The body each serving target sent to the timed request. */
const bodies = new Map()

for (const target of targets.filter((t) => SERVING.includes(t.id))) {
  test(`target ${target.id} runs the plugin stack correctly`, { timeout: 60000 }, async () => {
    const srv = await start(target)
    try {
      const r = await checkTarget({ port: srv.port, scenario })
      assert.deepEqual(r.problems, [], target.id)
      const [res] = await exchange({ port: srv.port, request: scenario.request })
      bodies.set(target.id, res.body)
    } finally {
      await srv.stop()
    }
  })
}

test('every serving target sends the same body bytes', () => {
  assert.equal(bodies.size, SERVING.length, 'every serving target answered')
  const [first, ...rest] = [...bodies]
  for (const [id, body] of rest) assert.ok(body.equals(first[1]), `${id}'s body differs from ${first[0]}'s`)
})

test('the other targets exit as not serving the scenario', { timeout: 120000 }, async () => {
  // a traced twin (otel.test.js) serves what its untraced target serves
  const others = targets.filter((t) => !SERVING.includes(t.untraced ?? t.id))
  assert.ok(others.length > 0)
  await Promise.all(others.map((t) => assert.rejects(start(t), (err) => err.unsupported === true, t.id)))
})
