// Every target starts and passes conformance (exact bytes, bad input → 400)
// on the scenarios whose code differs most between frameworks. A target that
// breaks here would be reported as failed by `npm run bench`.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { targets } from '../targets/index.js'
import { getScenario } from '../scenarios/index.js'
import net from 'node:net'
import { startServer } from '../runner/server.js'
import { checkTarget } from '../runner/conformance.js'
import { withFloorWork } from '../runner/run.js'

const scenarios = ['hello', 'json-post', 'hooks'].map(getScenario)

// the traced twins run the same files: otel.test.js checks them against these;
// the HTTP/2 servers serve h2-hello only (h2.test.js)
for (const target of targets.filter((t) => !t.untraced && (t.protocol ?? 'h1') === 'h1')) {
  test(`target ${target.id} answers every checked scenario correctly`, { timeout: 60000 }, async () => {
    for (const scenario of scenarios) {
      const start = startServer({ file: target.file, env: { ...target.env, LAB_SCENARIO: scenario.id }, nodeBin: process.execPath, cpu: null, startTimeout: 0 })
      // the floor (the canned node:net server) answers hello alone
      const srv = target.floor && scenario.id !== 'hello' ? await start.catch((err) => { assert.equal(err.unsupported, true); return null }) : await start
      if (srv === null) continue
      try {
        const r = await checkTarget({ port: srv.port, scenario })
        assert.deepEqual(r.problems, [], `${target.id} · ${scenario.id}`)
      } finally {
        await srv.stop()
      }
    }
  })
}

test('a target that does not serve a scenario says so instead of failing', async () => {
  const target = targets.find((t) => t.id === 'node-http')
  await assert.rejects(startServer({ file: target.file, env: { LAB_SCENARIO: 'no-such-scenario' }, nodeBin: process.execPath, cpu: null, startTimeout: 0 }),
    (err) => err.unsupported === true)
})

for (const id of ['net-canned', 'net-route', 'net-parsed']) test(`the floor server ${id} answers each request once, pipelined or split across reads`, async () => {
  const target = targets.find((t) => t.id === id)
  const srv = await startServer({ file: target.file, env: { ...target.env, LAB_SCENARIO: 'hello' }, nodeBin: process.execPath, cpu: null, startTimeout: 0 })
  try {
    const one = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'
    const socket = net.connect(srv.port, '127.0.0.1')
    let got = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => { got += d })
    await new Promise((resolve) => socket.once('connect', resolve))
    // three in one write, then one cut inside its blank line
    socket.write(one.repeat(3) + one.slice(0, -3))
    await new Promise((resolve) => setTimeout(resolve, 50))
    socket.write(one.slice(-3))
    const answers = () => got.split('HTTP/1.1 200 OK\r\n').length - 1
    for (let i = 0; i < 100 && answers() < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    socket.end()
    assert.equal(answers(), 4)
    assert.match(got, /content-length: 17\r\n/)
    assert.ok(got.endsWith('{"hello":"world"}'))
  } finally {
    await srv.stop()
  }
})

test('--floor-work goes to the floor and its steps alone, named in their labels, and they still answer hello correctly', { timeout: 60000 }, async () => {
  const list = withFloorWork(targets.filter((t) => ['net-canned', 'net-route', 'net-parsed', 'hotpath-wire'].includes(t.id)), 60)
  const byId = Object.fromEntries(list.map((t) => [t.id, t]))
  for (const id of ['net-canned', 'net-route', 'net-parsed']) {
    assert.equal(byId[id].env.LAB_FLOOR_WORK, '60')
    assert.match(byId[id].label, /\+60 loop iterations a request$/)
  }
  assert.equal(byId['hotpath-wire'].env.LAB_FLOOR_WORK, undefined)
  assert.equal(byId['net-parsed'].env.LAB_PARSER, 'hotpath')
  assert.equal(withFloorWork(list, 0), list)
  for (const id of ['net-canned', 'net-route', 'net-parsed']) {
    const srv = await startServer({ file: byId[id].file, env: { ...byId[id].env, LAB_SCENARIO: 'hello' }, nodeBin: process.execPath, cpu: null, startTimeout: 0 })
    try {
      const r = await checkTarget({ port: srv.port, scenario: getScenario('hello') })
      assert.deepEqual(r.problems, [], id)
    } finally {
      await srv.stop()
    }
  }
})
