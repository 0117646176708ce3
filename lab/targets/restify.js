// Restify 11: its bodyParser plugin for JSON, server.use() handlers for hooks.
// Restify requires callback handlers to call next().

import restify from 'restify'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, delay1ms, unsupported, ready } from './common.js'

const server = restify.createServer({ handleUncaughtExceptions: false })

switch (kind) {
  case 'hello':
    server.get('/', (req, res, next) => { res.json({ hello: 'world' }); next() })
    break
  case 'params':
    for (const r of decoyRoutes) server.get(r, (req, res, next) => { res.json({ route: r }); next() })
    server.get(paramsRoute, (req, res, next) => { res.json({ user: req.params.id, post: req.params.post }); next() })
    break
  case 'json-post':
    server.use(restify.plugins.bodyParser({ mapParams: false }))
    server.post('/echo', (req, res, next) => {
      if (!validateBody(req.body)) res.json(400, invalidBody(validateBody.errors))
      else res.json(echoOf(req.body))
      next()
    })
    break
  case 'delay-1ms':
    server.get('/delay', async (req, res) => { await delay1ms(); res.json({ hello: 'world' }) })
    break
  case 'payload':
    server.get('/payload', (req, res, next) => {
      res.setHeader('content-type', 'text/plain; charset=utf-8')
      res.sendRaw(200, payload)
      next()
    })
    break
  case 'hooks':
    server.use((req, res, next) => { req.a = 1; next() })
    server.use((req, res, next) => { req.b = 2; next() })
    server.use(async (req, res) => { req.c = 3 })
    server.get('/hooks', (req, res, next) => { res.json({ a: req.a, b: req.b, c: req.c }); next() })
    break
  default: unsupported()
}

server.listen(port, host, () => ready('restify'))
