// Express 5: express.json() for bodies, middleware for hooks (Express 5
// forwards rejected promises from async middleware).

import express from 'express'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, orderSummaryOf, delay1ms, unsupported, ready, middlewareStack } from './common.js'

const app = express()
app.disable('x-powered-by')
app.disable('etag')

switch (kind) {
  case 'hello':
    app.get('/', (req, res) => { res.json({ hello: 'world' }) })
    break
  case 'params':
    for (const r of decoyRoutes) app.get(r, (req, res) => { res.json({ route: r }) })
    app.get(paramsRoute, (req, res) => { res.json({ user: req.params.id, post: req.params.post }) })
    break
  case 'json-post':
    app.post('/echo', express.json(), (req, res) => {
      if (!validateBody(req.body)) return res.status(400).json(invalidBody(validateBody.errors))
      res.json(echoOf(req.body))
    })
    // express.json() reports malformed JSON as a 400 error; answer it as JSON.
    app.use((err, req, res, next) => { res.status(err.status || 500).json({ statusCode: err.status || 500, message: err.message }) })
    break
  case 'delay-1ms':
    app.get('/delay', async (req, res) => { await delay1ms(); res.json({ hello: 'world' }) })
    break
  case 'payload':
    app.get('/payload', (req, res) => { res.type('text/plain').send(payload) })
    break
  case 'hooks':
    app.use((req, res, next) => { req.a = 1; next() })
    app.use((req, res, next) => { req.b = 2; next() })
    app.use(async (req, res, next) => { req.c = 3; next() })
    app.get('/hooks', (req, res) => { res.json({ a: req.a, b: req.b, c: req.c }) })
    break
  case 'middleware':
    app.use(...(await middlewareStack()))
    app.post('/orders', (req, res) => { res.json(orderSummaryOf(req.body)) })
    // malformed JSON: express.json()'s 400, answered as JSON as in json-post
    // (the default handler would answer an HTML page with the stack)
    app.use((err, req, res, next) => { res.status(err.status || 500).json({ statusCode: err.status || 500, message: err.message }) })
    break
  default: unsupported()
}

app.listen(port, host, () => ready('express'))
