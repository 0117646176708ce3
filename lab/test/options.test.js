import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseOptions, UsageError } from '../runner/options.js'
import { targetGroups } from '../targets/index.js'
import { wrkVersion } from '../runner/loaders/wrk.js'

test('no options: the default profile', () => {
  const o = parseOptions([])
  assert.equal(o.mode, 'run')
  assert.equal(o.profile, 'default')
  assert.deepEqual(o.targets, targetGroups.all)
  assert.deepEqual(o.scenarios, ['hello', 'params', 'json-post', 'delay-1ms'])
  assert.equal(o.rounds, 3)
  assert.equal(o.connections, 100)
  assert.equal(o.loader, 'autocannon')
  assert.equal(o.pin, 'auto')
  assert.equal(o.pipelining, null)
  assert.equal(o.node, null)
})

test('explicit options override the profile; lists are deduplicated; groups expand', () => {
  const o = parseOptions(['--profile', 'core', '--targets', 'fastify,hotpath,fastify', '--scenarios', 'hello', '--rounds', '7', '--duration', '4', '--warmup', '0', '--connections', '50', '--pipelining', '4', '--loader', 'wrk', '--out', '/tmp/x', '--no-html'])
  assert.deepEqual(o.targets, ['fastify', 'hotpath-node', 'hotpath-wire'])
  assert.deepEqual(o.scenarios, ['hello'])
  assert.equal(o.rounds, 7)
  assert.equal(o.duration, 4)
  assert.equal(o.warmup, 0)
  assert.equal(o.connections, 50)
  assert.equal(o.pipelining, 4)
  assert.equal(o.loader, 'wrk')
  assert.equal(o.out, '/tmp/x')
  assert.equal(o.html, false)
  assert.equal(o.goals.length, 6, 'the core profile keeps its goals')
})

test('profiles set their own targets, scenarios and method', () => {
  const core = parseOptions(['--profile', 'core'])
  assert.deepEqual(core.targets, ['node-http', 'hotpath-node', 'fastify'])
  assert.deepEqual(core.scenarios, ['hello', 'params', 'json-post', 'delay-1ms', 'hooks'])
  assert.equal(core.rounds, 5)
  const wire = parseOptions(['--profile', 'wire'])
  assert.ok(wire.targets.includes('hotpath-wire'))
  assert.deepEqual(wire.scenarios, ['hello', 'pipelined', 'json-post', 'params', 'delay-1ms'])
  assert.equal(wire.loader, wrkVersion() ? 'wrk' : 'autocannon', 'wrk when it is installed')
  assert.equal(parseOptions(['--profile', 'wire', '--loader', 'autocannon']).loader, 'autocannon')
  const middleware = parseOptions(['--profile', 'middleware'])
  assert.deepEqual(middleware.targets, ['express', 'polka', 'hotpath-node', 'hotpath-wire'])
  assert.deepEqual(middleware.scenarios, ['middleware'])
  assert.deepEqual(middleware.goals.map((g) => [g.target, g.vs, g.ratio]), [['hotpath-wire', 'express', 1.5]])
})

test('--node, --pin, --no-pin', () => {
  assert.deepEqual(parseOptions(['--node', '20, v22,24']).node, ['20', '22', '24'])
  assert.deepEqual(parseOptions(['--pin', '2:5']).pin, { server: 2, loader: 5 })
  assert.equal(parseOptions(['--no-pin']).pin, null)
})

test('--cmd measures a custom server on --url', () => {
  const o = parseOptions(['--cmd', 'node server.js', '--url', '/health'])
  assert.equal(o.cmd, 'node server.js')
  assert.equal(o.url, '/health')
  assert.deepEqual(o.targets, ['custom'])
  assert.deepEqual(o.scenarios, ['custom'])
  assert.equal(parseOptions(['--cmd', 'node s.js']).url, '/')
})

test('--compare takes exactly two files', () => {
  const o = parseOptions(['--compare', 'a.json', 'b.json'])
  assert.equal(o.mode, 'compare')
  assert.deepEqual(o.files, ['a.json', 'b.json'])
  assert.throws(() => parseOptions(['--compare', 'a.json']), /two results files/)
})

test('help and list', () => {
  assert.equal(parseOptions(['--help']).mode, 'help')
  assert.equal(parseOptions(['-h']).mode, 'help')
  assert.equal(parseOptions(['--list']).mode, 'list')
})

test('bad options are usage errors that say what is wrong', () => {
  const bad = [
    [['--targets', 'nope'], /unknown target "nope"/],
    [['--scenarios', 'hello,zzz'], /unknown scenario "zzz"/],
    [['--targets', ','], /--targets is empty/],
    [['--duration', '1.5'], /--duration must be a whole number/],
    [['--rounds', '0'], /--rounds must be a whole number from 1/],
    [['--connections', 'many'], /--connections/],
    [['--loader', 'ab'], /--loader must be autocannon, wrk or h2load/],
    [['--node', '22.1'], /--node takes Node major versions/],
    [['--pin', '1:1'], /two different CPU numbers/],
    [['--pin', '0:1', '--no-pin'], /contradict/],
    [['--url', '/x'], /--url goes with --cmd/],
    [['--cmd', 'node s.js', '--url', 'x'], /must start with "\/"/],
    [['--cmd', 'node s.js', '--targets', 'fastify'], /leave out --targets/],
    [['--profile', 'fast'], /unknown profile "fast"/],
    [['--targets', 'fastify', '--baseline-hotpath', '/x'], /--baseline-hotpath goes with a hotpath target/],
    [['--bogus'], /bogus/],
    [['stray'], /unexpected argument "stray"/]
  ]
  for (const [argv, re] of bad) assert.throws(() => parseOptions(argv), (err) => err instanceof UsageError && re.test(err.message), argv.join(' '))
})

