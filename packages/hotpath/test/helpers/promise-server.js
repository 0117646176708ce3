// Child process for test/promises.test.js: serves a sync route and an async
// route, and counts every promise created in this process (async_hooks
// PROMISE inits). The parent resets and reads the counter over IPC.
import { createHook } from 'node:async_hooks'
import hotpath from '../../lib/index.js'

let promises = 0
createHook({ init (_id, type) { if (type === 'PROMISE') promises++ } }).enable()

const engine = process.argv[2] ?? 'node'
const app = hotpath({ engine })
app.addHook('onRequest', (req, reply) => { reply.header('x-hook', '1') })
app.addHook('preHandler', () => {})
app.get('/sync', {
  schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } },
  preHandler: (req) => { if (req.headers['x-never'] !== undefined) throw new Error('unexpected') }
}, () => ({ hello: 'world' }))
app.get('/async', async () => ({ hello: 'world' }))

const address = await app.listen({ port: 0, host: '127.0.0.1' })

process.on('message', (msg) => {
  if (msg === 'reset') {
    promises = 0
    process.send?.({ reset: true })
  } else if (msg === 'read') {
    process.send?.({ promises })
  } else if (msg === 'exit') {
    app.close().then(() => process.exit(0))
  }
})
process.send?.({ port: Number(new URL(address).port) })
