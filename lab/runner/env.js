// The environment a run was measured in, recorded next to its samples: a
// figure means little without the machine, the versions and the pinning.

import os from 'node:os'
import fs from 'node:fs'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { targets } from '../targets/index.js'

const require = createRequire(import.meta.url)
const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** Versions of the target packages as installed. */
export function packageVersions () {
  const versions = {}
  for (const pkg of new Set([...targets.map((t) => t.pkg).filter(Boolean), '@koa/router', '@hono/node-server', 'autocannon'])) {
    try { versions[pkg] = require(`${pkg}/package.json`).version } catch {
      // packages whose exports hide package.json: find it next to the entry point
      try {
        let dir = require.resolve(pkg)
        for (;;) {
          const up = dir.slice(0, dir.lastIndexOf('/'))
          if (up === dir || !up) break
          dir = up
          const file = `${dir}/package.json`
          if (fs.existsSync(file)) {
            const json = JSON.parse(fs.readFileSync(file, 'utf8'))
            if (json.name === pkg) { versions[pkg] = json.version; break }
          }
        }
      } catch { versions[pkg] = null }
    }
  }
  return versions
}

function git (...args) {
  try { return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() } catch { return null }
}

/** @param {{ loader: { name: string, version: string }, pinning: object }} o */
export function captureEnv ({ loader, pinning }) {
  const cpus = os.cpus()
  return {
    host: os.hostname(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model?.trim() || 'unknown',
    cores: os.availableParallelism ? os.availableParallelism() : cpus.length,
    memoryBytes: os.totalmem(),
    runnerNode: process.version,
    loadAverage: os.loadavg(),
    loader,
    pinning,
    packages: packageVersions(),
    git: { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no') ? true : git('rev-parse', 'HEAD') ? false : null }
  }
}