test('the startup profile: its own targets, sizes and rounds; the req/s options do not apply', () => {
  const o = parseOptions(['--profile', 'startup'])
  assert.equal(o.mode, 'startup')
  assert.deepEqual(o.startup?.targets, ['hotpath', 'fastify', 'express', 'hono'])
  assert.deepEqual(o.startup?.routes, [100, 1000, 10000])
  assert.equal(o.startup?.roundsBySize['10000'], 1)
  const some = parseOptions(['--profile', 'startup', '--routes', '50,500', '--rounds', '2', '--targets', 'hotpath,fastify'])
  assert.deepEqual(some.startup?.routes, [50, 500])
  assert.equal(some.startup?.rounds, 2)
  assert.deepEqual(some.startup?.roundsBySize, {}, 'rounds given: every size gets them')
  assert.throws(() => parseOptions(['--profile', 'startup', '--targets', 'koa']), UsageError)
  assert.throws(() => parseOptions(['--profile', 'startup', '--duration', '3']), UsageError)
  assert.throws(() => parseOptions(['--routes', '100']), UsageError)
  assert.equal(parseOptions(['--profile', 'startup', '--help']).mode, 'help')
})

test('--baseline-hotpath on a load profile: the directory is kept for the hotpath targets\' twins', () => {
  const o = parseOptions(['--targets', 'hotpath-wire,fastify', '--baseline-hotpath', '/some/hotpath'])
  assert.equal(o.baselineHotpath, '/some/hotpath')
  assert.equal(parseOptions([]).baselineHotpath, null)
})

test('the idle profile: every HTTP/1.1 target and node:net, 10,000 connections; the load options do not apply', () => {
  const o = parseOptions(['--profile', 'idle'])
  assert.equal(o.mode, 'idle')
  assert.deepEqual(o.idle?.targets, ['net-canned', ...targetGroups.all])
  assert.equal(o.idle?.connections, 10000)
  assert.equal(o.idle?.rounds, 3)
  assert.equal(o.idle?.heapSnapshots, null)
  assert.equal(o.idle?.baselineHotpath, null)
  assert.equal(o.idle?.pin, 'auto')
  const some = parseOptions(['--profile', 'idle', '--targets', 'node-http,hotpath', '--connections', '500', '--rounds', '2', '--heap-snapshots', '/tmp/snaps', '--baseline-hotpath', '/x/packages/hotpath', '--no-pin', '--out', '/tmp/o'])
  assert.deepEqual(some.idle?.targets, ['node-http', 'hotpath-node', 'hotpath-wire'])
  assert.equal(some.idle?.connections, 500)
  assert.equal(some.idle?.rounds, 2)
  assert.equal(some.idle?.heapSnapshots, '/tmp/snaps')
  assert.equal(some.idle?.baselineHotpath, '/x/packages/hotpath')
  assert.equal(some.idle?.pin, null)
  assert.equal(some.idle?.out, '/tmp/o')
  assert.deepEqual(parseOptions(['--profile', 'idle', '--pin', '1:0']).idle?.pin, { server: 1, loader: 0 })
  const bad = [
    [['--profile', 'idle', '--targets', 'node-http2'], /unknown target "node-http2"/],
    [['--profile', 'idle', '--connections', '0'], /--connections must be a whole number from 1/],
    [['--profile', 'idle', '--duration', '3'], /--duration does not apply to --profile idle/],
    [['--profile', 'idle', '--loader', 'wrk'], /--loader does not apply/],
    [['--profile', 'idle', '--baseline-hotpath', '/x', '--targets', 'fastify'], /goes with the hotpath-wire target/],
    [['--heap-snapshots', '/tmp/x'], /goes with --profile idle/]
  ]
  for (const [argv, re] of bad) assert.throws(() => parseOptions(argv), (err) => err instanceof UsageError && re.test(err.message), argv.join(' '))
  assert.equal(parseOptions(['--profile', 'idle', '--help']).mode, 'help')
})

test('--floor-work: a whole number of loop iterations, 0 by default, refused when negative', () => {
  assert.equal(parseOptions([]).floorWork, 0)
  assert.equal(parseOptions(['--profile', 'floor', '--floor-work', '60']).floorWork, 60)
  assert.throws(() => parseOptions(['--floor-work', '-1']), UsageError)
  assert.throws(() => parseOptions(['--floor-work', 'lots']), UsageError)
  assert.throws(() => parseOptions(['--profile', 'idle', '--floor-work', '60']), /does not apply to --profile idle/)
  assert.throws(() => parseOptions(['--profile', 'startup', '--floor-work', '60']), /does not apply to --profile startup/)
})
