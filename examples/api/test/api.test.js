// The example API, driven three ways: through inject (no socket), over a real
// socket, and as `node server.js` in a child process stopped by SIGTERM.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { build } from '../app.js'
import { BookStore } from '../store.js'

const API_KEY = 'test-key'
const auth = { authorization: `Bearer ${API_KEY}` }

describe('through inject', () => {
  /** @type {ReturnType<typeof build>} */
  let app
  before(async () => {
    app = build({ apiKey: API_KEY })
    await app.ready()
  })
  after(() => app.close())

  test('GET /health answers and carries the request id', async () => {
    const res = await app.inject('/health')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { status: 'ok' })
    assert.match(String(res.headers['content-type']), /^application\/json/)
    assert.ok(res.headers['x-request-id'], 'x-request-id header is set by the onRequest hook')
  })

  test('GET / lists what the API offers and where its docs are; /docs serves them', async () => {
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    const index = res.json()
    assert.equal(index.docs, '/docs')
    for (const route of ['GET /health', 'GET /api/v1/books', 'GET /api/v1/books/:id', 'POST /api/v1/books', 'PATCH /api/v1/books/:id', 'DELETE /api/v1/books/:id']) {
      assert.ok(index.routes.includes(route), `${route} in ${index.routes}`)
    }
    const docs = await app.inject('/docs')
    assert.equal(docs.statusCode, 200)
    assert.match(String(docs.headers['content-type']), /^text\/markdown/)
    assert.match(docs.body, /^# Example: a bookstore JSON API/)
  })

  test('lists books with defaults, without internal fields', async () => {
    const res = await app.inject('/api/v1/books')
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.total, 3)
    assert.equal(body.limit, 20)
    assert.equal(body.offset, 0)
    assert.equal(body.items.length, 3)
    assert.equal(body.items[0].title, 'The Left Hand of Darkness')
    assert.equal('revision' in body.items[0], false, 'the response schema drops fields it does not list')
  })

  test('the query string is coerced and filters', async () => {
    const page = await app.inject({ url: '/api/v1/books', query: { limit: '1', offset: '1' } })
    assert.equal(page.statusCode, 200)
    assert.deepEqual(page.json().items.map((/** @type {any} */ b) => b.title), ['A Wizard of Earthsea'])

    const byAuthor = await app.inject('/api/v1/books?author=herbert')
    assert.equal(byAuthor.json().total, 1)
    const byTag = await app.inject('/api/v1/books?tag=sf')
    assert.equal(byTag.json().total, 2)
  })

  test('a bad query answers 400 naming the field', async () => {
    const res = await app.inject('/api/v1/books?limit=0')
    assert.equal(res.statusCode, 400)
    const body = res.json()
    assert.equal(body.code, 'HP_ERR_VALIDATION')
    assert.match(body.message, /limit/)
    assert.ok(Array.isArray(body.validation) && body.validation.length > 0)
  })

  test('GET one book; unknown id 404; non-numeric id 400', async () => {
    const one = await app.inject('/api/v1/books/3')
    assert.equal(one.statusCode, 200)
    assert.equal(one.json().title, 'Dune')
    assert.equal(one.json().id, 3)

    const missing = await app.inject('/api/v1/books/999')
    assert.equal(missing.statusCode, 404)
    assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'Book 999 not found', code: 'BOOK_NOT_FOUND' })

    const bad = await app.inject('/api/v1/books/abc')
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().code, 'HP_ERR_VALIDATION')
    assert.match(bad.json().message, /id/)
  })

  test('writes need the API key', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'T', author: 'A' } })
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().code, 'UNAUTHORIZED')
    const list = await app.inject('/api/v1/books')
    assert.equal(list.json().total, 3, 'nothing was created')
  })

  test('create, read, update, delete', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/books',
      headers: auth,
      payload: { title: 'Kindred', author: 'Octavia E. Butler', year: 1979 }
    })
    assert.equal(created.statusCode, 201)
    const book = created.json()
    assert.equal(book.title, 'Kindred')
    assert.deepEqual(book.tags, [])
    assert.equal(created.headers.location, `/api/v1/books/${book.id}`)

    const read = await app.inject(`/api/v1/books/${book.id}`)
    assert.equal(read.statusCode, 200)
    assert.equal(read.json().author, 'Octavia E. Butler')

    const patched = await app.inject({ method: 'PATCH', url: `/api/v1/books/${book.id}`, headers: auth, payload: { tags: ['sf'] } })
    assert.equal(patched.statusCode, 200)
    assert.deepEqual(patched.json().tags, ['sf'])
    assert.equal(patched.json().title, 'Kindred')

    const removed = await app.inject({ method: 'DELETE', url: `/api/v1/books/${book.id}`, headers: auth })
    assert.equal(removed.statusCode, 204)
    assert.equal(removed.body, '')

    const gone = await app.inject(`/api/v1/books/${book.id}`)
    assert.equal(gone.statusCode, 404)
  })

  test('bad bodies: missing field, empty patch, invalid JSON, poisoned JSON, wrong type', async () => {
    const missing = await app.inject({ method: 'POST', url: '/api/v1/books', headers: auth, payload: { title: 'No author' } })
    assert.equal(missing.statusCode, 400)
    assert.equal(missing.json().code, 'HP_ERR_VALIDATION')
    assert.match(missing.json().message, /author/)

    const empty = await app.inject({ method: 'PATCH', url: '/api/v1/books/1', headers: auth, payload: {} })
    assert.equal(empty.statusCode, 400)

    const json = { ...auth, 'content-type': 'application/json' }
    const invalid = await app.inject({ method: 'POST', url: '/api/v1/books', headers: json, payload: '{"title": ' })
    assert.equal(invalid.statusCode, 400)
    assert.equal(invalid.json().code, 'HP_ERR_INVALID_JSON')

    const poisoned = await app.inject({
      method: 'POST', url: '/api/v1/books', headers: json,
      payload: '{"title":"x","author":"y","__proto__":{"admin":true}}'
    })
    assert.equal(poisoned.statusCode, 400)
    assert.equal(poisoned.json().code, 'HP_ERR_PROTO_POISONING')

    const xml = await app.inject({
      method: 'POST', url: '/api/v1/books', headers: { ...auth, 'content-type': 'application/xml' }, payload: '<book/>'
    })
    assert.equal(xml.statusCode, 415)

    const list = await app.inject('/api/v1/books')
    assert.equal(list.json().total, 3, 'no bad body created a book')
  })

  test('unknown paths: the API has its own 404, the root keeps the default', async () => {
    const inApi = await app.inject('/api/v1/authors')
    assert.equal(inApi.statusCode, 404)
    assert.equal(inApi.json().code, 'NO_SUCH_RESOURCE')
    assert.match(inApi.json().message, /GET \/api\/v1\/authors/)

    const outside = await app.inject('/nowhere')
    assert.equal(outside.statusCode, 404)
    assert.equal(outside.json().statusCode, 404)
    assert.notEqual(outside.json().code, 'NO_SUCH_RESOURCE')
  })
})

