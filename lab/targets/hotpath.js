// hotpath, on the engine named by HOTPATH_ENGINE (node | wire): response
// schemas everywhere, body schema for json-post, hooks that return values or
// promises (no done callbacks), Express middleware through app.use(), and
// the plugin-stack application as Fastify runs it. With LAB_HTTP2=1 (target
// hotpath-h2) the app is created with `http2: true` (h2c, prior knowledge);
// a hotpath that refuses the option reports the scenario unsupported, so the
// run goes on and the report shows it not run.

import http from 'node:http'
import { kind, http2, port, host, payload, decoyRoutes, paramsRoute, postBodySchema, responseSchemas, echoOf, orderSummaryOf, delay1ms, unsupported, ready, middlewareStack, pluginStack } from './common.js'

// LAB_HOTPATH_ENTRY: another hotpath package, timed beside this checkout's
// (the idle profile's --baseline-hotpath)
const hotpath = (await import(process.env.LAB_HOTPATH_ENTRY || 'hotpath')).default
const engine = process.env.HOTPATH_ENGINE || 'node'
// plugin-stack is the migration story: the Fastify application, with the one
// import a Fastify user changes (hotpath/fastify: Fastify's defaults where
// hotpath's differ, docs/migrating-from-fastify.md)
const create = kind === 'plugin-stack' ? (await import('hotpath/fastify')).default : hotpath
const app = http2 ? createHttp2() : create({ engine, logger: false })

function createHttp2 () {
  try {
    return create({ http2: true, logger: false })
  } catch (err) {
    if (err?.code === 'HP_ERR_UNSUPPORTED_OPTION') unsupported(`hotpath refuses http2: ${err.message}`)
    throw err
  }
}
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
    app.get('/payload', (req, reply) => { reply.type('text/plain; charset=utf-8'); return payload })
    break
  case 'hooks':
    app.addHook('onRequest', (req) => { req.a = 1 })
    app.addHook('preHandler', (req) => { req.b = 2 })
    app.addHook('preHandler', async (req) => { req.c = 3 })
    app.get('/hooks', out(responseSchemas.hooks), (req) => ({ a: req.a, b: req.b, c: req.c }))
    break
  case 'middleware':
    // the route reads the body express.json() left on the request; hotpath's
    // own parser does not run (docs/engines.md)
    app.use(...(await middlewareStack()))
    app.post('/orders', out(responseSchemas.order), (req) => orderSummaryOf(req.body))
    break
  case 'plugin-stack':
    await pluginStack(app)
    break
  default: unsupported()
}

await app.listen({ port, host })
// Figures labelled "wire" must come from the wire engine: refuse to run if the
// engine asked for is not the one serving (node's server is an http.Server).
// Over HTTP/2 no engine is named: the conformance probe, an h2c client,
// checks that HTTP/2 is what answers.
if (!http2 && (app.server instanceof http.Server) !== (engine === 'node')) {
  console.error(`Error: engine "${engine}" was asked for, but app.server is a ${app.server?.constructor?.name}`)
  process.exit(1)
}
ready(http2 ? 'hotpath-h2' : `hotpath-${engine}`)
