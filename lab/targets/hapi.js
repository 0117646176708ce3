// hapi 21: route validation through a validate.payload function (hapi's own
// hook for validators; the same JSON Schema validator as the other targets,
// since joi would validate a different schema language), request lifecycle
// extensions for hooks.

import Hapi from '@hapi/hapi'
import { kind, port, host, payload, decoyRoutes, paramsRoute, validateBody, invalidBody, echoOf, delay1ms, unsupported, ready } from './common.js'

const server = Hapi.server({ port, host, routes: { security: false } })
const hapiPath = (p) => p.replace(/:(\w+)/g, '{$1}')

switch (kind) {
  case 'hello':
    server.route({ method: 'GET', path: '/', handler: () => ({ hello: 'world' }) })
    break
  case 'params':
    for (const r of decoyRoutes) server.route({ method: 'GET', path: hapiPath(r), handler: () => ({ route: r }) })
    server.route({ method: 'GET', path: hapiPath(paramsRoute), handler: (req) => ({ user: req.params.id, post: req.params.post }) })
    break
  case 'json-post':
    server.route({
      method: 'POST',
      path: '/echo',
      options: {
        validate: {
          payload: (value) => {
            if (!validateBody(value)) throw new Error(invalidBody(validateBody.errors).message)
            return value
          }
        }
      },
      handler: (req) => echoOf(req.payload)
    })
    break
  case 'delay-1ms':
    server.route({ method: 'GET', path: '/delay', handler: async () => { await delay1ms(); return { hello: 'world' } } })
    break
  case 'payload':
    server.route({ method: 'GET', path: '/payload', handler: (req, h) => h.response(payload).type('text/plain; charset=utf-8') })
    break
  case 'hooks':
    server.ext('onRequest', (req, h) => { req.app.a = 1; return h.continue })
    server.ext('onPreHandler', (req, h) => { req.app.b = 2; return h.continue })
    server.ext('onPreHandler', async (req, h) => { req.app.c = 3; return h.continue })
    server.route({ method: 'GET', path: '/hooks', handler: (req) => ({ a: req.app.a, b: req.app.b, c: req.app.c }) })
    break
  default: unsupported()
}

await server.start()
ready('hapi')
