// cjs/, the CommonJS form of lib/ (scripts/build-cjs.js), for the tools that
// load the exports map's `require` condition as CommonJS themselves (Jest;
// examples/commonjs-jest runs its suite). Node's own require() and import
// load lib/ through `module-sync`; a Node without require(esm) loads cjs/.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = fileURLToPath(new URL('..', import.meta.url))
const lib = join(root, 'lib')
const cjs = join(root, 'cjs')

/** @param {string} dir @returns {string[]} */
function jsFiles (dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [])
}

test('Node\'s require() and import load lib/, one module graph', async () => {
  for (const entry of ['hotpath', 'hotpath/fastify', 'hotpath/typebox', 'hotpath/sinclair-typebox', 'hotpath/json-schema-to-ts']) {
    assert.match(require.resolve(entry), /[\\/]lib[\\/][\w-]+\.js$/, entry)
    assert.match(import.meta.resolve(entry), /\/lib\/[\w-]+\.js$/, entry)
  }
  const fastify = (await import('hotpath/fastify')).default
  assert.equal(require('hotpath/fastify'), fastify)
})

test('every lib/ module has its CommonJS form in cjs/, with the same exports', async () => {
  const files = jsFiles(lib).map((f) => relative(lib, f)).sort()
  assert.deepEqual(jsFiles(cjs).map((f) => relative(cjs, f)).sort(), files, 'cjs/ is built from lib/ as it is: npm run build -w hotpath')
  const differ = []
  for (const file of files) {
    const esm = await import(join(lib, file))
    const mod = require(join(cjs, file))
    const names = Object.keys(esm).filter((k) => k !== 'module.exports').sort()
    if ('module.exports' in esm) {
      // cjs/index.js and cjs/fastify.js: what require(esm) returns, the
      // factory, with the named exports on it
      assert.equal(typeof mod, typeof esm['module.exports'], file)
    } else if (JSON.stringify(Object.keys(mod).sort()) !== JSON.stringify(names)) {
      differ.push(`${file}: exports ${Object.keys(mod).sort()}, not ${names}`)
    }
    for (const name of names) {
      // the default export of a module whose CommonJS form is one value
      // (fastify-internals/reply.js: the Reply class) is that value
      if (name === 'default' && 'module.exports' in esm && esm.default === esm['module.exports']) continue
      if (typeof mod[name] !== typeof esm[name]) differ.push(`${file}: ${name} is ${typeof mod[name]}, not ${typeof esm[name]}`)
    }
  }
  assert.deepEqual(differ, [])
})

test('a Node without require(esm) gets the CommonJS build from require()', { skip: !process.allowedNodeEnvironmentFlags.has('--no-experimental-require-module') && 'no --no-experimental-require-module' }, () => {
  const file = fileURLToPath(new URL('./commonjs-entry.cjs', import.meta.url))
  const run = (/** @type {string[]} */ flags) => JSON.parse(execFileSync(process.execPath, [...flags, file], { encoding: 'utf8' }))
  const where = execFileSync(process.execPath, ['--no-experimental-require-module', '-p', 'require.resolve("hotpath/fastify")'], { cwd: root, encoding: 'utf8' })
  assert.match(where.trim(), /[\\/]cjs[\\/]fastify\.js$/)
  assert.deepEqual(run(['--no-experimental-require-module']), run([]))
})
