// h3 2 (on srvx's node:http adapter): readValidatedBody for json-post,
// app.use() middleware for hooks.

import { H3, serve, readValidatedBody, HTTPError } from 'h3'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, delay1ms, unsupported, ready } from './common.js'

const app = new H3()

switch (kind) {
  case 'hello':
    app.get('/', () => ({ hello: 'world' }))
    break
  case 'params':
    for (const r of decoyRoutes) app.get(r, () => ({ route: r }))
    app.get(paramsRoute, (event) => ({ user: event.context.params.id, post: event.context.params.post }))
    break
  case 'json-post':
    app.post('/echo', async (event) => {
      const body = await readValidatedBody(event, (data) => {
        if (!validateBody(data)) throw new HTTPError({ status: 400, message: invalidBody(validateBody.errors).message })
        return data
      })
      return echoOf(body)
    })
    break
  case 'delay-1ms':
    app.get('/delay', async () => { await delay1ms(); return { hello: 'world' } })
    break
  case 'payload':
    app.get('/payload', (event) => { event.res.headers.set('content-type', 'text/plain; charset=utf-8'); return payload })
    break
  case 'hooks':
    app.use((event) => { event.context.a = 1 })
    app.use((event) => { event.context.b = 2 })
    app.use(async (event) => { event.context.c = 3 })
    app.get('/hooks', (event) => ({ a: event.context.a, b: event.context.b, c: event.context.c }))
    break
  default: unsupported()
}

const server = serve(app, { port, hostname: host, silent: true })
await server.ready()
ready('h3')
