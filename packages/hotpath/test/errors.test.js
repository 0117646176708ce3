// The error table in lib/errors.js, docs/errors.md and the codes the
// source actually raises must agree.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ERRORS, HttpError, createError } from '../lib/errors.js'

const root = new URL('../../../', import.meta.url).pathname
const lib = new URL('../lib/', import.meta.url).pathname

/** @param {string} dir @returns {string[]} */
function jsFiles (dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return jsFiles(p)
    return name.endsWith('.js') ? [p] : []
  })
}

test('docs/errors.md lists every code with its status, and nothing else', () => {
  const md = readFileSync(join(root, 'docs/errors.md'), 'utf8')
  const rows = [...md.matchAll(/^\| `(HP_ERR_[A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])])
  const documented = new Map(rows.map(([c, s]) => [c, s]))
  assert.equal(rows.length, documented.size, 'a code is documented twice')
  assert.deepEqual([...documented.keys()].sort(), Object.keys(ERRORS).sort())
  for (const [code, entry] of Object.entries(ERRORS)) assert.equal(documented.get(code), entry.status, code)
})

// Engines (lib/engines/*, wire included) raise codes from the same table.
test('every code the source raises is in the table, and every table code is raised', () => {
  const used = new Set()
  for (const file of jsFiles(lib)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/'(HP_ERR_[A-Z_]+)'/g)) used.add(m[1])
  }
  for (const code of used) assert.ok(code in ERRORS, `${code} is raised but not in the table`)
  for (const code of Object.keys(ERRORS)) assert.ok(used.has(code), `${code} is in the table but never raised`)
})

test('createError fills the message and carries code and status', () => {
  const err = createError('HP_ERR_NOT_FOUND', 'GET', '/x')
  assert.ok(err instanceof HttpError)
  assert.equal(err.statusCode, 404)
  assert.equal(err.code, 'HP_ERR_NOT_FOUND')
  assert.equal(err.message, 'Route GET:/x not found')
  assert.throws(() => createError('HP_ERR_NOPE'), TypeError)
})

test('HttpError defaults its message to the reason phrase', () => {
  const err = new HttpError(404)
  assert.equal(err.message, 'Not Found')
  assert.equal(err.error, 'Not Found')
  assert.equal(new HttpError(999).statusCode, 500)
})
