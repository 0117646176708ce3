import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { pathToFileURL } from 'node:url'
import { runCli } from './cli-run.js'
import { packageOf, createClassifier, splitProfile, pluginPackagesOf, dependencyClosure } from '../runner/split.js'
import { renderSplit } from '../report/split.js'
import { parseOptions, UsageError } from '../runner/options.js'
import { getScenario } from '../scenarios/index.js'

const url = (file) => pathToFileURL(file).href
const FRAMEWORK = '/app/packages/hotpath'
const frame = (functionName, file, scriptId = '1') => ({ functionName, url: file === '' || file.startsWith('node:') ? file : url(file), scriptId, lineNumber: 0, columnNumber: 0 })

test('packageOf: the package after the last node_modules/, scoped or not', () => {
  assert.equal(packageOf('/app/node_modules/fast-jwt/src/verifier.js'), 'fast-jwt')
  assert.equal(packageOf('/app/node_modules/@fastify/cors/index.js'), '@fastify/cors')
  assert.equal(packageOf('/app/node_modules/@fastify/jwt/node_modules/@fastify/error/index.js'), '@fastify/error')
  assert.equal(packageOf('/app/lab/targets/common.js'), null)
})

test('classifier: framework, plugins, other packages, generated, node, native, program, gc, idle, application', () => {
  const classify = createClassifier({ frameworkDir: FRAMEWORK, pluginPackages: new Set(['@fastify/cors', 'fast-jwt']), sharedPackages: new Set(['cookie']) })
  const share = (f) => classify(f).share
  assert.equal(share(frame('dispatch', `${FRAMEWORK}/lib/routing/dispatch.js`)), 'framework')
  assert.equal(share(frame('x', '/app/packages/hotpath-other/lib/a.js')), 'application', 'a sibling directory is not the framework')
  assert.equal(share(frame('handleCors', '/app/node_modules/@fastify/cors/index.js')), 'plugins')
  assert.equal(share(frame('verify', '/app/node_modules/fast-jwt/src/verifier.js')), 'plugins')
  assert.equal(share(frame('parse', '/app/node_modules/cookie/index.js')), 'shared')
  assert.equal(share(frame('find', '/app/node_modules/find-my-way/index.js')), 'dependencies')
  assert.equal(share(frame('validate10', '', '87')), 'generated')
  assert.equal(share(frame('writeUtf8String', '', '0')), 'native')
  assert.equal(share(frame('Hmac', 'node:internal/crypto/hash')), 'node')
  assert.equal(share(frame('(program)', '', '0')), 'program')
  assert.equal(share(frame('(garbage collector)', '', '0')), 'gc')
  assert.equal(share(frame('(idle)', '', '0')), 'idle')
  assert.equal(share(frame('handler', '/app/lab/targets/common.js')), 'application')
})

/**
 * (root) ─┬─ (idle)
 *         ├─ dispatch (hotpath) ── write (node) ── writeUtf8String (native)
 *         ├─ handleCors (plugin) ── parse (cookie: shared) ── Hmac (node)
 *         ├─ route (hotpath) ── parse (cookie: shared)
 *         └─ (garbage collector)
 */
function syntheticProfile () {
  const nodes = [
    { id: 1, callFrame: frame('(root)', '', '0'), children: [2, 3, 6, 9, 11] },
    { id: 2, callFrame: frame('(idle)', '', '0'), children: [] },
    { id: 3, callFrame: frame('dispatch', `${FRAMEWORK}/lib/routing/dispatch.js`), children: [4] },
    { id: 4, callFrame: frame('write', 'node:net'), children: [5] },
    { id: 5, callFrame: frame('writeUtf8String', '', '0'), children: [] },
    { id: 6, callFrame: frame('handleCors', '/app/node_modules/@fastify/cors/index.js'), children: [7] },
    { id: 7, callFrame: frame('parse', '/app/node_modules/cookie/index.js'), children: [8] },
    { id: 8, callFrame: frame('Hmac', 'node:internal/crypto/hash'), children: [] },
    { id: 9, callFrame: frame('route', `${FRAMEWORK}/lib/routing/route.js`), children: [10] },
    { id: 10, callFrame: frame('parse', '/app/node_modules/cookie/index.js'), children: [] },
    { id: 11, callFrame: frame('(garbage collector)', '', '0'), children: [] }
  ]
  // one sample every 10 µs from t=1000: ids in order, the last one (t=1100) outside the window
  const samples = [3, 5, 5, 4, 6, 7, 8, 10, 11, 2, 5]
  return { nodes, samples, startTime: 990, endTime: 1110, timeDeltas: samples.map(() => 10) }
}

