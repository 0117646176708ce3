// `hotpath check --entry <file>`: the application's entry started on
// Fastify and on hotpath (each engine), its GET routes without parameters
// asked once each, and the status and headers compared; a start on hotpath
// that fails (an option refused) is reported with its error.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const PROBE = new URL('probe.js', import.meta.url).href
const REGISTER = new URL('../lib/as-fastify/register.js', import.meta.url).href
/** headers whose values differ from one start to the next */
const VARYING = new Set(['date', 'x-request-id', 'request-id', 'etag', 'last-modified', 'x-response-time', 'set-cookie'])
const START_MS = 20_000
const MAX_ROUTES = 100

/**
 * @typedef {{ url: string, status: number, headers: Record<string, string> } | { url: string, error: string }} Answer
 * @typedef {{ label: string, started: boolean, error: string | null, routes: string[], answers: Answer[] }} Start
 */

/**
 * @param {string} entry @param {string[]} engines @param {string} cwd
 */
export async function checkEntry (entry, engines, cwd) {
  const fastify = await start(entry, cwd, 'Fastify')
  const hotpath = []
  for (const engine of engines) {
    if (engine === 'h2') {
      hotpath.push({ engine, start: null, note: 'not started: h2 without TLS serves HTTP/2 clients only', differences: [] })
      continue
    }
    const run = await start(entry, cwd, `hotpath ${engine}`, engine)
    hotpath.push({ engine, start: run, note: null, differences: differences(fastify, run) })
  }
  return { entry: relative(cwd, entry), fastify, hotpath, differs: hotpath.some((h) => h.differences.length > 0) }
}

/**
 * @param {string} entry @param {string} cwd @param {string} label @param {string} [engine]
 * @returns {Promise<Start>}
 */
async function start (entry, cwd, label, engine) {
  const probe = join(mkdtempSync(join(tmpdir(), 'hotpath-check-entry-')), 'probe.jsonl')
  const imports = [`--import=${PROBE}`, ...(engine ? [`--import=${REGISTER}`] : [])]
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...imports].join(' ').trim(), HOTPATH_CHECK_PROBE: probe, HOTPATH_ENGINE: engine ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32'
  })
  let output = ''
  child.stdout.on('data', (c) => { output += c })
  child.stderr.on('data', (c) => { output += c })
  let exited = false
  child.on('close', () => { exited = true })
  try {
    const deadline = Date.now() + START_MS
    while (!existsSync(probe) && !exited && Date.now() < deadline) await sleep(50)
    if (!existsSync(probe)) {
      const why = exited ? `exited before listening: ${errorOf(output)}` : `did not listen within ${START_MS / 1000} s`
      return { label, started: false, error: why, routes: [], answers: [] }
    }
    await sleep(100)
    const [first] = readFileSync(probe, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const routes = [...new Set(first.routes.filter((/** @type {any} */ r) => r.method === 'GET' && !/[:*(]/.test(r.url)).map((/** @type {any} */ r) => r.url))].sort().slice(0, MAX_ROUTES)
    const answers = []
    for (const url of routes) answers.push(await ask(first.address, url))
    return { label, started: true, error: null, routes, answers }
  } finally {
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL')
      else child.kill('SIGKILL')
    } catch {}
  }
}

/** @param {{ address: string, port: number }} address @param {string} url @returns {Promise<Answer>} */
async function ask (address, url) {
  try {
    const res = await fetch(`http://127.0.0.1:${address.port}${url}`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) })
    await res.arrayBuffer()
    return { url, status: res.status, headers: Object.fromEntries(res.headers) }
  } catch (err) {
    return { url, error: /** @type {Error} */ (err).message }
  }
}

/**
 * The error a process died of, from its output: the line Node prints for it
 * (`SomeError [CODE]: message`, or `SomeError: message` and its `code`),
 * else the output's last lines.
 * @param {string} text
 */
function errorOf (text) {
  const line = /^(?:Uncaught )?[A-Z]\w*(?:Error|Exception)\b(?: \[[\w.]+\])?: .*$/m.exec(text)?.[0]
  if (line === undefined) return text.trim().split('\n').slice(-12).join('\n')
  const code = /^\s*code: '([\w.]+)'/m.exec(text)?.[1]
  return code !== undefined && !line.includes(code) ? `${line} (${code})` : line
}

/**
 * @param {Start} a  Fastify's @param {Start} b  hotpath's
 * @returns {string[]}
 */
function differences (a, b) {
  if (!a.started && !b.started) return []
  if (!b.started) return [`hotpath did not start (Fastify did): ${b.error}`]
  if (!a.started) return []
  const out = []
  const theirs = new Map(a.answers.map((x) => [x.url, x]))
  for (const ours of b.answers) {
    const ref = /** @type {any} */ (theirs.get(ours.url))
    if (ref === undefined) { out.push(`GET ${ours.url}: a route on hotpath only`); continue }
    const o = /** @type {any} */ (ours)
    if (ref.error || o.error) {
      if (ref.error !== o.error) out.push(`GET ${ours.url}: ${o.error ? `hotpath: ${o.error}` : `Fastify: ${ref.error}`}`)
      continue
    }
    if (ref.status !== o.status) out.push(`GET ${ours.url}: status ${o.status}, Fastify ${ref.status}`)
    for (const name of new Set([...Object.keys(ref.headers), ...Object.keys(o.headers)])) {
      if (VARYING.has(name) || ref.headers[name] === o.headers[name]) continue
      out.push(`GET ${ours.url}: ${name}: ${o.headers[name] ?? '(none)'}, Fastify ${ref.headers[name] ?? '(none)'}`)
    }
  }
  for (const url of theirs.keys()) if (!b.routes.includes(url)) out.push(`GET ${url}: a route on Fastify only`)
  return out
}

/** @param {any} result @param {string} cwd */
export function renderEntry (result, cwd) {
  const lines = [`Start-up check of ${result.entry}:`]
  const f = result.fastify
  lines.push(`  Fastify: ${f.started ? `listened; ${f.routes.length} GET routes without parameters asked` : `did not start: ${f.error}`}`)
  for (const h of result.hotpath) {
    if (h.note) { lines.push(`  hotpath ${h.engine}: ${h.note}`); continue }
    const s = h.start
    lines.push(`  hotpath ${h.engine}: ${s.started ? `listened; ${s.routes.length} GET routes asked; ${h.differences.length === 0 ? 'same status and headers' : `${h.differences.length} differences:`}` : 'did not start'}`)
    for (const d of h.differences) lines.push(`    ${d.split('\n').join('\n    ')}`)
  }
  void cwd
  return lines.join('\n') + '\n'
}
