// Hono on @hono/node-server: hono's validator middleware for json-post,
// app.use() middleware for hooks.

import { Hono } from 'hono'
import { validator } from 'hono/validator'
import { serve } from '@hono/node-server'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, delay1ms, unsupported, ready } from './common.js'

const app = new Hono()

switch (kind) {
  case 'hello':
    app.get('/', (c) => c.json({ hello: 'world' }))
    break
  case 'params':
    for (const r of decoyRoutes) app.get(r, (c) => c.json({ route: r }))
    app.get(paramsRoute, (c) => c.json({ user: c.req.param('id'), post: c.req.param('post') }))
    break
  case 'json-post':
    app.post('/echo', validator('json', (value, c) => {
      if (!validateBody(value)) return c.json(invalidBody(validateBody.errors), 400)
      return value
    }), (c) => c.json(echoOf(c.req.valid('json'))))
    break
  case 'delay-1ms':
    app.get('/delay', async (c) => { await delay1ms(); return c.json({ hello: 'world' }) })
    break
  case 'payload':
    app.get('/payload', (c) => c.text(payload))
    break
  case 'hooks':
    app.use((c, next) => { c.set('a', 1); return next() })
    app.use((c, next) => { c.set('b', 2); return next() })
    app.use(async (c, next) => { c.set('c', 3); await next() })
    app.get('/hooks', (c) => c.json({ a: c.get('a'), b: c.get('b'), c: c.get('c') }))
    break
  default: unsupported()
}

serve({ fetch: app.fetch, port, hostname: host }, () => ready('hono'))
