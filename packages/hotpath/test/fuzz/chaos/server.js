// The server process, one per mode: this file, forked with CHAOS_CHILD=1.
// A crash is then what users would see, the server process dying, rather
// than an event the harness swallows. The child reports warnings and hook
// invariants over IPC, and answers 'stats' (open connections), 'inject' and
// 'close' requests. Server is the parent's side: it starts the child, asks
// it, reports its death with the cases that were in flight, and starts it
// again.

import { fork } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { buildApp } from './app.js'
import { HANG_MS } from './cases.js'

const SELF = fileURLToPath(import.meta.url)

// --- the child -----------------------------------------------------------------

async function childMain () {
  const mode = /** @type {string} */ (process.env.CHAOS_MODE)
  process.on('warning', (w) => {
    process.send?.({ type: 'warning', name: w.name, message: w.message, stack: w.stack })
  })
  // No uncaughtException/unhandledRejection listener here on purpose: a
  // crash kills this process, as it would kill a user's server.
  const root = mkdtempSync(join(tmpdir(), 'chaos-static-'))
  mkdirSync(join(root, 'static', 'sub'), { recursive: true })
  writeFileSync(join(root, 'static', 'small.txt'), 'small file\n')
  writeFileSync(join(root, 'static', 'big.bin'), Buffer.alloc(300_000, 100))
  process.on('exit', () => rmSync(root, { recursive: true, force: true }))
  const app = await buildApp(mode, root)
  await app.ready()
  const core = /** @type {any} */ (app)._core
  let port = 0
  let handlesBefore = activeHandles()
  // Which case each open socket served last, to name the case behind a
  // leak: a 'request' listener on node, a wrapped handler on wire (neither
  // changes what the app does).
  /** @type {WeakMap<object, string>} */
  const lastCase = new WeakMap()
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set()
  if (mode === 'node') {
    app.server.on('connection', (/** @type {import('node:net').Socket} */ socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    app.server.on('request', (/** @type {any} */ req) => lastCase.set(req.socket, String(req.headers['x-case'])))
  } else if (mode === 'wire') {
    const dispatch = core.engine.handler
    core.engine.handler = (/** @type {any} */ raw, /** @type {any} */ res) => {
      lastCase.set(raw.conn, String(raw.headers['x-case']))
      dispatch(raw, res)
    }
  }
  const openCases = () => mode === 'node'
    ? [...sockets].map((s) => lastCase.get(s) ?? 'none')
    : mode === 'wire' ? [...core.engine.connections].map((c) => lastCase.get(c) ?? 'none') : []
  const stats = async () => ({
    connections: mode === 'inject' ? 0 : await new Promise((resolve) => app.server.getConnections((_e, n) => resolve(n))),
    engineConnections: core.engine?.connections?.size ?? 0,
    openCases: openCases()
  })
  process.on('message', async (/** @type {any} */ m) => {
    if (m.type === 'stats') {
      process.send?.({ type: 'stats', id: m.id, ...(await stats()) })
    } else if (m.type === 'inject') {
      try {
        const { payloadLatin1, ...request } = m.request
        if (payloadLatin1 !== undefined) request.payload = Buffer.from(payloadLatin1, 'latin1')
        const res = await app.inject(request)
        process.send?.({ type: 'injected', id: m.id, status: res.statusCode, body: String(res.body).slice(0, 300) })
      } catch (err) {
        process.send?.({ type: 'injected', id: m.id, error: String(/** @type {any} */ (err)?.stack ?? err) })
      }
    } else if (m.type === 'close') {
      await app.close()
      await sleep(100) // sockets destroyed in close() leave the handle list on the next turn
      process.send?.({ type: 'closed', id: m.id, ...(await stats()), handlesBefore, handlesAfter: activeHandles() })
    }
  })
  // measured once the IPC channel is listened to (that refs its handle)
  handlesBefore = activeHandles()
  if (mode !== 'inject') port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port)
  process.send?.({ type: 'ready', port })
}

/** Active handles, less the ones this harness owns (IPC, stdio). */
function activeHandles () {
  const names = /** @type {any} */ (process)._getActiveHandles().map((/** @type {any} */ h) => h.constructor?.name ?? typeof h)
  return { n: names.length, names: names.sort().join(', ') }
}

// --- the parent: one server process per mode ----------------------------------

/**
 * @typedef {object} Failure
 * @property {string} mode
 * @property {string} kind
 * @property {string} caseId   or a list of the cases in flight
 * @property {string} detail
 */

export class Server {
  /** @param {string} mode @param {(f: Failure) => void} fail */
  constructor (mode, fail) {
    this.mode = mode
    this.fail = fail
    /** @type {import('node:child_process').ChildProcess | null} */
    this.child = null
    this.port = 0
    this.generation = 0
    this.stderr = ''
    this.msgId = 0
    /** @type {Map<number, (m: any) => void>} */
    this.waiting = new Map()
    /** @type {Set<string>} */
    this.inFlight = new Set()
    /** the cases that finished last: a crash can come after its case (a timer) */
    /** @type {string[]} */
    this.recent = []
    this.closing = false
    /** open connections already reported as leaked */
    this.leaked = 0
  }

  async start () {
    this.generation++
    this.stderr = ''
    this.leaked = 0
    const child = fork(SELF, [], {
      env: { ...process.env, CHAOS_CHILD: '1', CHAOS_MODE: this.mode },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc']
    })
    this.child = child
    // a failed send to a dying child; its 'exit' reports the crash
    child.on('error', () => {})
    child.stderr?.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000) })
    child.on('message', (/** @type {any} */ m) => {
      if (m.type === 'warning') {
        if (m.name === 'MaxListenersExceededWarning') this.fail({ mode: this.mode, kind: 'warning', caseId: [...this.inFlight].join(' '), detail: m.stack ?? m.message })
        else if (m.name !== 'ExperimentalWarning') this.fail({ mode: this.mode, kind: 'warning', caseId: [...this.inFlight].join(' '), detail: `${m.name}: ${m.message}` })
      } else if (m.type === 'violation') {
        this.fail({ mode: this.mode, kind: 'hooks', caseId: m.caseId, detail: m.what })
      } else if (m.id !== undefined) {
        const w = this.waiting.get(m.id)
        this.waiting.delete(m.id)
        w?.(m)
      }
    })
    const ready = new Promise((resolve, reject) => {
      const onReady = (/** @type {any} */ m) => { if (m?.type === 'ready') { child.removeListener('message', onReady); resolve(m) } }
      child.on('message', onReady)
      child.once('exit', (code) => reject(new Error(`server process exited (${code}) before it was ready: ${this.stderr}`)))
    })
    child.on('exit', (code, signal) => {
      for (const w of this.waiting.values()) w({ type: 'dead' })
      this.waiting.clear()
      if (this.child === child) this.child = null
      if (!this.closing) {
        this.fail({
          mode: this.mode,
          kind: 'crash',
          caseId: [...this.inFlight].join(' '),
          detail: `the server process died (code ${code}, signal ${signal}); in flight: ${[...this.inFlight].join(' ')}; finished last: ${this.recent.join(' ')}; stderr:\n${this.stderr.trim()}`
        })
      }
    })
    const m = /** @type {any} */ (await ready)
    this.port = m.port
  }

  get alive () { return this.child !== null && this.child.connected }

  /**
   * @param {Record<string, any>} msg
   * @param {number} ms
   * @returns {Promise<any>}
   */
  ask (msg, ms = HANG_MS) {
    if (!this.alive) return Promise.resolve({ type: 'dead' })
    const id = ++this.msgId
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiting.delete(id); resolve({ type: 'timeout' }) }, ms)
      this.waiting.set(id, (m) => { clearTimeout(timer); resolve(m) })
      // a child dying meanwhile fails the send (EPIPE): it reads as 'dead'
      this.child?.send({ ...msg, id }, (err) => {
        if (err === null) return
        this.waiting.delete(id)
        clearTimeout(timer)
        resolve({ type: 'dead' })
      })
    })
  }

  async stop () {
    this.closing = true
    const child = this.child
    if (child === null) return null
    // close() waits up to closeGraceTimeout (10 s) for responses that never end
    const res = await this.ask({ type: 'close' }, 15_000)
    if (this.child === child) {
      child.kill()
      await once(child, 'exit').catch(() => {})
    }
    return res
  }
}

if (process.env.CHAOS_CHILD === '1') {
  await childMain()
}
