// The same application from TypeScript compiled to CommonJS by ts-jest, as
// a NestJS project's suite is: `import Fastify from 'hotpath/fastify'`
// becomes require('hotpath/fastify').default.
import { describe, expect, test } from '@jest/globals'
import Fastify, { FastifyInstance, FastifyPluginAsync } from 'hotpath/fastify'

const items: FastifyPluginAsync<{ names: string[] }> = async (app, opts) => {
  app.get('/items', async () => opts.names)
  app.get<{ Params: { index: string } }>('/items/:index', async (req, reply) => {
    const name = opts.names[Number(req.params.index)]
    if (name !== undefined) return { name }
    reply.code(404)
    return { missing: req.params.index }
  })
}

function build (): FastifyInstance {
  const app = Fastify()
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-route', req.routeOptions.url ?? 'none')
    return payload
  })
  app.register(items, { prefix: '/v1', names: ['ada', 'grace'] })
  return app
}

describe('hotpath/fastify from TypeScript', () => {
  test('a plugin\'s routes through inject(), with a hook', async () => {
    const app = build()
    const list = await app.inject({ method: 'GET', url: '/v1/items' })
    expect(list.statusCode).toBe(200)
    expect(list.json()).toEqual(['ada', 'grace'])
    expect(list.headers['x-route']).toBe('/v1/items')
    const one = await app.inject({ method: 'GET', url: '/v1/items/1' })
    expect(one.json()).toEqual({ name: 'grace' })
    expect(one.headers['x-route']).toBe('/v1/items/:index')
    const none = await app.inject({ method: 'GET', url: '/v1/items/7' })
    expect(none.statusCode).toBe(404)
    expect(none.json()).toEqual({ missing: '7' })
    await app.close()
  })
})
