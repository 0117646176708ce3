// Child process for test/promises.test.js: serves a sync route, an async
// route and a route behind connect middleware, and counts every promise
// (async_hooks PROMISE inits) and every EventEmitter (streams, node:http's
// request and response, the compat objects middleware gets) created in this
// process. The parent resets and reads the counters over IPC.
import { createHook } from 'node:async_hooks'
import { EventEmitter } from 'node:events'
import hotpath from '../../lib/index.js'

let promises = 0
createHook({ init (_id, type) { if (type === 'PROMISE') promises++ } }).enable()
let emitters = 0
// every EventEmitter constructor, a stream's or a class's, runs this
const init = EventEmitter.init
EventEmitter.init = function (...args) {
  emitters++
  return init.apply(this, args)
}

const engine = process.argv[2] ?? 'node'
const app = hotpath({ engine })
app.addHook('onRequest', (req, reply) => { reply.header('x-hook', '1') })
app.addHook('preHandler', () => {})
app.get('/sync', {
  schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } },
  preHandler: (req) => { if (req.headers['x-never'] !== undefined) throw new Error('unexpected') }
}, () => ({ hello: 'world' }))
app.get('/async', async () => ({ hello: 'world' }))
app.register(async (api) => {
  api.use((/** @type {any} */ _req, /** @type {any} */ _res, /** @type {Function} */ next) => next())
  api.get('/middleware', () => ({ hello: 'world' }))
})

const address = await app.listen({ port: 0, host: '127.0.0.1' })

process.on('message', (msg) => {
  if (msg === 'reset') {
    promises = 0
    emitters = 0
    process.send?.({ reset: true })
  } else if (msg === 'read') {
    process.send?.({ promises, emitters })
  } else if (msg === 'exit') {
    app.close().then(() => process.exit(0))
  }
})
process.send?.({ port: Number(new URL(address).port) })
