// Characters on the wire, beside node:http: a string body goes out as its
// UTF-8 bytes with their length, a header's or a trailer's obs-text
// (0x80-0xFF) as its one latin1 byte, whether the answer goes out alone or
// in one write with other pipelined answers (the wire engine writes the
// strings it joins as latin1, lib/engines/wire/output.js, and a body
// outside ASCII as its bytes).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import { eachMode, setup, rawRequest, SOCKET_MODES } from '../helpers/engines.js'

const BODIES = [
  'plain ascii',
  'caf\u00e9', // one byte a character in V8, two in UTF-8
  '\u65e5\u672c\u8a9e',
  'smile \u{1F600}',
  'lone \ud800 surrogate',
  '{"name":"Ren\u00e9e"}'
]
const LATIN1_VALUE = 'caf\u00e9 cr\u00e8me'

/** the same answers from a node:http server written by hand */
function nodeServer () {
  return http.createServer((req, res) => {
    const url = /** @type {string} */ (req.url)
    if (url === '/trailer') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', trailer: 'x-t' })
      res.write('caf')
      res.write('\u00e9 \u{1F600}')
      res.addTrailers({ 'x-t': LATIN1_VALUE })
      res.end()
      return
    }
    const i = Number(url.slice(3))
    const body = BODIES[i]
    res.writeHead(200, { 'x-v': i % 2 === 0 ? LATIN1_VALUE : 'ascii', 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    // as bytes: node:http writes a head joined to a string body in the
    // body's encoding, obs-text as two UTF-8 bytes, and a head alone as
    // latin1, the one byte every engine of hotpath sends
    res.end(Buffer.from(body))
  })
}

/** @param {any} app */
function routes (app) {
  app.get('/b/:i', (/** @type {any} */ req, /** @type {any} */ reply) => {
    const i = Number(req.params.i)
    reply.header('x-v', i % 2 === 0 ? LATIN1_VALUE : 'ascii').type('text/plain; charset=utf-8').send(BODIES[i])
  })
  // answered on a later turn, outside the read that brought the request
  app.get('/a/:i', async (/** @type {any} */ req, /** @type {any} */ reply) => {
    await new Promise((resolve) => setImmediate(resolve))
    const i = Number(req.params.i)
    reply.header('x-v', i % 2 === 0 ? LATIN1_VALUE : 'ascii').type('text/plain; charset=utf-8')
    return BODIES[i]
  })
  app.get('/trailer', (/** @type {any} */ req, /** @type {any} */ reply) => {
    reply.type('text/plain; charset=utf-8').trailer('x-t', async () => LATIN1_VALUE)
    return Readable.from(['caf', '\u00e9 \u{1F600}'], { objectMode: false })
  })
}

/**
 * The answers in a byte stream read as latin1, one character a byte:
 * status, the header and trailer fields, and the body's bytes.
 * @param {string} text
 */
function parseAnswers (text) {
  const answers = []
  let i = 0
  while (i < text.length) {
    const end = text.indexOf('\r\n\r\n', i)
    if (end === -1) throw new Error(`a head without its end: ${JSON.stringify(text.slice(i, i + 80))}`)
    const lines = text.slice(i, end).split('\r\n')
    /** @type {Record<string, string>} */
    const fields = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      fields[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    i = end + 4
    let body = ''
    if (fields['content-length'] !== undefined) {
      const n = Number(fields['content-length'])
      body = text.slice(i, i + n)
      i += n
    } else {
      assert.equal(fields['transfer-encoding'], 'chunked')
      for (;;) {
        const eol = text.indexOf('\r\n', i)
        if (eol === -1) throw new Error('a chunked body cut off')
        const n = parseInt(text.slice(i, eol), 16)
        if (Number.isNaN(n)) throw new Error(`not a chunk size: ${JSON.stringify(text.slice(i, eol))}`)
        i = eol + 2
        if (n === 0) break
        body += text.slice(i, i + n)
        i += n + 2
      }
      // the trailer section, to its empty line
      for (;;) {
        const eol = text.indexOf('\r\n', i)
        if (eol === -1) throw new Error('a trailer section cut off')
        const line = text.slice(i, eol)
        i = eol + 2
        if (line === '') break
        const colon = line.indexOf(':')
        fields['trailer ' + line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
    }
    answers.push({ status: Number(lines[0].split(' ')[1]), xv: fields['x-v'], trailer: fields['trailer x-t'], length: fields['content-length'], body })
  }
  return answers
}

/**
 * @param {number} port
 * @param {string[]} paths  requested in one write, pipelined; the last closes
 */
async function ask (port, paths) {
  const bytes = paths.map((p, n) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${n === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('')
  return parseAnswers(await rawRequest(port, bytes))
}

const ALL = BODIES.map((_, i) => `/b/${i}`)
const ASCII_ONLY = ['/b/0', '/b/0', '/b/0']
const SEQUENCES = /** @type {const} */ ([
  ['each body alone', ALL.map((p) => [p])],
  ['each body answered on a later turn', BODIES.map((_, i) => [`/a/${i}`])],
  ['bodies answered on a later turn, pipelined', [BODIES.map((_, i) => `/a/${i}`)]],
  ['every body pipelined in one write', [ALL]],
  ['ASCII bodies with a latin1 header, pipelined', [ASCII_ONLY]],
  ['a streamed body with a latin1 trailer', [['/trailer']]],
  ['a streamed body between two others, pipelined', [['/b/1', '/trailer', '/b/2']]]
])

let reference = /** @type {http.Server} */ (/** @type {unknown} */ (null))
let referencePort = 0
before(async () => {
  reference = nodeServer()
  await new Promise((resolve) => reference.listen(0, '127.0.0.1', () => resolve(undefined)))
  referencePort = /** @type {import('node:net').AddressInfo} */ (reference.address()).port
})
after(() => new Promise((resolve) => reference.close(() => resolve(undefined))))

eachMode('text on the wire', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => { s = await setup(mode, routes) })
  after(() => s.close())

  for (const [title, runs] of SEQUENCES) {
    test(`${title}: the bytes node:http sends`, async () => {
      const port = s.port
      for (const paths of runs) {
        const ours = await ask(port, paths)
        const theirs = await ask(referencePort, paths)
        assert.equal(ours.length, paths.length)
        assert.deepEqual(ours, theirs)
      }
    })
  }

  test('the bodies are the strings sent, as UTF-8', async () => {
    const port = s.port
    const answers = await ask(port, ALL)
    assert.deepEqual(answers.map((a) => Buffer.from(a.body, 'latin1').toString('utf8')), BODIES.map((b) => Buffer.from(b).toString('utf8')))
    assert.deepEqual(answers.map((a) => Number(a.length)), BODIES.map((b) => Buffer.byteLength(b)))
    assert.equal(answers[0].xv, LATIN1_VALUE)
  })
}, SOCKET_MODES)
