// Builds cjs/, the CommonJS form of lib/, for the tools that load a
// package's `require` condition as CommonJS themselves and cannot load an
// ES module (Jest's default mode, and ts-jest's); Node's own require() and
// import load lib/ (package.json's exports: `module-sync` comes first).
//
// One output file per lib/ file, at the same depth (cjs/app/core.js for
// lib/app/core.js), so that a path relative to a file resolves alike:
// createRequire(import.meta.url)('../../package.json') finds the package's
// own package.json from both. import.meta.url becomes the CommonJS file's
// URL. A module that exports 'module.exports' (index.js, fastify.js) sets
// module.exports to it, as Node's require(esm) returns it.
//
// Run by `prepare` (npm install, npm ci, npm pack, npm publish) and by the
// repository's `npm test` before its tests; `npm run build -w hotpath` by
// hand after changing lib/.
import { build } from 'esbuild'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const lib = join(root, 'lib')
const out = join(root, 'cjs')

/** @param {string} dir @returns {string[]} */
function jsFiles (dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [])
}

const IMPORT_META_URL = '__hotpath_import_meta_url'
const files = jsFiles(lib)
const result = await build({
  entryPoints: files,
  outdir: out,
  outbase: lib,
  bundle: false,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  write: false,
  logLevel: 'warning',
  define: { 'import.meta.url': IMPORT_META_URL }
})

if (result.outputFiles.length !== files.length) throw new Error(`expected ${files.length} files, esbuild wrote ${result.outputFiles.length}`)
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'package.json'), '{\n  "type": "commonjs"\n}\n')
for (const file of result.outputFiles) {
  let text = file.text
  // an ES module is strict mode code; its CommonJS form must stay so
  if (!text.startsWith('"use strict";\n')) throw new Error(`${file.path}: not strict mode`)
  if (text.includes(IMPORT_META_URL)) {
    // after "use strict", which must stay the first statement
    const at = '"use strict";\n'.length
    text = text.slice(0, at) + `var ${IMPORT_META_URL} = require("node:url").pathToFileURL(__filename).href;\n` + text.slice(at)
  }
  // lib/'s own modules are ES modules made CommonJS here (__esModule set):
  // a default import of one takes its default export. esbuild, compiling a
  // file of a "type": "module" package, asks for node's interop instead
  // (`__toESM(mod, 1)`: the default is the whole exports object), right
  // for a CommonJS package, wrong for these
  text = text.replace(/__toESM\(require\(("\.{1,2}\/[^"]+")\), 1\)/g, '__toESM(require($1))')
  // esbuild's getter for an `export { x as 'module.exports' }`
  if (/^ {2}"module\.exports": \(\) => /m.test(text)) {
    text += 'module.exports = module.exports["module.exports"];\n'
  }
  mkdirSync(dirname(file.path), { recursive: true })
  writeFileSync(file.path, text)
}
