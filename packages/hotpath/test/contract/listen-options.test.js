// listen()'s options as node:net's server.listen() and Fastify 5's listen()
// take them, on both engines under hotpath() and hotpath/fastify: a Unix
// socket `path` (and a stale socket file), an inherited `fd`, `exclusive`
// in a cluster worker, `ipv6Only`, `signal`, and the values refused.
// Everything listens on loopback (or a socket file) and every child
// process is bounded by its test's timeout.
import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { fork } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import hotpath from '../../lib/index.js'
import fastify from '../../lib/fastify.js'
import { eachMode, SOCKET_MODES } from '../helpers/engines.js'

// Off h2: each listen form is read with node:http's client.

const ENTRIES = /** @type {const} */ ([['hotpath()', hotpath, 'HP_ERR_INVALID_LISTEN_OPTION'], ['hotpath/fastify', fastify, 'FST_ERR_LISTEN_OPTIONS_INVALID']])
const UNIX = process.platform !== 'win32'
const CHILD = new URL('../helpers/listen-child.js', import.meta.url)
const CHILD_TIMEOUT = 60_000

/** @type {string[]} */
const files = []
/** A socket file path of this process's own, not there yet; removed at the end, whatever a test left. */
function socketPath () {
  const file = path.join(os.tmpdir(), `hotpath-listen-${process.pid}-${files.length}.sock`)
  fs.rmSync(file, { force: true })
  files.push(file)
  return file
}
after(() => { for (const file of files) fs.rmSync(file, { force: true }) })

/**
 * GET / over a TCP port or a Unix socket; resolves with status and body.
 * @param {{ port?: number, host?: string, socketPath?: string }} target
 * @returns {Promise<{ status: number | undefined, body: string }>}
 */
