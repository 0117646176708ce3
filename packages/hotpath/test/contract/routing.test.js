import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup, rawRequest, SOCKET_MODES } from '../helpers/engines.js'

eachMode('routing', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.get('/', () => ({ hello: 'world' }))
      app.get('/users/:id', (req) => ({ id: req.params.id }))
      app.get('/files/*', (req) => ({ rest: req.params['*'] }))
      app.post('/users', (req, reply) => reply.code(201).send({ created: true }))
      app.put('/users/:id', (req) => ({ put: req.params.id }))
      app.patch('/users/:id', (req) => ({ patch: req.params.id }))
      app.delete('/users/:id', (req, reply) => reply.code(204).send())
      app.options('/opt', () => 'options')
      app.all('/any', (req) => ({ method: req.method }))
      app.route({ method: ['GET', 'POST'], url: '/multi', handler: (req) => req.method })
      app.get('/text', () => 'plain text')
      app.get('/query', (req) => ({ query: req.query, path: req.path, url: req.url }))
      app.register(async (child) => {
        child.get('/', () => 'prefixed root')
        child.get('/item/:id', (req) => ({ item: req.params.id }))
      }, { prefix: '/v1' })
    })
  })
  after(() => s.close())

  test('static route answers JSON', async () => {
    const res = await s.request('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(String(res.headers['content-length']), '17')
    assert.deepEqual(res.json(), { hello: 'world' })
  })

  test(':param and decoded values', async () => {
    assert.deepEqual((await s.request('/users/42')).json(), { id: '42' })
    assert.deepEqual((await s.request('/users/a%20b')).json(), { id: 'a b' })
  })

  test('* wildcard lands in params["*"]', async () => {
    assert.deepEqual((await s.request('/files/a/b/c.txt')).json(), { rest: 'a/b/c.txt' })
  })

  test('every method', async () => {
    assert.equal((await s.request({ method: 'POST', url: '/users' })).statusCode, 201)
    assert.deepEqual((await s.request({ method: 'PUT', url: '/users/1' })).json(), { put: '1' })
    assert.deepEqual((await s.request({ method: 'PATCH', url: '/users/1' })).json(), { patch: '1' })
    const del = await s.request({ method: 'DELETE', url: '/users/1' })
    assert.equal(del.statusCode, 204)
    assert.equal(del.body, '')
    assert.equal((await s.request({ method: 'OPTIONS', url: '/opt' })).body, 'options')
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      assert.deepEqual((await s.request({ method, url: '/any' })).json(), { method })
    }
    assert.equal((await s.request({ method: 'POST', url: '/multi' })).body, 'POST')
  })

  test('strings are text/plain', async () => {
    const res = await s.request('/text')
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(res.body, 'plain text')
  })

  test('query is parsed, path excludes it', async () => {
    const res = await s.request('/query?a=1&b=x&b=y')
    assert.deepEqual(res.json(), { query: { a: '1', b: ['x', 'y'] }, path: '/query', url: '/query?a=1&b=x&b=y' })
  })

  test('register prefix', async () => {
    assert.equal((await s.request('/v1')).body, 'prefixed root')
    assert.equal((await s.request('/v1/')).body, 'prefixed root')
    assert.deepEqual((await s.request('/v1/item/9')).json(), { item: '9' })
  })

  test('unknown path → 404 JSON', async () => {
    const res = await s.request('/nope')
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { statusCode: 404, error: 'Not Found', message: 'Route GET:/nope not found', code: 'HP_ERR_NOT_FOUND' })
    assert.equal((await s.request({ method: 'DELETE', url: '/' })).statusCode, 404)
  })

  test('HEAD answers every GET route without a body', async () => {
    const res = await s.request({ method: 'HEAD', url: '/' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, '')
    assert.equal(String(res.headers['content-length']), '17')
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal((await s.request({ method: 'HEAD', url: '/users/1' })).statusCode, 200)
  })

  test('malformed percent-encoding in the path → 400, never 500', async () => {
    for (const url of ['/%', '/%E0%A4%A', '/users/%zz', '/files/%', '/nope/%']) {
      const res = await s.request(url)
      assert.equal(res.statusCode, 400, url)
      assert.equal(res.json().code, 'HP_ERR_BAD_URL', url)
    }
    assert.equal((await s.request('/')).statusCode, 200)
  })

  test('a request-target over 8192 characters → 414', async () => {
    const res = await s.request('/users/' + 'a'.repeat(9000))
    assert.equal(res.statusCode, 414)
    assert.equal(res.json().code, 'HP_ERR_URL_TOO_LONG')
  })

  if (SOCKET_MODES.includes(mode)) {
    test('raw: one response per request on a kept-alive connection', async () => {
      const out = await rawRequest(s.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /users/5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      assert.equal(out.match(/HTTP\/1\.1 200 OK/g)?.length, 2)
      assert.match(out, /\{"id":"5"\}$/)
    })
  }
})

eachMode('router options', (mode) => {
  test('caseSensitive: false and ignoreTrailingSlash: true', async () => {
    const s = await setup(mode, (app) => {
      app.get('/Foo', () => 'foo')
      app.get('/bar/', () => 'bar')
      app.get('/p/:id', (req) => req.params.id)
    }, { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 5 })
    try {
      assert.equal((await s.request('/foo')).body, 'foo')
      assert.equal((await s.request('/FOO/')).body, 'foo')
      assert.equal((await s.request('/bar')).body, 'bar')
      assert.equal((await s.request('/bar/')).body, 'bar')
      assert.equal((await s.request('/p/12345')).body, '12345')
      assert.equal((await s.request('/p/123456')).statusCode, 404)
    } finally {
      await s.close()
    }
  })
})