test('splitProfile: self time by share inside the windows, callees charged to the nearest JavaScript above', () => {
  const classify = createClassifier({ frameworkDir: FRAMEWORK, pluginPackages: new Set(['@fastify/cors']), sharedPackages: new Set(['cookie']) })
  const split = splitProfile(syntheticProfile(), [{ start: 1000, end: 1100 }], classify)
  assert.equal(split.samples, 10, 'the sample at 1100 is outside the window')
  assert.deepEqual(split.shares, { framework: 10, plugins: 20, dependencies: 10, generated: 0, application: 0, node: 20, native: 20, program: 0, gc: 10, idle: 10 },
    'cookie is the plugins\' under @fastify/cors, another package under the framework')
  assert.deepEqual(split.withCallees, { framework: 40, plugins: 30, dependencies: 10, generated: 0, application: 0, node: 0, native: 0, program: 0, gc: 10, idle: 10 })
  const dispatch = split.functions.find((f) => f.name === 'dispatch')
  assert.deepEqual([dispatch.us, dispatch.withCallees, dispatch.share], [10, 40, 'framework'])
  assert.ok(dispatch.file.endsWith('app/packages/hotpath/lib/routing/dispatch.js'), dispatch.file)
  assert.deepEqual(split.packages.map((p) => [p.share, p.pkg, p.us]), [['plugins', '@fastify/cors', 10], ['plugins', 'cookie', 10], ['dependencies', 'cookie', 10]])
})

test('the plugins\' packages: their closure less the framework\'s; the packages both load are shared', () => {
  const plugins = getScenario('plugin-stack').plugins
  const { pluginPackages, sharedPackages } = pluginPackagesOf(plugins, 'fastify')
  for (const p of plugins) assert.ok(pluginPackages.has(p), p)
  assert.ok(pluginPackages.has('fast-jwt'), '@fastify/jwt brings fast-jwt')
  assert.ok(!pluginPackages.has('fastify'))
  const fastify = dependencyClosure(['fastify'], new URL('..', import.meta.url).pathname)
  for (const s of sharedPackages) assert.ok(fastify.has(s), `${s} is Fastify's too`)
  assert.equal(pluginPackagesOf([], null).pluginPackages.size, 0)
})

test('renderSplit: one column group per target, the framework\'s top functions', () => {
  const classify = createClassifier({ frameworkDir: FRAMEWORK, pluginPackages: new Set(['@fastify/cors']), sharedPackages: new Set(['cookie']) })
  const split = splitProfile(syntheticProfile(), [{ start: 1000, end: 1100 }], classify)
  const run = (target) => ({ target, scenario: 'plugin-stack', framework: 'hotpath', requests: 2, seconds: 0.0001, rps: 20000, userSeconds: 0.00008, systemSeconds: 0.00002, ...split })
  const text = renderSplit({ options: { scenarios: ['plugin-stack'], rounds: 1, duration: 1, interval: 10 }, runs: [run('a'), run('b')] })
  assert.match(text, /a % busy +µs\/req +\+callees +b % busy/)
  assert.match(text, /framework's own code \(hotpath \/ hotpath\) +11\.1 +5\.00 +20\.00/)
  assert.match(text, /kernel \(stime\), % of CPU +20\.0 +10\.00/)
  assert.match(text, /a: top functions of hotpath's own code/)
  assert.match(text, /dispatch/)
})

test('--split: options', () => {
  const o = parseOptions(['--profile', 'plugins', '--split', '--targets', 'hotpath-wire,fastify', '--top', '5', '--prof-interval', '500'])
  assert.equal(o.mode, 'split')
  assert.deepEqual(o.scenarios, ['plugin-stack'])
  assert.deepEqual([o.top, o.profInterval, o.rounds], [5, 500, 5])
  assert.equal(parseOptions(['--split']).profInterval, 1000)
  assert.throws(() => parseOptions(['--top', '5']), UsageError)
  assert.throws(() => parseOptions(['--split', '--cmd', 'node x.js']), UsageError)
  assert.throws(() => parseOptions(['--profile', 'startup', '--split']), UsageError)
})

test('smoke: --split profiles hotpath-wire × hello under load and writes the split', { timeout: 120000 }, async (t) => {
  const { code, results, files, text } = await runCli(t, 'split', ['--split', '--targets', 'hotpath-wire', '--scenarios', 'hello', '--duration', '1', '--rounds', '1', '--warmup', '0', '--connections', '10'])
  assert.equal(code, 0)
  assert.equal(results.runs.length, 1)
  const run = results.runs[0]
  assert.equal(run.framework, 'hotpath')
  assert.ok(run.requests > 0 && run.samples > 0, 'samples inside the measured window')
  assert.ok(run.shares.framework > 0, 'hotpath\'s own files are found')
  assert.ok(fs.existsSync(run.profileFile), 'the profile is kept')
  assert.deepEqual(JSON.parse(fs.readFileSync(files.json, 'utf8')).runs.length, 1)
  assert.match(text, /framework's own code \(hotpath\)/)
})
