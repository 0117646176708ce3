// Request hooks at their edges, as Fastify runs them: the order of hooks
// added by a plugin and by its parent at different times, and a hook that
// returns the reply to send it later.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { plugin } from '../../lib/index.js'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('request hooks run in the order they were added', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  before(async () => {
    s = await setup(mode, (app) => {
      /** @param {string} name */
      const mark = (name) => (/** @type {any} */ req, /** @type {any} */ reply, /** @type {Function} */ done) => {
        req.marks = (req.marks ?? '') + name
        done()
      }
      app.addHook('onRequest', mark('a'))
      app.register((api, opts, done) => {
        api.addHook('onRequest', mark('b'))
        api.get('/scoped', (/** @type {any} */ req) => ({ marks: req.marks }))
        api.register(plugin((inner, opts, done) => {
          inner.addHook('onRequest', mark('c'))
          done()
        }))
        done()
      })
      // added to the root after the plugin above has loaded: its routes run
      // them after their own
      app.register(plugin((shared, opts, done) => {
        shared.addHook('onRequest', mark('d'))
        done()
      }))
      app.addHook('onRequest', mark('e'))
      app.get('/root', (/** @type {any} */ req) => ({ marks: req.marks }))
    })
  })
  after(() => s.close())

  test('a parent\'s hooks added after a plugin loaded run after the plugin\'s own', async () => {
    const res = await s.request('/scoped')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { marks: 'abcde' })
  })

  test('a route of the parent runs only the parent\'s, in order', async () => {
    const res = await s.request('/root')
    assert.deepEqual(res.json(), { marks: 'ade' })
  })
})

eachMode('a hook that returns the reply sends it later', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  let handled = 0
  before(async () => {
    s = await setup(mode, (app) => {
      app.register((api, opts, done) => {
        api.addHook('onRequest', (/** @type {any} */ req, /** @type {any} */ reply) => {
          setImmediate(() => reply.send('from a plain hook'))
          return reply
        })
        api.get('/plain', () => { handled++; return 'handler' })
        done()
      })
      app.register((api, opts, done) => {
        api.addHook('preHandler', async (/** @type {any} */ req, /** @type {any} */ reply) => {
          setImmediate(() => reply.code(202).send('from an async hook'))
          return reply
        })
        api.get('/async', () => { handled++; return 'handler' })
        done()
      })
    })
  })
  after(() => s.close())

  test('returned from a plain function: the lifecycle stops until it sends', async () => {
    const res = await s.request('/plain')
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'from a plain hook')
    assert.equal(handled, 0)
  })

  test('resolved by an async function: the same', async () => {
    const res = await s.request('/async')
    assert.equal(res.statusCode, 202)
    assert.equal(res.body, 'from an async hook')
    assert.equal(handled, 0)
  })
})

test('a hook whose promise rejects with nothing fails the request with an error of its own, in both formats', async () => {
  const { hotpath } = await import('../../lib/index.js')
  const { fastify } = await import('../../lib/fastify.js')
  for (const [make, code, message] of [[hotpath, 'HP_ERR_HOOK_REJECTED_EMPTY', 'Internal Server Error'], [fastify, 'FST_ERR_SEND_UNDEFINED_ERR', 'Undefined error has occurred']]) {
    const app = /** @type {any} */ (make)()
    app.get('/on-request', { onRequest: () => Promise.reject() }, () => 'never')
    app.post('/pre-parsing', { preParsing: () => Promise.reject(null) }, () => 'never')
    app.get('/callback', { preHandler: (/** @type {any} */ _req, /** @type {any} */ _reply, /** @type {any} */ _done) => Promise.reject('') }, () => 'never')
    // a hook that throws fails with what it threw
    app.get('/thrown', { onRequest: () => { throw new Error('plain') } }, () => 'never')
    for (const url of ['/on-request', '/pre-parsing', '/callback']) {
      const res = await app.inject({ method: url === '/pre-parsing' ? 'POST' : 'GET', url, payload: url === '/pre-parsing' ? { a: 1 } : undefined })
      assert.equal(res.statusCode, 500, url)
      assert.deepEqual({ code: res.json().code, message: res.json().message }, { code, message }, url)
    }
    assert.notEqual((await app.inject('/thrown')).json().code, code)
  }
})
