#!/usr/bin/env node
// npm run bench:types:editor [-- 100 300 1000]
//
// What an editor waits for on the generated app of bench:types (N routes
// with TypeBox schemas, types inferred): the repository's TypeScript runs as
// a language server (`tsc --lsp --stdio`), and the script times, as an
// editor asks them,
//   open      the file's diagnostics right after opening it (the whole check),
//   hover     the type of `req.body.name` in the last route,
//   edit      the diagnostics again after a one-character edit in that route,
//   complete  completions after `req.body.` there.
// Each is the median of ROUNDS fresh servers (default 3), min and max
// beside it; the hotpath, Fastify and hotpath/fastify (Fastify's app with its
// import changed) apps alternate. A report, not a test.

import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { appSource, fullRoute, hasFastify, printTable, repoTsc, spread, writeProgram } from './types-app.js'

const rounds = Math.max(1, Number(process.env.ROUNDS ?? 3))
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0)

/** A JSON-RPC client over the server's stdio (LSP's Content-Length framing). */
class LanguageServer {
  /** @param {string} cwd */
  constructor (cwd) {
    this.child = spawn(repoTsc, ['--lsp', '--stdio'], { cwd, stdio: ['pipe', 'pipe', 'ignore'] })
    this.nextId = 1
    /** @type {Map<number, (msg: any) => void>} */
    this.pending = new Map()
    this.buffer = Buffer.alloc(0)
    this.child.stdout.on('data', (chunk) => this.#read(chunk))
  }

  /** @param {Buffer} chunk */
  #read (chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk])
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n')
      if (headerEnd < 0) return
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1])
      if (this.buffer.length < headerEnd + 4 + length) return
      const msg = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString())
      this.buffer = this.buffer.subarray(headerEnd + 4 + length)
      if (msg.id !== undefined && msg.method !== undefined) {
        // a request from the server (configuration, registration): answer empty
        this.#send({ jsonrpc: '2.0', id: msg.id, result: msg.method === 'workspace/configuration' ? msg.params.items.map(() => null) : null })
      } else if (msg.id !== undefined && this.pending.has(msg.id)) {
        this.pending.get(msg.id)?.(msg)
        this.pending.delete(msg.id)
      }
    }
  }

  /** @param {object} msg */
  #send (msg) {
    const body = Buffer.from(JSON.stringify(msg))
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`)
    this.child.stdin.write(body)
  }

  /** @param {string} method @param {object} params @returns {Promise<any>} */
  request (method, params) {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in 120 s`)), 120_000)
      this.pending.set(id, (msg) => {
        clearTimeout(timer)
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`))
        else resolve(msg.result)
      })
      this.#send({ jsonrpc: '2.0', id, method, params })
    })
  }

  /** @param {string} method @param {object} params */
  notify (method, params) {
    this.#send({ jsonrpc: '2.0', method, params })
  }

  async close () {
    await this.request('shutdown', {}).catch(() => {})
    this.notify('exit', {})
    this.child.stdin.end()
    await new Promise((resolve) => {
      const timer = setTimeout(() => { this.child.kill(); resolve(undefined) }, 5000)
      this.child.once('exit', () => { clearTimeout(timer); resolve(undefined) })
    })
  }
}

/** @param {string} text @param {string} needle @returns {{ line: number, character: number }} */
function positionAfterLast (text, needle) {
  const at = text.lastIndexOf(needle) + needle.length
  const before = text.slice(0, at).split('\n')
  return { line: before.length - 1, character: before[before.length - 1].length }
}

/** @param {() => Promise<unknown>} fn */
async function timed (fn) {
  const start = process.hrtime.bigint()
  const result = await fn()
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result }
}

/**
 * One fresh server on one app: the four timings in ms.
 * @param {string} source
 */
async function measure (source) {
  const dir = writeProgram([source])
  const server = new LanguageServer(dir)
  try {
    const uri = pathToFileURL(join(dir, 'app.ts')).href
    await server.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      capabilities: { textDocument: { diagnostic: {}, hover: { contentFormat: ['plaintext'] }, completion: {} } }
    })
    server.notify('initialized', {})
    server.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: source } })
    const open = await timed(() => server.request('textDocument/diagnostic', { textDocument: { uri } }))
    const errors = open.result?.items?.length ?? 0
    const hover = await timed(() => server.request('textDocument/hover', { textDocument: { uri }, position: positionAfterLast(source, 'req.body.na') }))
    const hoverText = JSON.stringify(hover.result?.contents ?? '')
    // one character more in the last route's 404 message
    const message = "'no such item'"
    const at = source.lastIndexOf(message)
    const edited = source.slice(0, at) + "'no such item!'" + source.slice(at + message.length)
    server.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] })
    const edit = await timed(() => server.request('textDocument/diagnostic', { textDocument: { uri } }))
    const complete = await timed(() => server.request('textDocument/completion', { textDocument: { uri }, position: positionAfterLast(edited, 'req.body.') }))
    const items = Array.isArray(complete.result) ? complete.result : complete.result?.items ?? []
    return { open: open.ms, hover: hover.ms, edit: edit.ms, complete: complete.ms, errors, hoverText, completions: items.map((/** @type {any} */ i) => i.label) }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** @param {number} x */
const ms = (x) => `${x.toFixed(0)} ms`

const frameworks = /** @type {const} */ (hasFastify() ? ['hotpath', 'hotpath/fastify', 'fastify'] : ['hotpath'])
const keys = /** @type {const} */ (['open', 'hover', 'edit', 'complete'])
const rows = [['routes', 'framework', ...keys]]
for (const n of sizes.length > 0 ? sizes : [100, 300, 1000]) {
  /** @type {Record<string, Record<string, number[]>>} */
  const runs = {}
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? frameworks : [...frameworks].reverse()
    for (const fw of order) {
      const r = await measure(appSource(n, fullRoute, fw)[0])
      // the answers must be the real ones: a clean file, the body's type, its fields
      if (r.errors !== 0 || !r.hoverText.includes('string') || !r.completions.includes('name')) {
        console.error(`${fw}, ${n} routes: ${r.errors} diagnostics, hover ${r.hoverText.slice(0, 80)}, completions ${r.completions.slice(0, 5).join(' ')}`)
        process.exitCode = 1
      }
      const run = (runs[fw] ??= { open: [], hover: [], edit: [], complete: [] })
      for (const k of keys) run[k].push(r[k])
    }
  }
  for (const fw of frameworks) rows.push([String(n), fw, ...keys.map((k) => spread(runs[fw][k], ms))])
}
printTable(rows)
