// Whatever connect middleware does to the objects it is handed, the process
// stays up: at worst one request gets a 500 with the masked body and one
// error line in the log. Run through inject and over sockets on both engines.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import serveStatic from 'serve-static'
import { eachMode, setup } from '../helpers/engines.js'

/** @type {unknown[]} */
const uncaught = []
process.on('uncaughtException', (err) => { uncaught.push(err) })
process.on('unhandledRejection', (err) => { uncaught.push(err) })

const MASKED = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }

const dir = mkdtempSync(join(tmpdir(), 'hotpath-static-'))
writeFileSync(join(dir, 'hello.txt'), 'hello from disk')
after(() => rmSync(dir, { recursive: true, force: true }))

/**
 * A hang fails the test instead of the run.
 * @param {Promise<import('../helpers/engines.js').Response>} answer
 * @param {string} url
 */
async function within5s (answer, url) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const timeout = new Promise((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${url} was not answered within 5 s`)), 5000) })
  try {
    return /** @type {import('../helpers/engines.js').Response} */ (await Promise.race([answer, timeout]))
  } finally {
    clearTimeout(timer)
  }
}

/** @typedef {(req: any, res: any, next: (err?: unknown) => void) => unknown} Middleware */

/** @type {Record<string, Middleware>} each mounted under /<name> in its own plugin */
const MIDDLEWARE = {
  'missing-method': (req, res) => { res.noSuchMethod() },
  'throws': () => { throw new Error('secret internals') },
  'rejects-later': async () => { await sleep(2); throw new Error('secret internals') },
  'next-error': (req, res, next) => next(new Error('secret internals')),
  'next-error-later': (req, res, next) => { setTimeout(() => next(new Error('secret internals')), 2) },
  'pipe': (req, res) => {
    res.setHeader('content-type', 'text/plain')
    Readable.from(['piped ', 'body']).pipe(res)
  },
  'next-twice': (req, res, next) => { next(); next(); next(new Error('ignored')) },
  'next-twice-later': (req, res, next) => { setTimeout(() => { next(); next() }, 2) },
  'end-and-next': (req, res, next) => { res.end('from middleware'); next() },
  'end-and-next-later': (req, res, next) => { setTimeout(() => { res.end('from middleware'); next() }, 2) },
  'end-and-next-error': (req, res, next) => { res.end('from middleware'); next(new Error('after the answer')) },
  'listener-throws': (req, res, next) => {
    res.on('finish', () => { throw new Error('listener') })
    next()
  }
}

eachMode('connect middleware that misbehaves', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const lines = []
  let handlerRuns = 0
  /** uncaught errors seen before the current case */
  let crashes = 0
  before(async () => {
    const stream = new Writable({ write (chunk, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb() } })
    s = await setup(mode, (app) => {
      app.get('/ok', () => 'still up')
      for (const [name, mw] of Object.entries(MIDDLEWARE)) {
        app.register(async (child) => {
          child.use(mw)
          child.get('/', () => { handlerRuns++; return 'from the handler' })
        }, { prefix: '/' + name })
      }
    }, { logger: { level: 'error', stream } })
  })
  after(() => s.close())

  /**
   * One request, bounded: a hang fails the test instead of the run.
   * @param {string} url
   */
  async function ask (url) {
    lines.length = 0
    handlerRuns = 0
    crashes = uncaught.length
    const res = await within5s(s.request(url), url)
    // the log line of a failed request may follow its answer by a tick
    await sleep(10)
    return res
  }

  async function stillUp () {
    const res = await ask('/ok')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'still up')
    assert.deepEqual(uncaught.slice(crashes), [])
  }

  /** @param {string} url */
  async function assertMasked500 (url) {
    const res = await ask(url)
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), MASKED)
    assert.equal(handlerRuns, 0)
    assert.equal(lines.filter((l) => l.level >= 50).length, 1, JSON.stringify(lines))
    await stillUp()
  }

  test('calling a method the response does not have is a 500', () => assertMasked500('/missing-method'))
  test('a synchronous throw is a 500', () => assertMasked500('/throws'))
  test('an async middleware that rejects is a 500, not an unhandled rejection', () => assertMasked500('/rejects-later'))
  test('next(err) is a 500 with the message masked', () => assertMasked500('/next-error'))
  test('next(err) from a timer is a 500', () => assertMasked500('/next-error-later'))

  test('a stream piped into res is the answer', async () => {
    const res = await ask('/pipe')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'piped body')
    assert.equal(handlerRuns, 0)
    assert.deepEqual(lines, [])
    await stillUp()
  })

  test('next() called twice runs the route once', async () => {
    for (const url of ['/next-twice', '/next-twice-later']) {
      const res = await ask(url)
      assert.equal(res.statusCode, 200)
      assert.equal(res.body, 'from the handler')
      assert.equal(handlerRuns, 1)
      assert.deepEqual(lines, [])
    }
    await stillUp()
  })

  test('a middleware that ends the response and calls next(): its answer, the route does not run', async () => {
    for (const url of ['/end-and-next', '/end-and-next-later']) {
      const res = await ask(url)
      assert.equal(res.statusCode, 200)
      assert.equal(res.body, 'from middleware')
      assert.equal(handlerRuns, 0)
      assert.deepEqual(lines, [], url)
    }
    await stillUp()
  })

  test('next(err) after the middleware answered is logged once; the answer stands', async () => {
    const res = await ask('/end-and-next-error')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'from middleware')
    assert.equal(handlerRuns, 0)
    assert.equal(lines.filter((l) => l.level >= 50).length, 1, JSON.stringify(lines))
    await stillUp()
  })

  // On the node engine these events come from node:http's own
  // ServerResponse, as in any node:http app: a listener that throws there
  // is outside any framework's reach.
  test('a response listener that throws is logged, not thrown into the engine', { skip: (mode === 'node' && 'node:http emits the event itself') || (mode === 'h2' && 'node:http2 emits the event itself') }, async () => {
    const res = await ask('/listener-throws')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'from the handler')
    assert.equal(lines.filter((l) => l.level >= 50).length, 1, JSON.stringify(lines))
    await stillUp()
  })
})

eachMode('serve-static through app.use()', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.use(serveStatic(dir))
      app.get('/route', () => 'a route beside the files')
    })
  })
  after(() => s.close())

  test('serves a file, passes other paths on, and the process stays up', async () => {
    const crashes = uncaught.length
    const file = await within5s(s.request('/hello.txt'), '/hello.txt')
    assert.equal(file.statusCode, 200)
    assert.equal(file.body, 'hello from disk')
    assert.match(String(file.headers['content-type']), /^text\/plain/)
    const route = await within5s(s.request('/route'), '/route')
    assert.equal(route.statusCode, 200)
    assert.equal(route.body, 'a route beside the files')
    const missing = await within5s(s.request('/nothing.txt'), '/nothing.txt')
    assert.equal(missing.statusCode, 404)
    assert.deepEqual(uncaught.slice(crashes), [])
  })
})
