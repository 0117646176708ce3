'use strict'
// The application type-checks under --strict, with its dependencies'
// declarations checked too (no skipLibCheck): a hotpath/fastify instance is
// what FastifyAdapter's constructor takes when @nestjs/platform-fastify's
// `fastify` is the one hotpath's declarations use (~5.12.1: the overrides
// entry of the repository's package.json; see docs/nestjs.md).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { execFile } = require('node:child_process')
const { join } = require('node:path')

const root = join(__dirname, '..')

test('tsc --noEmit finds no error', { timeout: 90_000 }, async () => {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [root] })
  const run = await new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--noEmit'], { cwd: root },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, output: stdout + stderr }))
  })
  assert.equal(run.code, 0, run.output)
})
