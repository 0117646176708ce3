// A reply is a thenable, as Fastify's: `await reply` waits until the answer
// has been handed to the engine, so an async handler that sends from
// elsewhere (a timer, a decorator) can wait for it rather than resolve
// early.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eachMode, setup } from '../helpers/engines.js'

eachMode('await reply', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {string[]} */
  const order = []
  before(async () => {
    s = await setup(mode, (app) => {
      app.decorateReply('later', function (/** @type {unknown} */ payload) {
        setImmediate(() => this.send(payload))
        return this
      })
      app.get('/timer', async (req, reply) => {
        setImmediate(() => reply.send({ later: true }))
        await reply
        order.push('resumed')
      })
      app.get('/decorator', async (req, reply) => {
        await reply.later({ from: 'decorator' })
      })
      app.get('/error', async (req, reply) => {
        setImmediate(() => reply.send(new Error('sent later')))
        await reply
      })
      app.get('/sent', async (req, reply) => {
        await reply.send('already')
        order.push('after send')
      })
      app.get('/hook', {
        onRequest: (req, reply) => {
          setImmediate(() => reply.code(202).send('from the hook'))
          return reply
        }
      }, () => 'handler')
    })
  })
  after(() => s.close())

  test('an async handler that awaits the reply resumes once it has been answered', async () => {
    order.length = 0
    const res = await s.request('/timer')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { later: true })
    assert.deepEqual((await s.request('/decorator')).json(), { from: 'decorator' })
    assert.equal((await s.request('/error')).statusCode, 500)
    assert.equal((await s.request('/sent')).body, 'already')
    // give the handlers their turn after the answers
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(order, ['resumed', 'after send'])
  })

  test('a hook that returns the reply still ends the lifecycle and sends later', async () => {
    const res = await s.request('/hook')
    assert.equal(res.statusCode, 202)
    assert.equal(res.body, 'from the hook')
  })
})
