// Fastify 5: response schemas everywhere (compiled serializers), body schema
// for json-post, hooks with addHook (sync hooks take `done`, as documented),
// the official plugins of plugin-stack. With LAB_HTTP2=1 (target fastify-h2)
// the same app on Fastify's `http2: true` (cleartext, prior knowledge).

import Fastify from 'fastify'
import { kind, http2, port, host, payload, decoyRoutes, paramsRoute, postBodySchema, responseSchemas, echoOf, delay1ms, unsupported, ready, pluginStack } from './common.js'

const app = Fastify({ logger: false, http2 })
const out = (schema) => ({ schema: { response: { 200: schema } } })

switch (kind) {
  case 'hello':
    app.get('/', out(responseSchemas.hello), () => ({ hello: 'world' }))
    break
  case 'params':
    for (const r of decoyRoutes) app.get(r, out({ type: 'object', properties: { route: { type: 'string' } } }), () => ({ route: r }))
    app.get(paramsRoute, out(responseSchemas.params), (req) => ({ user: req.params.id, post: req.params.post }))
    break
  case 'json-post':
    app.post('/echo', { schema: { body: postBodySchema, response: { 200: responseSchemas.echo } } }, (req) => echoOf(req.body))
    break
  case 'delay-1ms':
    app.get('/delay', out(responseSchemas.hello), async () => { await delay1ms(); return { hello: 'world' } })
    break
  case 'payload':
    app.get('/payload', (req, reply) => { reply.type('text/plain; charset=utf-8').send(payload) })
    break
  case 'hooks':
    app.addHook('onRequest', (req, reply, done) => { req.a = 1; done() })
    app.addHook('preHandler', (req, reply, done) => { req.b = 2; done() })
    app.addHook('preHandler', async (req) => { req.c = 3 })
    app.get('/hooks', out(responseSchemas.hooks), (req) => ({ a: req.a, b: req.b, c: req.c }))
    break
  case 'plugin-stack':
    await pluginStack(app)
    break
  default: unsupported()
}

await app.listen({ port, host })
ready(http2 ? 'fastify-h2' : 'fastify')
