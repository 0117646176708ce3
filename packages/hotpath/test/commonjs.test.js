// A CommonJS application requires hotpath as it requires fastify: the
// factory itself, with .default and the named exports on it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fastifyEsm, { fastify as named } from 'hotpath/fastify'
import hotpathEsm, { plugin, HttpError } from 'hotpath'

test('require(\'hotpath/fastify\') and require(\'hotpath\') from a .cjs file return the factories', () => {
  const file = fileURLToPath(new URL('./commonjs-entry.cjs', import.meta.url))
  const out = JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' }))
  assert.deepEqual(out, {
    fastifyType: 'function',
    fastifyDefault: true,
    fastifyNamed: true,
    hotpathType: 'function',
    hotpathDefault: true,
    hotpathNamed: true,
    plugin: 'function',
    HttpError: 'function',
    errorCodes: 'FST_ERR_NOT_FOUND',
    body: { hello: 'cjs' },
    body2: 'plain'
  })
})

test('the ES module imports are unchanged', () => {
  assert.equal(typeof fastifyEsm, 'function')
  assert.equal(named, fastifyEsm)
  assert.equal(typeof hotpathEsm, 'function')
  assert.equal(typeof plugin, 'function')
  assert.equal(typeof HttpError, 'function')
})
