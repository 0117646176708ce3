// The app of the `startup` profile: LAB_ROUTES POST routes, each with its own
// params, body and response schemas (different per route, as an app
// generated from an API description has them), built by the framework named
// by LAB_STARTUP_TARGET. Times, in this one process: the framework's import,
// the routes' registration, ready(), and the first answer (an in-memory
// request where the framework has one), then prints one JSON line.
// Express and Hono have no schemas: they register the same routes with a
// JSON body parser, so they measure routing and the framework alone.

import { performance } from 'node:perf_hooks'
import http from 'node:http'

const target = process.env.LAB_STARTUP_TARGET || 'hotpath'
const count = Number(process.env.LAB_ROUTES || 1000)
// a hotpath other than the installed one (a baseline to compare against)
const hotpathEntry = process.env.LAB_HOTPATH_ENTRY || 'hotpath'

/** Route i's schemas: property names carry i, so no two routes share one. */
export function routeSchemas (i) {
  return {
    params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
    body: {
      type: 'object',
      properties: {
        [`name${i}`]: { type: 'string', minLength: 1, maxLength: 64 },
        [`count${i}`]: { type: 'integer', minimum: 0 },
        [`tags${i}`]: { type: 'array', items: { type: 'string' }, maxItems: 10 },
        [`active${i}`]: { type: 'boolean' }
      },
      required: [`name${i}`, `count${i}`]
    },
    response: {
      200: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          [`name${i}`]: { type: 'string' },
          [`count${i}`]: { type: 'integer' },
          [`tags${i}`]: { type: 'array', items: { type: 'string' } }
        }
      }
    }
  }
}

const pathOf = (i) => `/r${i}/items/:id`
const handlerFor = (i) => (id, body) => ({ id, [`name${i}`]: body[`name${i}`], [`count${i}`]: body[`count${i}`], [`tags${i}`]: body[`tags${i}`] ?? [] })
// the route asked first: the last one registered
const probe = count - 1
const probeBody = JSON.stringify({ [`name${probe}`]: 'widget', [`count${probe}`]: 3, [`tags${probe}`]: ['a'] })
const probeUrl = `/r${probe}/items/7`
const expected = JSON.stringify({ id: 7, [`name${probe}`]: 'widget', [`count${probe}`]: 3, [`tags${probe}`]: ['a'] })

// the schemas exist before the clock starts: the app's own data, not the framework's work
const schemas = Array.from({ length: count }, (_, i) => routeSchemas(i))
const handlers = Array.from({ length: count }, (_, i) => handlerFor(i))

const t0 = performance.now()
let tImported, tRegistered, tReady, answer

if (target === 'hotpath' || target === 'fastify') {
  const create = target === 'fastify' ? (await import('fastify')).default : (await import(hotpathEntry)).default
  tImported = performance.now()
  const app = create({ logger: false })
  for (let i = 0; i < count; i++) {
    const h = handlers[i]
    app.post(pathOf(i), { schema: schemas[i] }, (req) => h(req.params.id, req.body))
  }
  tRegistered = performance.now()
  await app.ready()
  tReady = performance.now()
  const res = await app.inject({ method: 'POST', url: probeUrl, headers: { 'content-type': 'application/json' }, payload: probeBody })
  answer = { status: res.statusCode, body: res.body }
} else if (target === 'express') {
  const express = (await import('express')).default
  tImported = performance.now()
  const app = express()
  app.set('etag', false)
  app.disable('x-powered-by')
  const json = express.json()
  for (let i = 0; i < count; i++) {
    const h = handlers[i]
    app.post(pathOf(i), json, (req, res) => { res.json(h(Number(req.params.id), req.body)) })
  }
  tRegistered = performance.now()
  // Express has no ready(): it is ready once it listens
  const server = await new Promise((resolve) => { const s = http.createServer(app).listen(0, '127.0.0.1', () => resolve(s)) })
  tReady = performance.now()
  answer = await request(server.address().port)
  server.close()
} else if (target === 'hono') {
  const { Hono } = await import('hono')
  tImported = performance.now()
  const app = new Hono()
  for (let i = 0; i < count; i++) {
    const h = handlers[i]
    app.post(pathOf(i), async (c) => c.json(h(Number(c.req.param('id')), await c.req.json())))
  }
  tRegistered = performance.now()
  // Hono has no ready(); its router is built on the first request
  tReady = performance.now()
  const res = await app.request(probeUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: probeBody })
  answer = { status: res.status, body: await res.text() }
} else {
  throw new Error(`unknown startup target "${target}"`)
}
const tAnswered = performance.now()
const rss = process.memoryUsage().rss

if (answer.status !== 200 || answer.body !== expected) {
  process.stderr.write(`wrong first answer: ${answer.status} ${answer.body}\n`)
  process.exit(1)
}
process.stdout.write(JSON.stringify({
  target,
  routes: count,
  importMs: tImported - t0,
  registerMs: tRegistered - tImported,
  readyMs: tReady - t0,
  firstAnswerMs: tAnswered - t0,
  firstRequestMs: tAnswered - tReady,
  rss
}) + '\n')

/** One POST over a socket, for the frameworks without an in-memory request. */
function request (port) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: probeUrl, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(probeBody) } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { body += d })
      res.on('end', () => resolve({ status: res.statusCode, body }))
    })
    req.on('error', reject)
    req.end(probeBody)
  })
}
