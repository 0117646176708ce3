// The file `import` loads from another hotpath package directory (for
// --baseline-hotpath): its exports map's entry for `.` under the import
// conditions, as Node resolves it, else its `main`. Its `main` alone can
// name a CommonJS build made for tools that cannot load ES modules, which
// is not what an application's `import` runs.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * @param {string} dir  a hotpath package directory
 * @returns {string}  a file: URL
 */
export function hotpathEntryUrl (dir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  const dot = pkg.exports?.['.'] ?? pkg.exports
  const target = typeof dot === 'string' ? dot : dot?.import ?? dot?.['module-sync'] ?? dot?.node ?? dot?.default
  return pathToFileURL(path.resolve(dir, typeof target === 'string' ? target : pkg.main ?? 'lib/index.js')).href
}
