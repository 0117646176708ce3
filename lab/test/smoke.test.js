// End to end: the CLI runs one target × one scenario for one second, and
// writes JSON, CSV and HTML. Checks behaviour only, never the figures.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { main } from '../runner/cli.js'
import { runCli } from './cli-run.js'

test('smoke: node-http × hello for 1 s through the whole pipeline', { timeout: 60000 }, async (t) => {
  const { code, results, files, text } = await runCli(t, 'smoke', ['--targets', 'node-http', '--scenarios', 'hello', '--duration', '1', '--rounds', '1', '--warmup', '0', '--connections', '10'])
  assert.equal(code, 0)
  assert.deepEqual(results.status.map((s) => [s.target, s.state]), [['node-http', 'timed']])
  assert.equal(results.samples.length, 1)
  const s = results.samples[0]
  assert.ok(s.requests > 0, 'requests were answered')
  assert.equal(s.errors + s.timeouts + s.non2xx, 0)
  assert.ok(s.latency[50] > 0 && s.latency[99] >= s.latency[50])
  if (fs.existsSync('/proc/self/stat')) {
    assert.ok(s.cpuUsPerReq > 0, 'CPU time per request from /proc')
    assert.ok(s.rss > 0, 'peak RSS from /proc')
  }
  assert.ok(s.gcMs !== null, 'GC time reported by the probe in the server')
  const json = JSON.parse(fs.readFileSync(files.json, 'utf8'))
  assert.equal(json.samples.length, 1)
  assert.equal(json.env.loader.name, 'autocannon')
  assert.match(path.basename(files.json), /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-node\d+\.\d+\.\d+-.+\.json$/)
  assert.equal(fs.readFileSync(files.csv, 'utf8').trimEnd().split('\r\n').length, 2)
  assert.match(fs.readFileSync(files.html, 'utf8'), /<svg [^>]*class="bars"/)
  assert.match(text, /node-http\s+[\d,]+\s+[\d,]+–[\d,]+\s+1\.00×/)
})

test('smoke: --cmd runs the user\'s own server with PORT and HOST, and still gets its GC figures', { timeout: 60000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-cmd-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const server = path.join(dir, 'server.mjs')
  fs.writeFileSync(server, "import http from 'node:http'\nhttp.createServer((req, res) => { res.statusCode = req.url === '/health' ? 200 : 404; res.end('ok') }).listen(process.env.PORT, process.env.HOST)\n")
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  stdout.resume(); stderr.resume()
  const { code, results } = await main(['--cmd', `${JSON.stringify(process.execPath)} ${JSON.stringify(server)}`, '--url', '/health', '--duration', '1', '--rounds', '1', '--warmup', '0', '--connections', '10', '--out', dir, '--no-html'], { stdout, stderr })
  assert.equal(code, 0)
  assert.deepEqual(results.status.map((s) => [s.target, s.scenario, s.state]), [['custom', 'custom', 'timed']])
  const s = results.samples[0]
  assert.ok(s.requests > 0)
  assert.equal(s.non2xx, 0)
  assert.ok(s.gcMs !== null, 'the probe reached the server through NODE_OPTIONS')
})

test('a server that answers wrongly is reported and never timed; one that cannot start is reported too', { timeout: 60000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-bad-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const server = path.join(dir, 'server.mjs')
  fs.writeFileSync(server, "import http from 'node:http'\nhttp.createServer((req, res) => { res.statusCode = 500; res.end('boom') }).listen(process.env.PORT, process.env.HOST)\n")
  const run = (cmd) => main(['--cmd', cmd, '--duration', '1', '--rounds', '1', '--warmup', '0', '--out', dir, '--no-html'], { stdout: new PassThrough().resume(), stderr: new PassThrough().resume() })
  const wrong = await run(`${JSON.stringify(process.execPath)} ${JSON.stringify(server)}`)
  assert.equal(wrong.code, 0)
  assert.equal(wrong.results.status[0].state, 'failed conformance')
  assert.match(wrong.results.status[0].reason, /status 500, expected 2xx/)
  assert.equal(wrong.results.samples.length, 0, 'never timed')
  const dead = await run(`${JSON.stringify(process.execPath)} -e "console.error('Error: no database'); process.exit(1)"`)
  assert.equal(dead.results.status[0].state, 'failed to start')
  assert.match(dead.results.status[0].reason, /exited with code 1: Error: no database/)
  assert.equal(dead.results.summaries[0].state, 'failed to start')
})

test('a usage error exits 2 with a message and runs nothing', async () => {
  const stderr = new PassThrough()
  let err = ''
  stderr.on('data', (d) => { err += d })
  const { code } = await main(['--rounds', 'x'], { stdout: new PassThrough(), stderr })
  assert.equal(code, 2)
  assert.match(err, /--rounds must be a whole number/)
})
