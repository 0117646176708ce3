// hotpath installed in Fastify's place, as an application installs it: the
// packed hotpath and hotpath-fastify, the latter under the name `fastify`
// with npm's overrides (so NestJS's adapter, which depends on `fastify`
// itself, gets it too); a NestJS application whose adapter makes its own
// instance with require('fastify'), compiled by TypeScript (--strict, no
// skipLibCheck: one copy of Fastify's declarations), then served. The same
// application installed with Fastify itself answers the same.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const packages = join(here, '..', '..')
const modules = join(packages, '..', 'node_modules')
/** the version of a package the repository has installed */
const version = (name) => JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version

// npm's own variables (npm test sets them) would reach the install below
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')))
const npm = (args, cwd) => execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

/** An application directory with `fastify` as the dependency given, installed; its answers. */
function installAndRun (dir, fastify, extra) {
  mkdirSync(dir)
  cpSync(join(here, 'nest-app'), dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: 'in-place-app',
    private: true,
    dependencies: {
      fastify,
      ...extra,
      '@nestjs/common': version('@nestjs/common'),
      '@nestjs/core': version('@nestjs/core'),
      '@nestjs/platform-fastify': version('@nestjs/platform-fastify'),
      'reflect-metadata': version('reflect-metadata'),
      rxjs: version('rxjs'),
      typescript: version('typescript'),
      '@types/node': version('@types/node')
    },
    overrides: { fastify: '$fastify' }
  }, null, 2))
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir)
  try {
    execFileSync(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' })
  } catch (err) {
    assert.fail(`tsc: ${err.stdout}${err.stderr}`)
  }
  return JSON.parse(execFileSync(process.execPath, [join(dir, 'dist', 'main.js')], { cwd: dir, encoding: 'utf8' }))
}

test('a NestJS application with hotpath installed as `fastify` type-checks and answers as with Fastify', { timeout: 240_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hotpath-in-place-'))
  try {
    // --ignore-scripts: the CommonJS build and the declarations are made
    // already (npm install, and `npm test` first)
    for (const name of ['hotpath', 'hotpath-fastify']) npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', work], join(packages, name))
    const hotpath = `file:${join(work, 'hotpath-0.1.0.tgz')}`
    const ours = installAndRun(join(work, 'on-hotpath'), `file:${join(work, `hotpath-fastify-${version('hotpath-fastify')}.tgz`)}`, { hotpath })
    const theirs = installAndRun(join(work, 'on-fastify'), version('fastify'))

    assert.equal(JSON.parse(readFileSync(join(work, 'on-hotpath', 'node_modules', 'fastify', 'package.json'), 'utf8')).name, 'hotpath-fastify')
    assert.equal(ours.framework, 'hotpath')
    assert.equal(theirs.framework, 'fastify')
    assert.ok(Object.keys(ours.answers).length >= 5)
    assert.deepEqual(ours.answers, theirs.answers)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})
