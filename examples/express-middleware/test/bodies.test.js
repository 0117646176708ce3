// body-parser (json, urlencoded, raw, text) and express.json() /
// express.urlencoded(): the route sees what the middleware parsed as
// req.body; a body the middleware refuses gets its status and a JSON error.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from './helpers.js'

eachMode('body parsers', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode) })
  after(() => s.close())

  test('bodyParser.json(): the parsed object', async () => {
    const res = await s.request({ method: 'POST', url: '/parse/json', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 1, list: [1, 2], nested: { ok: true } }) })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: { a: 1, list: [1, 2], nested: { ok: true } } })
  })

  test('bodyParser.json(): malformed JSON is a 400 with a JSON error body', async () => {
    const res = await s.request({ method: 'POST', url: '/parse/json', headers: { 'content-type': 'application/json' }, payload: '{"a": 1,' })
    assert.equal(res.statusCode, 400)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    const body = res.json()
    assert.equal(body.statusCode, 400)
    assert.equal(body.error, 'Bad Request')
  })

  test("bodyParser.json(): a body over the middleware's limit is its 413", async () => {
    const res = await s.request({ method: 'POST', url: '/parse/json', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ pad: 'x'.repeat(4096) }) })
    assert.equal(res.statusCode, 413)
    assert.equal(res.json().statusCode, 413)
  })

  test('bodyParser.urlencoded({ extended: true }): nested fields', async () => {
    const res = await s.request({ method: 'POST', url: '/parse/form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=ada&langs[]=en&langs[]=fr&address[city]=London' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: { name: 'ada', langs: ['en', 'fr'], address: { city: 'London' } } })
  })

  test('bodyParser.raw(): a Buffer with the bytes sent', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13])
    const res = await s.request({ method: 'POST', url: '/parse/raw', headers: { 'content-type': 'application/octet-stream' }, payload: bytes })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { isBuffer: true, hex: bytes.toString('hex') })
  })

  test('bodyParser.text(): the string, decoded by its charset, for a type hotpath has no parser for', async () => {
    const res = await s.request({ method: 'POST', url: '/parse/text', headers: { 'content-type': 'text/csv; charset=latin1' }, payload: Buffer.from('name,city\nZoë,Zürich\n', 'latin1') })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: 'name,city\nZoë,Zürich\n' })
  })

  test('express.json(): the parsed object', async () => {
    const res = await s.request({ method: 'POST', url: '/parse/express-json', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ hello: 'world' }) })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: { hello: 'world' } })
  })

  test('express.json(): malformed JSON is a 400 with a JSON error body', async () => {
    const res = await s.request({ method: 'POST', url: '/parse/express-json', headers: { 'content-type': 'application/json' }, payload: '{not json' })
    assert.equal(res.statusCode, 400)
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.equal(res.json().statusCode, 400)
  })

  test('express.urlencoded({ extended: false }): flat fields', async () => {
    const res = await s.request({ method: 'POST', url: '/parse/express-form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1&b=two&b=three' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: { a: '1', b: ['two', 'three'] } })
  })
})