test('an unexpected error answers a generic 500 that reveals nothing', async () => {
  const store = new BookStore()
  store.list = () => { throw new Error('connection to db-7.internal refused') }
  const app = build({ store })
  try {
    const res = await app.inject('/api/v1/books')
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'Something went wrong', code: 'INTERNAL' })
    assert.doesNotMatch(res.body, /db-7|stack|at /)
  } finally {
    await app.close()
  }
})

for (const engine of /** @type {const} */ (['node', 'wire'])) test(`over a real socket (${engine} engine)`, async () => {
  const app = build({ apiKey: API_KEY, engine })
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const base = String(address)
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/)

    const list = await fetch(`${base}/api/v1/books?limit=2`)
    assert.equal(list.status, 200)
    assert.equal((await list.json()).items.length, 2)

    const created = await fetch(`${base}/api/v1/books`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Parable of the Sower', author: 'Octavia E. Butler' })
    })
    assert.equal(created.status, 201)
    const location = created.headers.get('location')
    const read = await fetch(`${base}${location}`)
    assert.equal(read.status, 200)
    assert.equal((await read.json()).title, 'Parable of the Sower')

    const head = await fetch(`${base}/health`, { method: 'HEAD' })
    assert.equal(head.status, 200)
    assert.equal(await head.text(), '')

    const tooLarge = await fetch(`${base}/api/v1/books`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(70 * 1024), author: 'A' })
    })
    assert.equal(tooLarge.status, 413, 'the app sets bodyLimit to 64 KiB')
    assert.equal((await tooLarge.json()).code, 'HP_ERR_BODY_TOO_LARGE')
  } finally {
    await app.close()
  }
})

test('node server.js listens, answers, and exits cleanly on SIGTERM', { timeout: 20_000 }, async () => {
  const serverPath = fileURLToPath(new URL('../server.js', import.meta.url))
  // PORT=0: the OS picks a free port; the server logs the address it got.
  const child = spawn(process.execPath, [serverPath], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  // 'close' (not 'exit'): stdout is fully read by then
  const exited = once(child, 'close')
  /** @type {any[]} */
  const lines = []
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk })
  try {
    const address = await new Promise((resolve, reject) => {
      let buffered = ''
      const timer = setTimeout(() => reject(new Error(`server did not start; stderr: ${stderr}`)), 10_000)
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        buffered += chunk
        let nl
        while ((nl = buffered.indexOf('\n')) !== -1) {
          const line = buffered.slice(0, nl)
          buffered = buffered.slice(nl + 1)
          let entry
          try { entry = JSON.parse(line) } catch { continue }
          lines.push(entry)
          if (typeof entry.address === 'string') {
            clearTimeout(timer)
            resolve(entry.address)
          }
        }
      })
      child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited early (${code}); stderr: ${stderr}`)) })
    })
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)

    const res = await fetch(`${address}/api/v1/books/1`)
    assert.equal(res.status, 200)
    assert.equal((await res.json()).id, 1)

    child.kill('SIGTERM')
    const [code, signal] = await exited
    assert.equal(signal, null, 'the process exited by itself, not killed by the signal')
    assert.equal(code, 0)
    assert.ok(lines.some((l) => l.msg === 'closed'), 'the graceful close was logged')
    assert.ok(lines.some((l) => typeof l.reqId !== 'undefined'), 'requests were logged with their id')
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
})
