// Polka: Express-style middleware on node:http with a tiny router. It has no
// body parser or JSON helper of its own; the body is read with the same
// helper as the raw node:http target, except behind the middleware stack,
// where body-parser's json() reads it.

import polka from 'polka'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, orderSummaryOf, readJson, delay1ms, unsupported, ready, middlewareStack } from './common.js'

const JSON_CT = 'application/json; charset=utf-8'
function send (res, status, body, type = JSON_CT) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
const json = (res, obj, status = 200) => send(res, status, JSON.stringify(obj))

const app = polka()

switch (kind) {
  case 'hello':
    app.get('/', (req, res) => json(res, { hello: 'world' }))
    break
  case 'params':
    for (const r of decoyRoutes) app.get(r, (req, res) => json(res, { route: r }))
    app.get(paramsRoute, (req, res) => json(res, { user: req.params.id, post: req.params.post }))
    break
  case 'json-post':
    app.post('/echo', async (req, res) => {
      const body = await readJson(req)
      if (body === undefined) return json(res, { statusCode: 400, error: 'Bad Request', message: 'invalid JSON' }, 400)
      if (!validateBody(body)) return json(res, invalidBody(validateBody.errors), 400)
      json(res, echoOf(body))
    })
    break
  case 'delay-1ms':
    app.get('/delay', async (req, res) => { await delay1ms(); json(res, { hello: 'world' }) })
    break
  case 'payload':
    app.get('/payload', (req, res) => send(res, 200, payload, 'text/plain; charset=utf-8'))
    break
  case 'hooks':
    app.use((req, res, next) => { req.a = 1; next() })
    app.use((req, res, next) => { req.b = 2; next() })
    app.use(async (req, res, next) => { req.c = 3; next() })
    app.get('/hooks', (req, res) => json(res, { a: req.a, b: req.b, c: req.c }))
    break
  case 'middleware':
    // polka's own onError answers body-parser's 400 (err.status) as text
    app.use(...(await middlewareStack()))
    app.post('/orders', (req, res) => json(res, orderSummaryOf(req.body)))
    break
  default: unsupported()
}

app.listen(port, host, () => ready('polka'))
