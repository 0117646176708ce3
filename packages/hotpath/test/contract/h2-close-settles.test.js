// close() settles on the h2 engine when a client that made a request has
// destroyed its session (light HTTP/2 clients, h2url among them, destroy it
// as their stream ends): the graceful shutdown's wait for the client's
// PING answer held only an unref'd timer, so a process with nothing else
// to do emptied its event loop with close() still pending, and code after
// `await app.close()` never ran. Run in a child process, beside Fastify,
// which closes such sessions at once: each prints what follows its close.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

const script = (/** @type {string} */ entry) => `
import http2 from 'node:http2'
const { default: make } = await import(${JSON.stringify(entry)})
const app = make({ http2: true })
app.get('/', async () => 'ok')
await app.listen({ port: 0, host: '127.0.0.1' })
const client = http2.connect('http://127.0.0.1:' + app.server.address().port)
const req = client.request({ ':path': '/' })
req.end()
req.on('close', () => client.destroy())
let body = ''
req.setEncoding('utf8')
req.on('data', (c) => { body += c })
await new Promise((resolve) => req.on('end', resolve))
await app.close()
console.log('after close: ' + body)
`

/** @param {string} entry */
function run (entry) {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', script(entry)], { timeout: 30_000 }, (err, stdout) => {
      resolve({ code: err === null ? 0 : /** @type {any} */ (err).code, stdout: stdout.trim() })
    })
  })
}

test('close() settles on the h2 engine after a client destroyed its session, as on Fastify', async () => {
  const theirs = await run(require.resolve('fastify'))
  const ours = await run(new URL('../../lib/fastify.js', import.meta.url).href)
  assert.deepEqual(ours, theirs)
  assert.deepEqual(theirs, { code: 0, stdout: 'after close: ok' })
})