function get (target) {
  return new Promise((resolve, reject) => {
    const req = http.get({ ...target, path: '/', agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', reject)
  })
}

/**
 * Whether a TCP connection to host:port is accepted, or refused.
 * @param {number} port
 * @param {string} host
 * @returns {Promise<'connected' | string>}
 */
function connects (port, host) {
  return new Promise((resolve) => {
    const socket = net.connect(port, host)
    socket.on('connect', () => { socket.destroy(); resolve('connected') })
    socket.on('error', (/** @type {any} */ err) => resolve(err.code))
  })
}

/** Lines an app logs, parsed. */
function logSink () {
  /** @type {any[]} */
  const lines = []
  return { lines, stream: { write: (/** @type {string} */ line) => { lines.push(JSON.parse(line)) } } }
}

/**
 * Forks ./helpers/listen-child.js; resolves with it and its first report.
 * @param {Record<string, any>} config
 * @param {any[]} [extraStdio]  file descriptors handed to the child as fd 3, 4, ...
 */
async function child (config, extraStdio = []) {
  // bounded: killed past the test's own timeout, whatever it waits on
  const proc = fork(CHILD, [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', ...extraStdio, 'ipc'], timeout: CHILD_TIMEOUT, killSignal: 'SIGKILL' })
  const exited = once(proc, 'exit')
  const [report] = await Promise.race([once(proc, 'message'), exited.then(([code]) => { throw new Error(`child exited with ${code} before it reported`) })])
  return {
    report,
    async close () {
      if (proc.exitCode !== null || proc.signalCode !== null) return
      proc.send('close')
      await exited
    },
    kill () { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL') }
  }
}

const IPV6_LOOPBACK = await new Promise((resolve) => {
  const server = net.createServer()
  server.on('error', () => resolve(false))
  server.listen({ port: 0, host: '::1' }, () => server.close(() => resolve(true)))
})

for (const [entry, make, invalidCode] of ENTRIES) {
  eachMode(`listen({ path }) under ${entry}`, (mode) => {
    test('listens on the socket file: the path is what listen() gives, app.server.address() and the log line; the file is gone once closed', { skip: !UNIX }, async () => {
      const { lines, stream } = logSink()
      const app = make({ engine: mode, logger: { stream, level: 'info' } })
      app.get('/', () => ({ over: 'unix' }))
      const file = socketPath()
      const address = await app.listen({ path: file, listenTextResolver: (/** @type {string} */ at) => `ready on ${at}` })
      assert.equal(address, file)
      assert.equal(app.server.address(), file)
      assert.deepEqual(lines.filter((l) => l.msg.startsWith('ready on')).map((l) => l.msg), [`ready on ${file}`])
      assert.deepEqual(await get({ socketPath: file }), { status: 200, body: '{"over":"unix"}' })
      // inject answers beside the socket, as on any listening app
      assert.equal((await app.inject('/')).body, '{"over":"unix"}')
      await app.close()
      assert.equal(fs.existsSync(file), false)
    })

    test('a stale socket file is not taken over: listen() fails with EADDRINUSE, as Fastify does; once removed, it listens', { skip: !UNIX }, async () => {
      const file = socketPath()
      // a socket file left by a process that is gone: bound, never unlinked
      const stale = await child({ entry: 'hotpath', engine: mode, listen: { path: file } })
      stale.kill()
      assert.equal(fs.statSync(file).isSocket(), true)
      const app = make({ engine: mode })
      app.get('/', () => 'fresh')
      await assert.rejects(app.listen({ path: file }), { code: 'EADDRINUSE' })
      assert.equal(app.server.listening, false)
      fs.rmSync(file)
      assert.equal(await app.listen({ path: file }), file)
      assert.deepEqual(await get({ socketPath: file }), { status: 200, body: 'fresh' })
      await app.close()
    })

    test('readableAll and writableAll open the socket file to every user; a port given wins over a path, as node:net has it', { skip: !UNIX }, async () => {
      const app = make({ engine: mode })
      const file = socketPath()
      await app.listen({ path: file, readableAll: true, writableAll: true })
      assert.equal(fs.statSync(file).mode & 0o006, 0o006)
      await app.close()

      const both = make({ engine: mode })
      const unused = socketPath()
      const address = await both.listen({ port: 0, host: '127.0.0.1', path: unused })
      assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
      assert.equal(fs.existsSync(unused), false)
      await both.close()
    })
  }, SOCKET_MODES)

  eachMode(`listen({ fd }) under ${entry}`, (mode) => {
    test('a TCP socket inherited from the parent (fd 3): served, its address reported', { skip: !UNIX, timeout: CHILD_TIMEOUT }, async () => {
      const parent = net.createServer()
      await new Promise((resolve) => parent.listen({ port: 0, host: '127.0.0.1' }, () => resolve(undefined)))
      const port = /** @type {net.AddressInfo} */ (parent.address()).port
      const fd = /** @type {any} */ (parent)._handle.fd
      const served = await child({ entry: entry === 'hotpath()' ? 'hotpath' : 'fastify', engine: mode, listen: { fd: 3 } }, [fd])
      try {
        // the child holds its own copy: the parent's may close, and must,
        // or it would take connections too
        parent.close()
        const { report } = served
        assert.equal(report.address, `http://127.0.0.1:${port}`)
        assert.deepEqual(report.serverAddress, { address: '127.0.0.1', family: 'IPv4', port })
        const res = await get({ port, host: '127.0.0.1' })
        assert.equal(res.status, 200)
        assert.equal(JSON.parse(res.body).pid, report.pid)
        await served.close()
        assert.equal(await connects(port, '127.0.0.1'), 'ECONNREFUSED')
      } finally {
        served.kill()
      }
    })

    test('a Unix socket inherited as systemd hands one (fd 3): served; it has no readable address, so listen() gives fd:3', { skip: !UNIX, timeout: CHILD_TIMEOUT }, async () => {
      const parent = net.createServer()
      const bound = socketPath()
      await new Promise((resolve) => parent.listen(bound, () => resolve(undefined)))
      const fd = /** @type {any} */ (parent)._handle.fd
      const served = await child({ entry: entry === 'hotpath()' ? 'hotpath' : 'fastify', engine: mode, listen: { fd: 3 } }, [fd])
      // node:net removes the file it bound when its server closes; moved,
      // the file stays, and reaches the socket the child listens on
      const file = socketPath()
      fs.renameSync(bound, file)
      parent.close()
      try {
        const { report } = served
        assert.equal(report.address, 'fd:3')
        assert.equal(report.origin, 'fd:3')
        assert.equal(report.serverAddress, null)
        const res = await get({ socketPath: file })
        assert.equal(res.status, 200)
        assert.equal(JSON.parse(res.body).pid, report.pid)
        await served.close()
      } finally {
        served.kill()
        fs.rmSync(file, { force: true })
      }
    })

    test('an fd that is not a socket fails listen() with node:net\'s error; the app can listen after', async () => {
      const app = make({ engine: mode })
      app.get('/', () => 'ok')
      const fd = fs.openSync(new URL(import.meta.url), 'r')
      try {
        await assert.rejects(app.listen({ fd }), { code: 'EINVAL' })
      } finally {
        fs.closeSync(fd)
      }
      assert.equal(app.server.listening, false)
      assert.match(await app.listen({ port: 0, host: '127.0.0.1' }), /^http:\/\/127\.0\.0\.1:\d+$/)
      await app.close()
    })
  }, SOCKET_MODES)

  eachMode(`listen({ exclusive }) in cluster workers under ${entry}`, (mode) => {
    for (const exclusive of [false, true]) {
      test(exclusive
        ? 'exclusive: true: each worker opens a handle of its own (a port of its own, answered by that worker)'
        : 'exclusive: false: the workers share the primary\'s handle (one port)', { skip: !UNIX, timeout: CHILD_TIMEOUT }, async () => {
        const primary = await child({ entry: entry === 'hotpath()' ? 'hotpath' : 'fastify', engine: mode, cluster: true, listen: { port: 0, host: '127.0.0.1', exclusive } })
        try {
          const workers = /** @type {any[]} */ (primary.report.workers)
          assert.equal(workers.length, 2, JSON.stringify(primary.report))
          const ports = workers.map((w) => w.serverAddress.port)
          for (const w of workers) assert.equal(w.address, `http://127.0.0.1:${w.serverAddress.port}`)
          if (!exclusive) {
            assert.equal(ports[0], ports[1])
            assert.equal((await get({ port: ports[0], host: '127.0.0.1' })).status, 200)
          } else {
            assert.notEqual(ports[0], ports[1])
            for (const w of workers) {
              const res = await get({ port: w.serverAddress.port, host: '127.0.0.1' })
              assert.equal(JSON.parse(res.body).pid, w.pid)
            }
          }
          await primary.close()
        } finally {
          primary.kill()
        }
      })
    }
  }, SOCKET_MODES)

  eachMode(`listen({ ipv6Only }) under ${entry}`, (mode) => {
    const skip = IPV6_LOOPBACK ? false : 'this machine has no IPv6 loopback (::1)'
    test('on host "::", ipv6Only: true takes IPv6 clients only; an IPv4 client is refused', { skip }, async () => {
      const app = make({ engine: mode })
      app.get('/', () => 'v6')
      await app.listen({ port: 0, host: '::', ipv6Only: true })
      const port = app.server.address().port
      assert.deepEqual(await get({ port, host: '::1' }), { status: 200, body: 'v6' })
      assert.equal(await connects(port, '127.0.0.1'), 'ECONNREFUSED')
      await app.close()
    })

    test('on host "::" without it: dual-stack, IPv4 clients too', { skip }, async () => {
      const app = make({ engine: mode })
      app.get('/', () => 'both')
      const address = await app.listen({ port: 0, host: '::' })
      const port = app.server.address().port
      assert.equal(address, `http://[::]:${port}`)
      assert.deepEqual(await get({ port, host: '::1' }), { status: 200, body: 'both' })
      assert.deepEqual(await get({ port, host: '127.0.0.1' }), { status: 200, body: 'both' })
      await app.close()
    })
  }, SOCKET_MODES)

  eachMode(`listen({ signal }) under ${entry}`, (mode) => {
    test('aborted before listen(): the app closes (onClose runs), listen() resolves undefined, the callback is never called, nothing listens', async () => {
      const app = make({ engine: mode })
      let closed = 0
      app.addHook('onClose', async () => { closed++ })
      const controller = new AbortController()
      controller.abort()
      let called = false
      assert.equal(await app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal }, () => { called = true }), undefined)
      await new Promise((resolve) => setImmediate(resolve))
      assert.equal(closed, 1)
      assert.equal(called, false)
      assert.equal(app.server.listening, false)
    })

    test('aborted once listening: the app closes as app.close() does; new connections are refused', async () => {
      const app = make({ engine: mode })
      app.get('/', () => 'up')
      const onClose = new Promise((resolve) => app.addHook('onClose', async () => { resolve(true) }))
      const controller = new AbortController()
      await app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal })
      const port = app.server.address().port
      assert.deepEqual(await get({ port, host: '127.0.0.1' }), { status: 200, body: 'up' })
      controller.abort()
      assert.equal(await onClose, true)
      await app.close()
      assert.equal(app.server.listening, false)
      assert.equal(await connects(port, '127.0.0.1'), 'ECONNREFUSED')
    })
  }, SOCKET_MODES)

  eachMode(`listen() refuses what it cannot use, under ${entry}`, (mode) => {
    const bad = /** @type {[Record<string, any> | any, RegExp][]} */ ([
      [{ host: 5, port: 0 }, /options\.host/],
      [{ path: 123 }, /options\.path/],
      [{ path: '' }, /options\.path/],
      [{ fd: -1 }, /options\.fd/],
      [{ fd: '3' }, /options\.fd/],
      [{ port: 0, backlog: 'many' }, /options\.backlog/],
      [{ port: 0, host: '::', ipv6Only: 'yes' }, /options\.ipv6Only/],
      [{ port: 0, exclusive: 1 }, /options\.exclusive/],
      [{ path: '/tmp/x.sock', readableAll: 'true' }, /options\.readableAll/],
      [{ path: '/tmp/x.sock', writableAll: 0 }, /options\.writableAll/],
      [{ port: 0, listenTextResolver: 'at' }, /options\.listenTextResolver/],
      [3000, /must be an object/],
      [null, /must be an object/]
    ])
    test(`a wrong value rejects with ${invalidCode}, naming the option; nothing listens, and the app can listen after`, async () => {
      const app = make({ engine: mode })
      app.get('/', () => 'ok')
      for (const [opts, message] of bad) {
        await assert.rejects(app.listen(opts), (/** @type {any} */ err) => {
          assert.equal(err.code, invalidCode, JSON.stringify(opts))
          assert.match(err.message, message)
          return true
        })
        assert.equal(app.server.listening, false)
      }
      // a wrong port is node:net's to refuse, as in Fastify
      for (const port of [-1, 65536, 'http', '1234hello', 1.5]) {
        await assert.rejects(app.listen({ port }), { code: 'ERR_SOCKET_BAD_PORT' }, String(port))
        assert.equal(app.server.listening, false)
      }
      /** @type {[any, any]} */
      const [err, address] = await new Promise((resolve) => app.listen({ port: 0, fd: -1 }, (e, a) => resolve([e, a])))
      assert.equal(err.code, invalidCode)
      assert.equal(address, null)
      assert.match(await app.listen({ port: 0, host: '127.0.0.1' }), /^http:\/\/127\.0\.0\.1:\d+$/)
      await app.close()
    })

    test('port and backlog given as strings (from the environment) are taken, as node:net takes them', async () => {
      const app = make({ engine: mode })
      app.get('/', () => 'env')
      const address = await app.listen({ port: '0', host: '127.0.0.1', backlog: '16' })
      assert.deepEqual(await get({ port: Number(new URL(address).port), host: '127.0.0.1' }), { status: 200, body: 'env' })
      await app.close()
    })
  }, SOCKET_MODES)
}
