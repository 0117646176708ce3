// Optional dependencies stay unloaded until an app uses them: pino for a
// logger, ajv for validation, fast-json-stringify for response schemas,
// node:tls for HTTPS. Each case runs in a fresh child process, because a
// module once loaded stays loaded.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'

const run = promisify(execFile)
const entry = fileURLToPath(new URL('../lib/index.js', import.meta.url))

/**
 * Builds an app with `setup` in a child process, readies it, and returns
 * which of the optional modules the process has loaded by then.
 * @param {string} setup  code run with `app` in scope
 * @param {object} [options]  hotpath options
 */
async function loadedAfter (setup, options = { logger: false }) {
  const code = `
    import { createRequire } from 'node:module'
    import hotpath from ${JSON.stringify(entry)}
    const app = hotpath(${JSON.stringify(options)})
    ${setup}
    await app.ready()
    const req = createRequire(import.meta.url)
    const files = Object.keys(req.cache)
    const has = (dir) => files.some((f) => f.includes('/node_modules/' + dir + '/'))
    const tls = process.moduleLoadList.some((m) => m === 'NativeModule tls')
    console.log(JSON.stringify({ pino: has('pino'), ajv: has('ajv'), fjs: has('fast-json-stringify'), tls }))
    await app.close()
  `
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code])
  return JSON.parse(stdout)
}

test('an app without logger or schemas loads none of pino, ajv, fast-json-stringify, node:tls', async () => {
  const loaded = await loadedAfter("app.get('/', () => ({ hello: 'world' }))")
  assert.deepEqual(loaded, { pino: false, ajv: false, fjs: false, tls: false })
})

test('logger: true loads pino', async () => {
  const loaded = await loadedAfter("app.get('/', () => 'ok')", { logger: true })
  assert.equal(loaded.pino, true)
})

test('a body schema loads ajv; a response schema loads fast-json-stringify', async () => {
  const body = await loadedAfter("app.post('/', { schema: { body: { type: 'object' } } }, () => 'ok')")
  assert.equal(body.ajv, true)
  assert.equal(body.fjs, false)
  const response = await loadedAfter("app.get('/', { schema: { response: { 200: { type: 'object' } } } }, () => ({}))")
  assert.equal(response.fjs, true)
})
