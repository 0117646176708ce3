// Multipart uploads read from req.raw after the body stage: @fastify/multipart
// (its parser leaves the body to req.file()), busboy piped from req.raw in a
// handler, multer reading req.raw in a preParsing hook. With or without a
// preParsing hook that hands the body on unchanged (@fastify/compress adds
// one to every route), the whole body reaches its one reader, over
// keep-alive connections that go on, and with Connection: close.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import { once } from 'node:events'
import { createHash, randomBytes } from 'node:crypto'
import busboy from 'busboy'
import multer from 'multer'
import multipartPlugin from '@fastify/multipart'
import compress from '@fastify/compress'
import { eachMode, setup, SOCKET_MODES } from '../helpers/engines.js'

/** @param {Buffer} buf */
const sha256 = (buf) => createHash('sha256').update(buf).digest('hex')

const BOUNDARY = '----hotpath-upload-7d1f'
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`

/**
 * A form with one text field and one file, built by hand.
 * @param {Buffer} data
 */
function form (data) {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\na file\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="data.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  ])
}

/**
 * What the handlers answer for a file stream: its name, size and hash.
 * @param {import('node:stream').Readable} stream
 * @param {string} filename
 */
async function describeFile (stream, filename) {
  const hash = createHash('sha256')
  let size = 0
  for await (const chunk of stream) {
    size += chunk.length
    hash.update(chunk)
  }
  return { filename, size, sha256: hash.digest('hex') }
}

/** A preParsing hook that hands the body on as it is (callback style). */
function passThrough (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload, /** @type {Function} */ done) {
  done(null, payload)
}

/** @param {any} app */
async function routes (app) {
  // @fastify/multipart, with @fastify/compress's preParsing hook on every route
  await app.register(async (/** @type {any} */ scope) => {
    await scope.register(compress)
    await scope.register(multipartPlugin, { limits: { fileSize: 64 * 1024 * 1024 } })
    scope.post('/compress/file', fileRoute)
  })
  // @fastify/multipart with a pass-through hook of its own
  await app.register(async (/** @type {any} */ scope) => {
    await scope.register(multipartPlugin, { limits: { fileSize: 64 * 1024 * 1024 } })
    scope.addHook('preParsing', passThrough)
    scope.post('/hook/file', fileRoute)
  })
  // @fastify/multipart alone
  await app.register(async (/** @type {any} */ scope) => {
    await scope.register(multipartPlugin, { limits: { fileSize: 64 * 1024 * 1024 } })
    scope.post('/plain/file', fileRoute)
  })
  // busboy piped from req.raw in the handler, behind an async pass-through hook
  await app.register(async (/** @type {any} */ scope) => {
    scope.addContentTypeParser('multipart/form-data', (/** @type {any} */ req, /** @type {any} */ payload, /** @type {Function} */ done) => done(null))
    scope.addHook('preParsing', async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => payload)
    scope.post('/busboy', busboyRoute)
    // a hook that reads the first part of the body and hands the rest on
    scope.post('/busboy/after-partial-read', {
      preParsing: async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => {
        await new Promise((resolve) => payload.once('readable', resolve))
        payload.read(16)
        return payload
      }
    }, busboyRoute)
  })
  // multer reading req.raw in a preParsing hook
  await app.register(async (/** @type {any} */ scope) => {
    const upload = multer({ storage: multer.memoryStorage() }).single('file')
    scope.addContentTypeParser('multipart/form-data', (/** @type {any} */ req, /** @type {any} */ payload, /** @type {Function} */ done) => done(null))
    scope.addHook('preParsing', (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload, /** @type {Function} */ done) => {
      upload(req.raw, reply.raw, (/** @type {any} */ err) => done(err, payload))
    })
    scope.post('/multer', async (/** @type {any} */ req) => {
      const file = req.raw.file
      return { fields: { ...req.raw.body }, file: { filename: file.originalname, size: file.size, sha256: sha256(file.buffer) } }
    })
  })
  // a hook that reads the whole body through req.raw, on a route whose
  // parser would read it too
  app.post('/text/read-in-hook', {
    preParsing: async (/** @type {any} */ req, /** @type {any} */ reply, /** @type {any} */ payload) => {
      let size = 0
      for await (const chunk of req.raw) size += chunk.length
      req.hookRead = size
      return payload
    }
  }, async (/** @type {any} */ req) => ({ hookRead: req.hookRead, body: req.body ?? null }))
  app.get('/health', async () => ({ ok: true }))
}

/** @param {any} req */
async function fileRoute (req) {
  const part = await req.file()
  if (part === undefined) return { file: null }
  const file = await describeFile(part.file, part.filename)
  return { fields: { title: part.fields.title?.value }, file }
}

/**
 * @param {any} req
 * @param {any} reply
 */
function busboyRoute (req, reply) {
  return new Promise((resolve) => {
    const bb = busboy({ headers: req.headers })
    /** @type {Record<string, string>} */
    const fields = {}
    /** @type {Promise<object> | null} */
    let file = null
    bb.on('field', (name, value) => { fields[name] = value })
    bb.on('file', (name, stream, info) => { file = describeFile(stream, info.filename) })
    bb.on('close', async () => resolve({ fields, file: await file }))
    bb.on('error', (/** @type {any} */ err) => {
      req.raw.unpipe(bb)
      reply.code(400)
      resolve({ error: err.message })
    })
    req.raw.on('error', (/** @type {any} */ err) => {
      reply.code(500)
      resolve({ error: err.code ?? err.message })
    })
    req.raw.pipe(bb)
  })
}

/**
 * Sends the requests one after the other on one keep-alive connection
 * (inject: one by one) and tells whether the connection was reused.
 * @param {Awaited<ReturnType<typeof setup>>} s
 * @param {{ method: string, url: string, headers?: Record<string, string>, payload?: Buffer }[]} list
 */
async function onOneConnection (s, list) {
  if (s.mode === 'inject') {
    const out = []
    for (const o of list) out.push({ ...(await s.app.inject(o)), reused: true })
    return out
  }
  if (s.h2 !== null) {
    // one HTTP/2 session: its streams share the connection
    const out = []
    for (const o of list) out.push({ ...(await s.h2.request(o)), reused: true })
    return out
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const out = []
    for (const o of list) {
      out.push(await new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: s.port, method: o.method, path: o.url, headers: o.headers, agent }, (res) => {
          /** @type {Buffer[]} */
          const chunks = []
          res.on('data', (c) => chunks.push(c))
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString()
            resolve({ statusCode: res.statusCode, headers: res.headers, body, json: () => JSON.parse(body), reused: req.reusedSocket })
          })
        })
        req.on('error', reject)
        req.end(o.payload)
      }))
    }
    return out
  } finally {
    agent.destroy()
  }
}

/** @param {Buffer} body */
const upload = (body, /** @type {string} */ url, /** @type {Record<string, string>} */ extra = {}) =>
  ({ method: 'POST', url, headers: { 'content-type': CONTENT_TYPE, ...extra }, payload: body })

eachMode('multipart uploads read from req.raw', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  const small = randomBytes(1024 * 1024)
  const large = randomBytes(10 * 1024 * 1024)
  before(async () => { s = await setup(mode, routes) })
  after(() => s.close())

  for (const url of ['/plain/file', '/hook/file', '/compress/file']) {
    for (const [label, data] of /** @type {const} */ ([['1 MB', small], ['10 MB', large]])) {
      test(`@fastify/multipart req.file(), ${label}, ${url}: the whole file, and the connection goes on`, async () => {
        const [res, next] = await onOneConnection(s, [upload(form(data), url), { method: 'GET', url: '/health' }])
        assert.equal(res.statusCode, 200, res.body)
        assert.deepEqual(res.json(), { fields: { title: 'a file' }, file: { filename: 'data.bin', size: data.length, sha256: sha256(data) } })
        assert.equal(next.statusCode, 200)
        assert.deepEqual(next.json(), { ok: true })
        assert.equal(next.reused, true, 'the second request went on the same connection')
      })
    }
  }

  // Connection is an HTTP/1.1 field: an HTTP/2 request may not carry it (RFC 9113 §8.2.2)
  test('@fastify/multipart behind a pass-through hook, 10 MB with Connection: close', { skip: mode === 'h2' && 'no Connection on HTTP/2' }, async () => {
    const [res] = await onOneConnection(s, [upload(form(large), '/compress/file', { connection: 'close' })])
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json().file, { filename: 'data.bin', size: large.length, sha256: sha256(large) })
    if (mode !== 'inject') assert.equal(res.headers.connection, 'close')
    assert.equal((await s.request('/health')).statusCode, 200)
  })

  for (const [label, data] of /** @type {const} */ ([['1 MB', small], ['10 MB', large]])) {
    test(`busboy piped from req.raw behind a pass-through hook, ${label}, then the next request`, async () => {
      const [res, next] = await onOneConnection(s, [upload(form(data), '/busboy'), { method: 'GET', url: '/health' }])
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { fields: { title: 'a file' }, file: { filename: 'data.bin', size: data.length, sha256: sha256(data) } })
      assert.deepEqual(next.json(), { ok: true })
      assert.equal(next.reused, true)
    })

    test(`multer reading req.raw in preParsing, ${label}, then the next request`, async () => {
      const [res, next] = await onOneConnection(s, [upload(form(data), '/multer'), { method: 'GET', url: '/health' }])
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { fields: { title: 'a file' }, file: { filename: 'data.bin', size: data.length, sha256: sha256(data) } })
      assert.deepEqual(next.json(), { ok: true })
      assert.equal(next.reused, true)
    })
  }

  test('multer in preParsing with Connection: close', { skip: mode === 'h2' && 'no Connection on HTTP/2' }, async () => {
    const [res] = await onOneConnection(s, [upload(form(small), '/multer', { connection: 'close' })])
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().file.sha256, sha256(small))
    if (mode !== 'inject') assert.equal(res.headers.connection, 'close')
  })
})

eachMode('a body read whole by a preParsing hook', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode, routes) })
  after(() => s.close())

  test('is read once: the route\'s parser does not wait for it, the route runs without a parsed body', async () => {
    const text = 'x'.repeat(300_000)
    const [res, next] = await onOneConnection(s, [
      { method: 'POST', url: '/text/read-in-hook', headers: { 'content-type': 'text/plain' }, payload: Buffer.from(text) },
      { method: 'GET', url: '/health' }
    ])
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json(), { hookRead: text.length, body: null })
    assert.deepEqual(next.json(), { ok: true })
  })
})

// A reader slower than the client: reading from the socket stops while the
// reader holds what it was given, so the body waits in the client and the
// kernel, not in the server's memory. Counted with the server socket's
// bytesRead while the reader has stopped.
// Off h2: counted with the HTTP/1.1 server socket's bytesRead; on HTTP/2 the
// stream's flow-control window bounds what is buffered.
eachMode('a stalled reader of req.raw behind a pass-through hook', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {{ socket: any, release: () => void } | null} */
  let held = null
  /** @type {(value: void) => void} */
  let stalled = () => {}
  before(async () => {
    s = await setup(mode, (app) => {
      app.addContentTypeParser('application/octet-stream', (/** @type {any} */ req, /** @type {any} */ payload, /** @type {Function} */ done) => done(null))
      app.addHook('preParsing', passThrough)
      app.post('/slow', async (/** @type {any} */ req) => {
        const raw = req.raw
        const hash = createHash('sha256')
        let size = 0
        await new Promise((resolve) => raw.once('readable', resolve))
        // the reader takes one part, then stops until the test lets it go on
        for (let c; (c = raw.read()) !== null;) { size += c.length; hash.update(c) }
        await new Promise((resolve) => {
          held = { socket: raw.socket, release: () => resolve(undefined) }
          stalled()
        })
        for await (const c of raw) { size += c.length; hash.update(c) }
        return { size, sha256: hash.digest('hex') }
      })
    })
  })
  after(() => s.close())

  test('the server stops reading the socket; the whole body arrives once the reader goes on', async () => {
    const total = 48 * 1024 * 1024
    const block = randomBytes(1024 * 1024)
    const expected = createHash('sha256')
    for (let i = 0; i < total / block.length; i++) expected.update(block)
    const socket = net.connect(s.port, '127.0.0.1')
    await once(socket, 'connect')
    const reached = new Promise((resolve) => { stalled = resolve })
    socket.write(`POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${total}\r\nConnection: close\r\n\r\n`)
    let sent = 0
    // write until the socket stops taking more for a while
    while (sent < total) {
      sent += block.length
      if (!socket.write(block)) {
        const drained = await Promise.race([once(socket, 'drain').then(() => true), new Promise((resolve) => setTimeout(resolve, 300, false))])
        if (!drained && held !== null) break
      }
    }
    await reached
    const h = /** @type {{ socket: any, release: () => void }} */ (/** @type {unknown} */ (held))
    assert.ok(sent < total, 'the client could not send the whole body while the reader was stopped')
    assert.ok(h.socket.bytesRead < 16 * 1024 * 1024, `the server read ${h.socket.bytesRead} bytes while its reader held the first part`)
    const response = new Promise((resolve) => {
      /** @type {Buffer[]} */
      const chunks = []
      socket.on('data', (c) => chunks.push(c))
      socket.on('close', () => resolve(Buffer.concat(chunks).toString()))
    })
    h.release()
    while (sent < total) {
      sent += block.length
      if (!socket.write(block)) await once(socket, 'drain')
    }
    const text = /** @type {string} */ (await response)
    assert.match(text, /^HTTP\/1\.1 200 /)
    assert.deepEqual(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)), { size: total, sha256: expected.digest('hex') })
  })
}, SOCKET_MODES)

// The first preParsing hook's payload is req.raw itself on every engine, as
// Fastify gives it: what a hook read of it is gone for a later reader, as
// of node:http's IncomingMessage, the body stream itself. The route reads
// the same rest of the body on every engine as on the node engine.
eachMode('req.raw after a hook read part of the body', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let reference
  before(async () => {
    s = await setup(mode, routes)
    reference = await setup('node', routes)
  })
  after(() => Promise.all([s.close(), reference.close()]))

  test('the route reads what the hook left, as on node:http', async () => {
    // small enough to have arrived whole before the hook reads: the
    // connection is not left waiting for a rest nobody reads
    const body = form(randomBytes(2000))
    const res = await s.request(upload(body, '/busboy/after-partial-read'))
    const expected = await reference.request(upload(body, '/busboy/after-partial-read'))
    assert.equal(res.statusCode, expected.statusCode)
    assert.deepEqual(res.json(), expected.json())
    // the first 16 bytes (the boundary line) are gone: the file is not whole
    assert.notDeepEqual(res.json(), await (await s.request(upload(body, '/busboy'))).json())
  })
})
