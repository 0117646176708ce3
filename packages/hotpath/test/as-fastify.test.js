// `node --import hotpath/as-fastify`: every `fastify` a process loads, by
// require() or import, from any file, is hotpath/fastify (with its two
// internal modules), and HOTPATH_ENGINE chooses the engine of every app that
// names none; the same process without it loads Fastify.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const register = fileURLToPath(new URL('../lib/as-fastify/register.js', import.meta.url))
const modules = fileURLToPath(new URL('../../../node_modules', import.meta.url))

// A CommonJS program and an ES module, each making an app with Fastify's
// API and reporting what it got; a plugin required from node_modules's
// fastify-plugin (which requires nothing of Fastify) registers on it.
const PROGRAM_CJS = `
const http = require('node:http')
const Fastify = require('fastify')
const { fastify } = require('fastify')
const Reply = require('fastify/lib/reply')
const { kRouteContext } = require('fastify/lib/symbols')
const { FST_ERR_INSTANCE_ALREADY_LISTENING } = require('fastify/lib/errors')
const fp = require('fastify-plugin')
async function main () {
  const app = Fastify()
  await app.register(fp(async (instance) => { instance.decorate('tagged', true) }))
  app.get('/', (req, reply) => reply.send({ hooks: req[kRouteContext].onRequest, tagged: app.tagged }))
  await app.ready()
  const res = await app.inject('/')
  const out = {
    hotpath: '_core' in app, sameNamed: fastify === Fastify, reply: Reply.name, body: res.json(),
    engine: app.server instanceof http.Server ? 'node' : 'not node', resolved: require.resolve('fastify')
  }
  try { app.addSchema({ $id: 's' }) } catch (err) { out.errorCaught = err instanceof FST_ERR_INSTANCE_ALREADY_LISTENING }
  await app.close()
  const mine = Fastify({ engine: 'wire' })
  out.chosen = mine.server instanceof http.Server ? 'node' : 'not node'
  console.log(JSON.stringify(out))
}
main()
`
const PROGRAM_ESM = `
import Fastify, { fastify, errorCodes } from 'fastify'
import Reply from 'fastify/lib/reply.js'
const app = Fastify()
app.get('/', async () => ({ esm: true }))
const res = await app.inject('/')
console.log(JSON.stringify({ hotpath: '_core' in app, sameNamed: fastify === Fastify, reply: Reply.name, body: res.json(), codes: typeof errorCodes.FST_ERR_NOT_FOUND, resolved: import.meta.resolve('fastify') }))
await app.close()
`

function run (dir, file, { hook, engine } = {}) {
  const args = hook ? ['--import', register, file] : [file]
  const env = { ...process.env, HOTPATH_ENGINE: engine ?? '' }
  return JSON.parse(execFileSync(process.execPath, args, { cwd: dir, env, encoding: 'utf8' }))
}

test('with --import hotpath/as-fastify, require() and import of fastify give hotpath/fastify; without, Fastify', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-as-fastify-'))
  try {
    symlinkSync(modules, join(dir, 'node_modules'))
    writeFileSync(join(dir, 'program.cjs'), PROGRAM_CJS)
    writeFileSync(join(dir, 'program.mjs'), PROGRAM_ESM)

    const on = run(dir, 'program.cjs', { hook: true, engine: 'node' })
    assert.equal(on.hotpath, true)
    assert.equal(on.sameNamed, true)
    assert.equal(on.reply, 'Reply')
    assert.deepEqual(on.body, { hooks: null, tagged: true })
    assert.equal(on.engine, 'node', 'HOTPATH_ENGINE=node chose node:http')
    assert.equal(on.chosen, 'not node', "an app's own engine option wins over HOTPATH_ENGINE")
    assert.match(on.resolved, /lib[/\\]as-fastify[/\\]entry\.js$/)
    assert.equal(on.errorCaught, true, 'fastify/lib/errors is hotpath\'s: what it throws is an instance of its constructor')

    const wire = run(dir, 'program.cjs', { hook: true })
    assert.equal(wire.engine, 'not node', 'without HOTPATH_ENGINE, hotpath/fastify defaults to wire')

    const esm = run(dir, 'program.mjs', { hook: true })
    assert.deepEqual([esm.hotpath, esm.sameNamed, esm.reply, esm.codes], [true, true, 'Reply', 'function'])
    assert.deepEqual(esm.body, { esm: true })

    // Fastify's own file reached by its path (as Vitest imports what it
    // resolved itself), by require() and by import
    writeFileSync(join(dir, 'by-path.mjs'), [
      "import { createRequire } from 'node:module'",
      "import { join } from 'node:path'",
      "const require = createRequire(import.meta.url)",
      "const file = join(process.cwd(), 'node_modules', 'fastify', 'fastify.js')",
      "const imported = (await import(file)).default",
      "console.log(JSON.stringify({ file, required: '_core' in require(file)(), imported: '_core' in imported() }))"
    ].join('\n'))
    const byPath = run(dir, 'by-path.mjs', { hook: true })
    assert.deepEqual([byPath.required, byPath.imported], [true, true], byPath.file)
    assert.deepEqual([run(dir, 'by-path.mjs').required, run(dir, 'by-path.mjs').imported], [false, false], 'without the hook, the file is Fastify')

    const off = run(dir, 'program.cjs')
    assert.equal(off.hotpath, false, 'without the hook, the process loads Fastify')
    assert.deepEqual(off.body, on.body)
    const offEsm = run(dir, 'program.mjs')
    assert.equal(offEsm.hotpath, false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('HOTPATH_ENGINE with an unknown engine fails at the first fastify import, naming the choices', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-as-fastify-'))
  try {
    symlinkSync(modules, join(dir, 'node_modules'))
    writeFileSync(join(dir, 'program.cjs'), "require('fastify')")
    assert.throws(() => execFileSync(process.execPath, ['--import', register, 'program.cjs'], {
      cwd: dir, env: { ...process.env, HOTPATH_ENGINE: 'uws' }, encoding: 'utf8', stdio: 'pipe'
    }), (err) => /HOTPATH_ENGINE must be one of wire, node, h2; got "uws"/.test(err.stderr))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
