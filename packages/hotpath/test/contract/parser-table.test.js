// The content-type parser table through the app: RegExp and parameterized
// types, the catch-all, has/remove/removeAll, the built-in parsers handed
// out for other types, and which bodyLimit wins.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import hotpath from '../../lib/index.js'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('parser table', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      app.addContentTypeParser(/^application\/.+\+xml$/g, { parseAs: 'string' }, (req, body) => ({ xml: body }))
      app.addContentTypeParser(/^image\//, { parseAs: 'buffer' }, (req, body) => ({ image: body.length }))
      app.addContentTypeParser('image/gif', { parseAs: 'string' }, () => ({ gif: true }))
      app.addContentTypeParser('text/html; charset=latin1', { parseAs: 'string' }, () => ({ html: 'latin1' }))
      app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, app.getDefaultJsonParser('ignore', 'remove'))
      app.addContentTypeParser('text/x-plain', { parseAs: 'string' }, app.defaultTextParser)
      app.post('/', (req) => ({ body: req.body }))
      app.post('/limited', { bodyLimit: 4 }, (req) => ({ body: req.body }))
      app.addContentTypeParser('x/small', { parseAs: 'string', bodyLimit: 4 }, (req, body) => body)
      app.register(async (child) => {
        child.removeContentTypeParser(['application/json', /^image\//])
        child.post('/child', (req) => ({ body: req.body }))
      })
      app.register(async (child) => {
        child.removeAllContentTypeParsers()
        child.addContentTypeParser('*', { parseAs: 'string' }, (req, body) => ({ any: body }))
        child.post('/any', (req) => ({ body: req.body ?? null }))
      })
    })
  })
  after(() => s.close())

  /** @param {string | undefined} ct @param {string} payload @param {string} [url] */
  const post = (ct, payload, url = '/') => s.request({ method: 'POST', url, headers: ct === undefined ? {} : { 'content-type': ct }, payload })

  test('a RegExp is tested against the type; a /g RegExp matches every time', async () => {
    assert.deepEqual((await post('application/vnd.a+xml', '<a/>')).json(), { body: { xml: '<a/>' } })
    assert.deepEqual((await post('application/vnd.b+xml', '<b/>')).json(), { body: { xml: '<b/>' } })
    assert.deepEqual((await post('image/png', 'abc')).json(), { body: { image: 3 } })
  })

  test('a string type wins over a RegExp', async () => {
    assert.deepEqual((await post('image/gif', 'x')).json(), { body: { gif: true } })
  })

  test('a type registered with parameters takes only those parameters', async () => {
    assert.deepEqual((await post('TEXT/HTML; Charset="latin1"', 'x')).json(), { body: { html: 'latin1' } })
    assert.equal((await post('text/html; charset=utf-8', 'x')).statusCode, 415)
    assert.equal((await post('text/html', 'x')).statusCode, 415)
  })

  test('the built-in parsers, registered for other types', async () => {
    const json = await post('application/vnd.api+json', '{"a":1,"constructor":{"prototype":{"x":1}}}')
    assert.deepEqual(json.json(), { body: { a: 1 } })
    assert.deepEqual((await post('text/x-plain', 'plain')).json(), { body: 'plain' })
  })

  test("the route's bodyLimit wins over the parser's, the parser's over the app's", async () => {
    assert.equal((await post('x/small', '12345')).statusCode, 413)
    assert.equal((await post('application/json', '"12345"', '/limited')).statusCode, 413)
    assert.equal((await post('application/json', '"12345"')).statusCode, 200)
  })

  test("a context's removals leave its parent's parsers alone", async () => {
    assert.equal((await post('application/json', '{}', '/child')).statusCode, 415)
    assert.equal((await post('image/png', 'x', '/child')).statusCode, 415)
    assert.deepEqual((await post('image/gif', 'x', '/child')).json(), { body: { gif: true } })
    assert.deepEqual((await post('application/json', '{"a":1}')).json(), { body: { a: 1 } })
  })

  test("'*' takes every type, a body without Content-Type and a malformed one", async () => {
    assert.deepEqual((await post('application/json', '{}', '/any')).json(), { body: { any: '{}' } })
    assert.deepEqual((await post(undefined, 'raw', '/any')).json(), { body: { any: 'raw' } })
    assert.deepEqual((await post('nonsense', 'x', '/any')).json(), { body: { any: 'x' } })
    assert.equal((await post(undefined, 'raw')).statusCode, 415)
  })
})

