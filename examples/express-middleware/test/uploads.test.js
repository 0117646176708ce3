// multer (to memory, to disk, over its size limit, an upload cut off
// mid-file) and busboy used directly in a middleware.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import net from 'node:net'
import { once } from 'node:events'
import { eachMode, setup, multipart, sleep, SOCKET_MODES } from './helpers.js'
import { FILE_LIMIT } from '../middleware/uploads.js'

/** @param {Buffer} buf */
const sha256 = (buf) => createHash('sha256').update(buf).digest('hex')

eachMode('multer', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string} */
  let dir
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotpath-mw-uploads-'))
    s = await setup(mode, { uploadDir: dir })
  })
  after(async () => {
    await s.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a file to memory: req.raw.file with its buffer, fields in req.body', async () => {
    const data = randomBytes(20_000)
    const form = multipart({ title: 'a photo', tag: 'x' }, [{ field: 'file', name: 'photo.bin', type: 'application/octet-stream', data }])
    const res = await s.request({ method: 'POST', url: '/upload/memory', headers: { 'content-type': form.contentType }, payload: form.body })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), {
      fields: { title: 'a photo', tag: 'x' },
      file: { field: 'file', name: 'photo.bin', type: 'application/octet-stream', size: data.length, sha256: sha256(data) }
    })
  })

  test('a file to disk: stored under the upload folder with the bytes sent', async () => {
    const data = randomBytes(30_000)
    const form = multipart({ note: 'on disk' }, [{ field: 'file', name: 'report.pdf', type: 'application/pdf', data }])
    const res = await s.request({ method: 'POST', url: '/upload/disk', headers: { 'content-type': form.contentType }, payload: form.body })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.deepEqual(body.fields, { note: 'on disk' })
    assert.equal(body.file.size, data.length)
    assert.equal(body.file.sha256, sha256(data))
    assert.ok(body.file.path.startsWith(dir), 'stored under the upload folder')
    assert.equal(sha256(readFileSync(body.file.path)), sha256(data))
    rmSync(body.file.path)
  })

  test('a file over the limit: 413 from the error middleware, nothing left on disk', async () => {
    const before = readdirSync(dir)
    const data = randomBytes(FILE_LIMIT + 10_000)
    const form = multipart({}, [{ field: 'file', name: 'big.bin', type: 'application/octet-stream', data }])
    const res = await s.request({ method: 'POST', url: '/upload/disk', headers: { 'content-type': form.contentType }, payload: form.body })
    assert.equal(res.statusCode, 413)
    assert.deepEqual(res.json(), { statusCode: 413, code: 'LIMIT_FILE_SIZE', message: 'File too large' })
    await sleep(100)
    assert.deepEqual(readdirSync(dir), before)
  })
})

eachMode('multer: an upload cut off mid-file', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string} */
  let dir
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotpath-mw-uploads-'))
    s = await setup(mode, { uploadDir: dir })
  })
  after(async () => {
    await s.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('leaves no temp file, and the server keeps serving', async () => {
    const form = multipart({}, [{ field: 'file', name: 'cut.bin', type: 'application/octet-stream', data: randomBytes(60_000) }])
    const socket = net.connect(s.port, '127.0.0.1')
    socket.on('error', () => {})
    socket.setTimeout(5000, () => socket.destroy())
    await once(socket, 'connect')
    socket.write(`POST /upload/disk HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${form.contentType}\r\nContent-Length: ${form.body.length}\r\n\r\n`)
    // the head of the form and half the file, then the client is gone
    socket.write(form.body.subarray(0, 30_000))
    // multer has opened its file by now
    let seen = false
    for (let i = 0; i < 50 && !seen; i++) {
      seen = readdirSync(dir).length > 0
      if (!seen) await sleep(10)
    }
    socket.destroy()
    let left = readdirSync(dir)
    for (let i = 0; i < 100 && left.length > 0; i++) {
      await sleep(20)
      left = readdirSync(dir)
    }
    assert.deepEqual(left, [], 'the partial file is removed')
    const res = await s.request('/health')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { ok: true })
  })
}, SOCKET_MODES)

eachMode('busboy in a middleware', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode) })
  after(() => s.close())

  test('fields and files, each file streamed through a hash', async () => {
    const a = randomBytes(200_000)
    const b = Buffer.from('hello, busboy\n')
    const form = multipart({ name: 'ada', lang: 'en' }, [
      { field: 'first', name: 'a.bin', type: 'application/octet-stream', data: a },
      { field: 'second', name: 'b.txt', type: 'text/plain', data: b }
    ])
    const res = await s.request({ method: 'POST', url: '/busboy', headers: { 'content-type': form.contentType }, payload: form.body })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.deepEqual(body.fields, { name: 'ada', lang: 'en' })
    assert.deepEqual(body.files.map((/** @type {any} */ f) => ({ ...f, chunks: undefined })), [
      { field: 'first', name: 'a.bin', type: 'application/octet-stream', size: a.length, sha256: sha256(a), chunks: undefined },
      { field: 'second', name: 'b.txt', type: 'text/plain', size: b.length, sha256: sha256(b), chunks: undefined }
    ])
    // streamed: over a socket the big file comes in more than one piece
    // (inject hands the body over in one)
    if (mode !== 'inject') assert.ok(body.files[0].chunks > 1, `the first file came in ${body.files[0].chunks} chunk(s)`)
  })

  test('a malformed multipart body is a 400', async () => {
    const res = await s.request({ method: 'POST', url: '/busboy', headers: { 'content-type': 'multipart/form-data' }, payload: 'not multipart' })
    assert.equal(res.statusCode, 400)
  })
})
