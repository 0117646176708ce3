// A GET route answers HEAD through a HEAD route of its own, as Fastify's
// exposeHeadRoute makes it: the onRoute hooks see it (with method 'HEAD'),
// what they change applies to it alone, a HEAD route declared for the path
// takes its place, and exposeHeadRoute / exposeHeadRoutes turn it off.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable, Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'
import hotpath from '../../lib/index.js'

eachMode('HEAD routes of GET routes', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const seen = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.addHook('onRoute', (/** @type {any} */ r) => {
        seen.push(`${r.method} ${r.url}`)
        // an onRoute hook that marks only the HEAD routes
        if (r.method === 'HEAD') r.onSend = (/** @type {any} */ _req, /** @type {any} */ reply, /** @type {any} */ payload) => { reply.header('x-head-route', r.url); return payload }
      })
      app.get('/doc', () => ({ title: 'hotpath' }))
      app.get('/own-head', () => 'from GET')
      app.head('/own-head', (_req, reply) => reply.header('x-declared', 'yes').send('from HEAD'))
      app.head('/declared-first', (_req, reply) => reply.header('x-declared', 'first').send())
      app.get('/declared-first', () => 'from GET')
      app.get('/no-head', { exposeHeadRoute: false }, () => 'GET only')
      app.route({ method: ['GET', 'POST'], url: '/both', handler: (req) => ({ method: req.method, route: req.routeOptions.method }) })
    })
  })
  after(() => s.close())

  test('onRoute sees the HEAD route of a GET route, after the GET route; none for a route that opts out or declares HEAD', () => {
    assert.deepEqual(seen, [
      'GET /doc', 'HEAD /doc',
      'GET /own-head', 'HEAD /own-head', 'HEAD /own-head',
      'HEAD /declared-first', 'GET /declared-first', 'HEAD /declared-first',
      'GET /no-head',
      'GET,POST /both', 'HEAD /both'
    ])
  })

  test('the HEAD route answers without a body, with the GET answer\'s length, and what onRoute set on it', async () => {
    const head = await s.request({ method: 'HEAD', url: '/doc' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.body, '')
    assert.equal(String(head.headers['content-length']), String(Buffer.byteLength(JSON.stringify({ title: 'hotpath' }))))
    assert.equal(head.headers['x-head-route'], '/doc')
    const get = await s.request('/doc')
    assert.deepEqual(get.json(), { title: 'hotpath' })
    assert.equal(get.headers['x-head-route'], undefined)
  })

  test('a HEAD route declared for the path, after or before the GET route, answers HEAD', async () => {
    assert.equal((await s.request({ method: 'HEAD', url: '/own-head' })).headers['x-declared'], 'yes')
    assert.equal((await s.request({ method: 'HEAD', url: '/declared-first' })).headers['x-declared'], 'first')
    assert.equal((await s.request('/declared-first')).body, 'from GET')
  })

  test('exposeHeadRoute: false: HEAD is not answered', async () => {
    assert.equal((await s.request({ method: 'HEAD', url: '/no-head' })).statusCode, 404)
    assert.equal((await s.request('/no-head')).body, 'GET only')
  })

  test("a route for GET and POST gets a HEAD route, whose routeOptions.method is 'HEAD'", async () => {
    const head = await s.request({ method: 'HEAD', url: '/both' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.headers['x-head-route'], '/both')
    assert.deepEqual((await s.request('/both')).json(), { method: 'GET', route: ['GET', 'POST'] })
  })
})

test('exposeHeadRoutes: false on the app: no HEAD routes, unless a route asks for one', async () => {
  const app = hotpath({ exposeHeadRoutes: false })
  app.get('/plain', () => 'x')
  app.get('/with-head', { exposeHeadRoute: true }, () => 'y')
  assert.equal((await app.inject({ method: 'HEAD', url: '/plain' })).statusCode, 404)
  assert.equal((await app.inject({ method: 'HEAD', url: '/with-head' })).statusCode, 200)
  assert.equal(app.initialConfig.exposeHeadRoutes, false)
  assert.throws(() => hotpath({ exposeHeadRoutes: /** @type {any} */ ('no') }), { code: 'HP_ERR_INVALID_OPTION' })
})

