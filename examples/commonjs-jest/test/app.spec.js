'use strict'
// The application through app.inject() and over a socket, with Jest's
// globals, as a CommonJS project's suite is written.
const fastify = require('hotpath/fastify')
const { build } = require('../app.js')

describe('require(\'hotpath/fastify\')', () => {
  test('is the factory, with .fastify and .default on it, as require(\'fastify\')', () => {
    expect(typeof fastify).toBe('function')
    expect(fastify.fastify).toBe(fastify)
    expect(fastify.default).toBe(fastify)
    expect(typeof fastify.errorCodes.FST_ERR_NOT_FOUND).toBe('function')
  })

  test('resolves to the CommonJS build under Jest', () => {
    expect(require.resolve('hotpath/fastify')).toMatch(/[\\/]cjs[\\/]fastify\.js$/)
  })
})

describe('the app', () => {
  let app
  beforeEach(async () => {
    app = build()
    await app.ready()
  })
  afterEach(() => app.close())

  test('a plugin\'s route under its prefix, with its decorator', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/hello/ada' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: 'Hello, ada!' })
  })

  test('the onRequest hook runs on every request', async () => {
    const first = await app.inject('/api/hello/ada')
    const second = await app.inject('/nowhere')
    expect(first.headers['x-request-count']).toBe('1')
    expect(second.headers['x-request-count']).toBe('2')
    expect(second.statusCode).toBe(404)
    expect(second.json()).toMatchObject({ statusCode: 404, error: 'Not Found' })
  })

  test('a body is validated, and the reply serialized by its schema', async () => {
    const ok = await app.inject({ method: 'POST', url: '/sum', payload: { a: 2, b: '3' } })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ sum: 5 })
    const bad = await app.inject({ method: 'POST', url: '/sum', payload: { a: 2 } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'FST_ERR_VALIDATION' })
  })

  test('params are validated too', async () => {
    const res = await app.inject('/api/hello/a')
    expect(res.statusCode).toBe(400)
  })

  test('answers over a socket', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const res = await fetch(`${address}/api/hello/grace`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Hello, grace!' })
  })
})
