// Copies Fastify's declarations (fastify.d.ts, types/*.d.ts) and its licence
// from the `fastify` package this one is built beside (the version hotpath's
// declarations follow) into this package, so that a program with this
// package installed as `fastify` type-checks against Fastify's own types
// without Fastify installed. Run by `prepare` (npm install, npm pack); the
// copies are not kept in the repository.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(join(here, '..', 'hotpath', 'package.json'))
const fastifyDir = dirname(require.resolve('fastify/package.json'))
const { version } = JSON.parse(readFileSync(join(fastifyDir, 'package.json'), 'utf8'))
const ours = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).version
// the same minor release: hotpath/fastify follows one (its app.version)
if (version.split('.').slice(0, 2).join('.') !== ours.split('.').slice(0, 2).join('.')) {
  throw new Error(`fastify ${version} found beside hotpath; this package carries ${ours}'s declarations`)
}

rmSync(join(here, 'types'), { recursive: true, force: true })
mkdirSync(join(here, 'types'))
cpSync(join(fastifyDir, 'fastify.d.ts'), join(here, 'fastify.d.ts'))
for (const name of readdirSync(join(fastifyDir, 'types'))) {
  if (name.endsWith('.d.ts')) cpSync(join(fastifyDir, 'types', name), join(here, 'types', name))
}
cpSync(join(fastifyDir, 'LICENSE'), join(here, 'LICENSE.fastify'))
if (!existsSync(join(here, 'fastify.d.ts'))) throw new Error('fastify.d.ts was not copied')