// @fastify/static answers HEAD with an empty stream and the file's
// Content-Length; a stream reply to HEAD sends the head, never the stream.
const FILE = 'abcdefghijklmnopqrstuvwxyz'
eachMode('HEAD of a stream reply', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {any[]} */
  const errors = []
  /** @type {unknown[]} */
  const cancelled = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/file', (req, reply) => {
        reply.header('content-length', FILE.length).type('text/plain')
        return Readable.from(req.method === 'HEAD' ? [] : [FILE])
      })
      app.get('/full', (_req, reply) => reply.header('content-length', FILE.length).type('text/plain').send(Readable.from([FILE])))
      app.get('/chunked', (_req, reply) => reply.type('text/plain').send(Readable.from([FILE.slice(0, 5), FILE.slice(5)])))
      app.get('/failing', () => {
        const stream = new Readable({ read () {} })
        setImmediate(() => stream.destroy(new Error('disk gone')))
        return stream
      })
      app.get('/web', () => new ReadableStream({
        start (c) { c.enqueue('never sent') },
        cancel (reason) { cancelled.push(reason) }
      }))
    }, { logger: { level: 'error', stream: new Writable({ write (chunk, _e, cb) { errors.push(JSON.parse(chunk.toString())); cb() } }) } })
  })
  after(() => s.close())

  for (const path of ['/file', '/full', '/chunked']) {
    test(`HEAD ${path}: 200 with the GET answer's headers and no body; GET after it answers whole`, async () => {
      const head = await s.request({ method: 'HEAD', url: path })
      assert.equal(head.statusCode, 200)
      assert.equal(head.body, '')
      assert.match(String(head.headers['content-type']), /^text\/plain/)
      // a length the GET declares is kept; one it does not know is not claimed (RFC 9110 §8.6)
      assert.equal(head.headers['content-length'], path === '/chunked' ? undefined : String(FILE.length))
      const get = await s.request(path)
      assert.equal(get.statusCode, 200)
      assert.equal(get.body, FILE)
      assert.deepEqual(errors, [])
    })
  }

  test('HEAD of a GET route\'s stream that fails: 200 without a body, the failure logged and the process unharmed', async () => {
    const head = await s.request({ method: 'HEAD', url: '/failing' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.body, '')
    assert.equal(head.headers['content-type'], undefined)
    for (let i = 0; i < 20 && errors.length === 0; i++) await new Promise((resolve) => setImmediate(resolve))
    assert.equal(errors.length, 1)
    assert.equal(errors[0].msg, 'Error on Stream found for HEAD route')
    assert.equal(errors[0].err.message, 'disk gone')
    errors.length = 0
  })

  test('HEAD of a GET route\'s web stream: the stream is cancelled, nothing of it sent', async () => {
    cancelled.length = 0
    const head = await s.request({ method: 'HEAD', url: '/web' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.body, '')
    assert.equal(head.headers['content-length'], undefined)
    assert.deepEqual(cancelled, ['Stream cancelled by HEAD route'])
    assert.deepEqual(errors, [])
  })

  // a kept-alive HTTP/1.1 connection (node:http's Agent); HTTP/2 multiplexes instead
  if (mode === 'node' || mode === 'wire') {
    test('HEAD, then GET on the same kept-alive connection', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      try {
        /** @param {string} method */
        const send = (method) => new Promise((resolve, reject) => {
          const req = http.request({ port: s.port, host: '127.0.0.1', path: '/file', method, agent }, (res) => {
            let body = ''
            res.setEncoding('utf8')
            res.on('data', (d) => { body += d })
            res.on('end', () => resolve({ status: res.statusCode, length: res.headers['content-length'], body, reused: req.reusedSocket }))
          })
          req.on('error', reject)
          req.end()
        })
        assert.deepEqual(await send('HEAD'), { status: 200, length: String(FILE.length), body: '', reused: false })
        assert.deepEqual(await send('GET'), { status: 200, length: String(FILE.length), body: FILE, reused: true })
      } finally {
        agent.destroy()
      }
    })
  }
})
