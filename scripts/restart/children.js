// Every child process the soak starts is registered here and killed when the
// soak exits, however it exits (an exception, a time limit, Ctrl-C): a
// restart test must not leave an nginx or an app listening behind it.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'

/** @type {Set<{ child: import('node:child_process').ChildProcess, signal: NodeJS.Signals }>} */
const live = new Set()

/**
 * Spawns a child and registers it. `exitSignal` is what it gets at exit:
 * SIGKILL for an app (nothing to clean), SIGTERM for nginx (its master
 * then stops its workers; a SIGKILLed master would leave them running).
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { exitSignal?: NodeJS.Signals }} options
 */
export function spawnChild (cmd, args, options = {}) {
  const { exitSignal = 'SIGKILL', ...spawnOptions } = options
  const child = spawn(cmd, args, spawnOptions)
  const entry = { child, signal: exitSignal }
  live.add(entry)
  child.once('exit', () => live.delete(entry))
  // an 'error' (the binary missing) is reported by the caller through 'exit'/'error' listeners of its own
  child.on('error', () => live.delete(entry))
  return child
}

/** @type {Set<string>} temporary folders removed at exit */
const folders = new Set()

/**
 * Removes `dir` when the soak exits, unless `forget` was called first.
 * @param {string} dir
 */
export function removeAtExit (dir) {
  folders.add(dir)
  return { forget: () => folders.delete(dir) }
}

/** Kills every child still running and removes the temporary folders, synchronously (usable in an 'exit' handler). */
export function killAll () {
  for (const { child, signal } of live) {
    try { child.kill(signal) } catch {}
  }
  live.clear()
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  folders.clear()
}

/**
 * Waits for the child to exit, killing it with SIGKILL after `ms`.
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} ms
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, killed: boolean }>}
 */
export function waitExit (child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode, killed: false })
  return new Promise((resolve) => {
    let killed = false
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL') }, ms)
    child.once('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal, killed }) })
  })
}

let installed = false
/** Kills the children on exit and on SIGINT/SIGTERM/SIGHUP of the soak itself. */
export function killChildrenOnExit () {
  if (installed) return
  installed = true
  process.on('exit', killAll)
  for (const sig of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(sig, () => { killAll(); process.exit(130) })
  }
}
