// Per-process figures from Linux /proc: CPU time, and peak RSS (VmHWM), which
// can be reset between runs through clear_refs. Everything returns null where
// /proc is missing (macOS), and the report says so.

import fs from 'node:fs'
import { execFileSync } from 'node:child_process'

let ticksPerSecond = 100
try { ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100 } catch {}

/**
 * CPU time of a whole process (all threads), in seconds; with `children`,
 * also the CPU time of children it has waited for.
 * @param {number} pid
 * @param {string} [text] /proc/<pid>/stat contents (for tests)
 */
export function cpuSeconds (pid, text) {
  try {
    const stat = text ?? fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name (field 2) may hold spaces: fields start after the last ')'
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = (i) => Number(f[i - 3]) // field i (1-based) of the full line
    const self = (ticks(14) + ticks(15)) / ticksPerSecond
    const children = (ticks(16) + ticks(17)) / ticksPerSecond
    return Number.isFinite(self) && Number.isFinite(children) ? { self, children } : null
  } catch { return null }
}

/**
 * CPU time of a whole process split into user and kernel (system) time, in
 * seconds: utime and stime, fields 14 and 15 of /proc/<pid>/stat.
 * @param {number} pid
 * @param {string} [text] /proc/<pid>/stat contents (for tests)
 * @returns {{ user: number, system: number } | null}
 */
export function cpuTimes (pid, text) {
  try {
    const stat = text ?? fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const user = Number(f[14 - 3]) / ticksPerSecond
    const system = Number(f[15 - 3]) / ticksPerSecond
    return Number.isFinite(user) && Number.isFinite(system) ? { user, system } : null
  } catch { return null }
}

/** VmHWM (peak resident set) and VmRSS in bytes. */
export function memory (pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (name) => { const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status); return m ? Number(m[1]) * 1024 : null }
    return { peak: kb('VmHWM'), rss: kb('VmRSS') }
  } catch { return null }
}

/** Resets VmHWM to the current RSS, so the next reading is the peak of one run. */
export function resetPeak (pid) {
  try { fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); return true } catch { return false }
}

/** The CPUs this process may run on, from /proc/self/status (e.g. [0, 1]). */
export function allowedCpus (text) {
  try {
    const status = text ?? fs.readFileSync('/proc/self/status', 'utf8')
    const m = /^Cpus_allowed_list:\s*(.+)$/m.exec(status)
    if (!m) return null
    const cpus = []
    for (const part of m[1].trim().split(',')) {
      const [a, b] = part.split('-').map(Number)
      for (let c = a; c <= (b ?? a); c++) cpus.push(c)
    }
    return cpus
  } catch { return null }
}