test('hasContentTypeParser: exact types, RegExps by source and flags, per context', async () => {
  const app = hotpath()
  app.addContentTypeParser(/^image\/.*/, () => 1)
  app.addContentTypeParser('text/html; charset=utf-8', () => 1)
  assert.equal(app.hasContentTypeParser('application/json'), true)
  assert.equal(app.hasContentTypeParser('  Text/Plain  '), true)
  assert.equal(app.hasContentTypeParser(/^image\/.*/), true)
  assert.equal(app.hasContentTypeParser(/^image\/.*/i), false)
  assert.equal(app.hasContentTypeParser('text/html;charset="utf-8"'), true)
  assert.equal(app.hasContentTypeParser('text/html'), false)
  assert.equal(app.hasContentTypeParser('*'), false)
  assert.throws(() => app.hasContentTypeParser(/** @type {any} */ (1)), { code: 'HP_ERR_PARSER_INVALID_TYPE' })
  let inChild = false
  app.register(async (child) => {
    child.addContentTypeParser('application/jsoff', () => 1)
    inChild = child.hasContentTypeParser('application/jsoff')
  })
  await app.ready()
  assert.equal(inChild, true)
  assert.equal(app.hasContentTypeParser('application/jsoff'), false)
  assert.throws(() => app.removeContentTypeParser('text/plain'), { code: 'HP_ERR_PARSER_AFTER_READY' })
  assert.throws(() => app.removeAllContentTypeParsers(), { code: 'HP_ERR_PARSER_AFTER_READY', message: 'removeAllContentTypeParsers was called after ready()' })
  await app.close()
})

test('addContentTypeParser refuses what is not a type, a parser or a parseAs', () => {
  const app = hotpath()
  for (const type of [null, 1, {}]) assert.throws(() => app.addContentTypeParser(/** @type {any} */ (type), () => 1), { code: 'HP_ERR_PARSER_INVALID_TYPE' })
  assert.throws(() => app.addContentTypeParser('', () => 1), { code: 'HP_ERR_PARSER_EMPTY_TYPE' })
  assert.throws(() => app.addContentTypeParser('type-only', () => 1), { code: 'HP_ERR_PARSER_INVALID_TYPE', message: /'type-only', which is not a media type/ })
  assert.throws(() => app.addContentTypeParser('a/b', /** @type {any} */ (null)), { code: 'HP_ERR_PARSER_INVALID_HANDLER' })
  assert.throws(() => app.addContentTypeParser('a/b', { parseAs: /** @type {any} */ ('json') }, () => 1), { code: 'HP_ERR_PARSER_INVALID_PARSE_AS', message: /got 'json'/ })
  assert.throws(() => app.addContentTypeParser('a/b', { bodyLimit: -1 }, () => 1), { code: 'HP_ERR_INVALID_OPTION' })
  app.addContentTypeParser(['a/b', /^c\//], () => 1)
  assert.throws(() => app.addContentTypeParser(' A/B ', () => 1), { code: 'HP_ERR_PARSER_ALREADY_PRESENT' })
  assert.throws(() => app.addContentTypeParser(/^c\//, () => 1), { code: 'HP_ERR_PARSER_ALREADY_PRESENT' })
  // the built-ins may be replaced once, and removed ones added again
  app.addContentTypeParser('application/json', () => 1)
  assert.throws(() => app.addContentTypeParser('application/json', () => 1), { code: 'HP_ERR_PARSER_ALREADY_PRESENT' })
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', () => 1)
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('a/b', () => 1)
  assert.equal(app.hasContentTypeParser('text/plain'), false)
})
