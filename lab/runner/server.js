// Starts one target server (or the user's --cmd) in its own process, pinned
// to the server CPU, with the GC probe loaded, and reads its figures.

import { spawn } from 'node:child_process'
import net from 'node:net'
import { fileURLToPath } from 'node:url'
import { cpuSeconds, memory, resetPeak } from './proc.js'

const PROBE = fileURLToPath(new URL('./probe.js', import.meta.url))
const HOST = '127.0.0.1'

/** A port that was free a moment ago (the server binds it right after). */
export function freePort () {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, HOST, () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address())
      srv.close(() => resolve(port))
    })
  })
}

function canConnect (port) {
  return new Promise((resolve) => {
    const s = net.connect(port, HOST)
    s.once('connect', () => { s.destroy(); resolve(true) })
    s.once('error', () => resolve(false))
  })
}

/** The exit code by which a target says it does not serve a scenario (targets/common.js). */
const UNSUPPORTED = 3

/**
 * @typedef {object} ServerHandle
 * @property {number} pid
 * @property {number} port
 * @property {() => boolean} alive
 * @property {() => string} output         last few KiB of the server's stdout+stderr
 * @property {() => Promise<{ cpu: number | null, gcMs: number | null, counters: Record<string, number> | null }>} sample
 * @property {() => boolean} resetPeak
 * @property {() => number | null} peakRss
 * @property {(msg: { type: string } & Record<string, any>, timeoutMs?: number) => Promise<any>} ask
 *   sends a message over the IPC channel and resolves with the server's
 *   answer of the same type (null if none came in time)
 * @property {(grace?: number) => Promise<void>} stop   SIGTERM, then SIGKILL after `grace` ms (default 2000)
 */

/**
 * @param {object} o
 * @param {string} [o.file]        server script (built-in targets)
 * @param {string} [o.cmd]         shell command (--cmd): it gets PORT and HOST
 * @param {Record<string,string>} [o.env]
 * @param {string[]} [o.imports]   modules to preload with --import after the probe (a target's setup, such as tracing)
 * @param {string[]} [o.nodeArgs]  more Node options for a built-in target, before the preloads (--cpu-prof and its settings for --split, the idle profile's --expose-gc)
 * @param {string[]} [o.launcher]  a command the whole command line is handed to (the idle profile's raised fd limit)
 * @param {string} o.nodeBin
 * @param {number | null} o.cpu    CPU to pin to, or null
 * @param {number} [o.startTimeout]  ms to wait for the server to listen; 0 waits as long as it runs
 *   (tests: a loaded machine can take longer than any fixed time, and the test's own timeout bounds it)
 * @returns {Promise<ServerHandle>} rejects with an Error whose `unsupported` is true when the target does not serve the scenario
 */
export async function startServer ({ file, cmd, env = {}, imports = [], nodeArgs = [], launcher = [], nodeBin, cpu, startTimeout = 20000 }) {
  const port = await freePort()
  const childEnv = { ...process.env, ...env, PORT: String(port), HOST }
  let argv
  if (cmd) {
    // exec: the server becomes this very process, so /proc figures are its own
    childEnv.NODE_OPTIONS = `${process.env.NODE_OPTIONS || ''} --import=${PROBE}`.trim()
    argv = ['sh', '-c', `exec ${cmd}`]
  } else {
    argv = [nodeBin, ...nodeArgs, `--import=${PROBE}`, ...imports.map((m) => `--import=${m}`), file]
  }
  if (cpu !== null) argv = ['taskset', '-c', String(cpu), ...argv]
  argv = [...launcher, ...argv]
  const child = spawn(argv[0], argv.slice(1), { env: childEnv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  let out = ''
  const keep = (d) => { out = (out + d).slice(-4096) }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  let exit = null
  // the wait below wakes on the target's 'lab:listening' or its exit
  let wake = () => {}
  child.on('exit', (code, signal) => { exit = { code, signal }; wake() })
  child.on('error', (err) => { exit = { code: null, signal: null, error: err }; wake() })
  let seq = 0
  const pending = new Map()
  let listening = false
  child.on('message', (msg) => {
    if (msg && typeof msg.id === 'number' && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id) }
    if (msg && msg.type === 'lab:listening') { listening = true; wake() }
  })

  // Ready when the target says it listens (targets/common.js ready()), or,
  // for a --cmd server that cannot say so, when the port takes a connection.
  const started = Date.now()
  for (;;) {
    if (exit) {
      const why = exit.error ? exit.error.message : exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`
      const err = new Error(`${why}${out.trim() ? `: ${lastLines(out)}` : ''}`)
      // @ts-ignore
      err.unsupported = exit.code === UNSUPPORTED
      throw err
    }
    if (listening || await canConnect(port)) break
    if (startTimeout > 0 && Date.now() - started > startTimeout) {
      child.kill('SIGKILL')
      throw new Error(`did not listen on port ${port} within ${startTimeout} ms${out.trim() ? `: ${lastLines(out)}` : ''}`)
    }
    await new Promise((resolve) => {
      wake = resolve
      setTimeout(resolve, 25)
    })
  }
  wake = () => {}

  /** @type {(msg: { type: string } & Record<string, any>, timeoutMs?: number) => Promise<any>} */
  const ask = (msg, timeoutMs = 1000) => new Promise((resolve) => {
    if (!child.connected) return resolve(null)
    const id = ++seq
    const timer = setTimeout(() => { pending.delete(id); resolve(null) }, timeoutMs)
    pending.set(id, (answer) => { clearTimeout(timer); resolve(answer.type === msg.type ? answer : null) })
    child.send({ ...msg, id })
  })
  const ipc = () => ask({ type: 'lab:stats' })

  // lifetime peak RSS as the server reports it, where /proc is missing
  let reportedMaxRss = null
  return {
    pid: /** @type {number} */ (child.pid),
    port,
    alive: () => exit === null,
    output: () => out,
    ask,
    async sample () {
      const msg = await ipc()
      if (msg) reportedMaxRss = msg.maxRss
      const proc = cpuSeconds(/** @type {number} */ (child.pid))
      return { cpu: proc ? proc.self : msg ? msg.cpuSeconds : null, gcMs: msg ? msg.gcMs : null, counters: msg?.counters ?? null }
    },
    resetPeak: () => resetPeak(/** @type {number} */ (child.pid)),
    peakRss: () => memory(/** @type {number} */ (child.pid))?.peak ?? reportedMaxRss,
    async stop (grace = 2000) {
      if (exit) return
      const gone = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), grace)
      await gone
      clearTimeout(timer)
    }
  }
}

/** The error line of a crash (not its stack), else the last lines of output. */
export function lastLines (text) {
  const lines = text.trim().split('\n').map((l) => l.trim()).filter(Boolean)
  const error = lines.find((l) => /^([\w.]*Error|Error)\b[^(]*[:[]/.test(l) && !l.startsWith('at '))
  return (error || lines.slice(-3).join(' | ')).slice(0, 400)
}
