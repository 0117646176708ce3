// Koa 3 with @koa/router. Koa has no body parser of its own: the body is read
// with the same small helper the raw node:http target uses. Hooks are Koa
// middleware (every Koa middleware returns next()'s promise).

import Koa from 'koa'
import Router from '@koa/router'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, readJson, delay1ms, unsupported, ready } from './common.js'

const app = new Koa()
const router = new Router()

switch (kind) {
  case 'hello':
    router.get('/', (ctx) => { ctx.body = { hello: 'world' } })
    break
  case 'params':
    for (const r of decoyRoutes) router.get(r, (ctx) => { ctx.body = { route: r } })
    router.get(paramsRoute, (ctx) => { ctx.body = { user: ctx.params.id, post: ctx.params.post } })
    break
  case 'json-post':
    router.post('/echo', async (ctx) => {
      const body = await readJson(ctx.req)
      if (body === undefined) { ctx.status = 400; ctx.body = { statusCode: 400, error: 'Bad Request', message: 'invalid JSON' }; return }
      if (!validateBody(body)) { ctx.status = 400; ctx.body = invalidBody(validateBody.errors); return }
      ctx.body = echoOf(body)
    })
    break
  case 'delay-1ms':
    router.get('/delay', async (ctx) => { await delay1ms(); ctx.body = { hello: 'world' } })
    break
  case 'payload':
    router.get('/payload', (ctx) => { ctx.type = 'text/plain; charset=utf-8'; ctx.body = payload })
    break
  case 'hooks':
    app.use((ctx, next) => { ctx.state.a = 1; return next() })
    app.use((ctx, next) => { ctx.state.b = 2; return next() })
    app.use(async (ctx, next) => { ctx.state.c = 3; await next() })
    router.get('/hooks', (ctx) => { ctx.body = { a: ctx.state.a, b: ctx.state.b, c: ctx.state.c } })
    break
  default: unsupported()
}

app.use(router.routes())
app.listen(port, host, () => ready('koa'))
