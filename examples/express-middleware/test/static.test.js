// serve-static mounted at /static: index.html, validators and 304, ranges,
// the redirect to the folder's slash, and no way out of its root.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { eachMode, setup } from './helpers.js'
import { PUBLIC_DIR } from '../middleware/static.js'

const INDEX = readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8')
const ALPHABET = readFileSync(join(PUBLIC_DIR, 'alphabet.txt'), 'utf8')
// a file just outside the root: package.json of the example
const OUTSIDE = 'hotpath-example-express-middleware'

eachMode('serve-static', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode) })
  after(() => s.close())

  test('the folder answers with its index.html', async () => {
    const res = await s.request('/static/')
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^text\/html/)
    assert.equal(res.body, INDEX)
  })

  test('the folder without its slash is redirected to it', async () => {
    const res = await s.request('/static')
    assert.equal(res.statusCode, 301)
    assert.equal(res.headers.location, '/static/')
  })

  test('a file with its ETag, Last-Modified, Content-Length and type', async () => {
    const res = await s.request('/static/alphabet.txt')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, ALPHABET)
    assert.match(String(res.headers['content-type']), /^text\/plain/)
    assert.equal(res.headers['content-length'], String(ALPHABET.length))
    assert.match(String(res.headers.etag), /^W\/"[0-9a-f]+-[0-9a-f]+"$/)
    assert.equal(res.headers['last-modified'], statSync(join(PUBLIC_DIR, 'alphabet.txt')).mtime.toUTCString())
    assert.equal(res.headers['accept-ranges'], 'bytes')
    assert.match(String(res.headers['cache-control']), /max-age=0/)
  })

  test('If-None-Match with its ETag: 304 and no body', async () => {
    const first = await s.request('/static/alphabet.txt')
    const res = await s.request({ url: '/static/alphabet.txt', headers: { 'if-none-match': first.headers.etag } })
    assert.equal(res.statusCode, 304)
    assert.equal(res.body, '')
  })

  test('If-Modified-Since its Last-Modified: 304', async () => {
    const first = await s.request('/static/alphabet.txt')
    const res = await s.request({ url: '/static/alphabet.txt', headers: { 'if-modified-since': first.headers['last-modified'] } })
    assert.equal(res.statusCode, 304)
    assert.equal(res.body, '')
  })

  test('Range: 206 with the bytes asked for and Content-Range', async () => {
    const res = await s.request({ url: '/static/alphabet.txt', headers: { range: 'bytes=2-5' } })
    assert.equal(res.statusCode, 206)
    assert.equal(res.body, 'cdef')
    assert.equal(res.headers['content-range'], `bytes 2-5/${ALPHABET.length}`)
    assert.equal(res.headers['content-length'], '4')
  })

  test('a Range past the end: 416', async () => {
    const res = await s.request({ url: '/static/alphabet.txt', headers: { range: 'bytes=100-200' } })
    assert.equal(res.statusCode, 416)
    assert.equal(res.headers['content-range'], `bytes */${ALPHABET.length}`)
  })

  test('HEAD: the headers and no body', async () => {
    const res = await s.request({ method: 'HEAD', url: '/static/alphabet.txt' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-length'], String(ALPHABET.length))
    assert.equal(res.body, '')
  })

  for (const url of ['/static/../package.json', '/static/..%2fpackage.json', '/static/%2e%2e/package.json', '/static/%2e%2e%2fpackage.json']) {
    test(`no way out of the root: ${url}`, async () => {
      const res = await s.request(url)
      assert.notEqual(res.statusCode, 200)
      assert.ok(res.statusCode === 403 || res.statusCode === 404, `refused (${res.statusCode})`)
      assert.ok(!res.body.includes(OUTSIDE), 'the file outside the root is not sent')
    })
  }

  test('a file that is not there falls through to the 404', async () => {
    const res = await s.request('/static/nothing.txt')
    assert.equal(res.statusCode, 404)
  })
})
