// The production entry, started as a child process: it answers, and it runs
// on the framework its parent runs on (HOTPATH_ENGINE is set in the
// processes of a `hotpath check` run on hotpath, which children inherit).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

test('server.js serves in a child process, on the same framework', async () => {
  const child = fork(fileURLToPath(new URL('../server.js', import.meta.url)), { env: { ...process.env, PORT: '0' }, stdio: 'inherit' })
  try {
    const { address } = await new Promise((resolve, reject) => {
      child.once('message', resolve)
      child.once('exit', (code) => reject(new Error(`server.js exited with ${code}`)))
    })
    const health = await fetch(`${address}/health`)
    assert.equal(health.status, 200)
    const { framework } = await (await fetch(`${address}/framework`)).json()
    assert.equal(framework, process.env.HOTPATH_ENGINE ? 'hotpath' : 'fastify')
  } finally {
    child.kill()
  }
})
