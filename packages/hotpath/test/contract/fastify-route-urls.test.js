// Route URLs under a prefix as Fastify reports them, beside real Fastify:
// the same routes declared on both, under flat, nested and slash-ended
// prefixes, for each prefixTrailingSlash value, with and without
// ignoreTrailingSlash and ignoreDuplicateSlashes. Compared: what the onRoute
// hooks see when they run, the route options objects as a hook that keeps
// them (@fastify/swagger) reads them after ready(), which paths answer GET
// and HEAD and what request.routeOptions reports there, hasRoute,
// findRoute, printRoutes and the instance's `prefix`.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import hotpathFastify from '../../lib/fastify.js'

const require = createRequire(import.meta.url)
const Fastify = require('fastify')

/** @param {any} req @param {any} reply */
function handler (req, reply) {
  reply.header('x-route', `${req.routeOptions.url} ${req.routeOptions.config.url}`)
  return 'ok'
}

/**
 * @param {any} factory
 * @param {Record<string, any>} options
 * @param {{ prefixes: string[], url: string, prefixTrailingSlash?: string }} c
 */
async function describe (factory, options, c) {
  const app = factory(options)
  /** @type {any[]} */
  const kept = []
  /** @type {any[]} */
  const seen = []
  /** @type {string[]} */
  const prefixes = []
  /** @type {string[]} */
  const errors = []
  app.addHook('onRoute', (/** @type {any} */ o) => {
    kept.push(o)
    seen.push({ method: o.method, url: o.url, path: o.path, routePath: o.routePath, prefix: o.prefix })
  })
  /** @param {any} instance @param {number} depth */
  const declare = (instance, depth) => {
    prefixes.push(instance.prefix)
    if (depth === c.prefixes.length) {
      try {
        instance.get(c.url, { prefixTrailingSlash: c.prefixTrailingSlash }, handler)
      } catch (err) {
        errors.push(/** @type {Error} */ (err).message)
      }
      return
    }
    instance.register(async (/** @type {any} */ child) => declare(child, depth + 1), { prefix: c.prefixes[depth] })
  }
  declare(app, 0)
  await app.ready()
  const whole = c.prefixes.join('').replace(/\/+$/, '')
  const urls = [...new Set([whole, whole + '/', whole + '//', whole.toUpperCase(), whole + '/x', whole + 'x'].map((u) => u[0] === '/' ? u : '/' + u))]
  /** @type {Record<string, string>} */
  const answers = {}
  for (const url of urls) {
    for (const method of ['GET', 'HEAD']) {
      const res = await app.inject({ method, url })
      answers[`${method} ${url}`] = `${res.statusCode} ${res.headers['x-route'] ?? ''}`
    }
  }
  const out = {
    errors,
    prefixes,
    seen,
    kept: kept.map((o) => ({ method: o.method, url: o.url, path: o.path, routePath: o.routePath })),
    answers,
    hasRoute: urls.map((url) => [app.hasRoute({ method: 'GET', url }), app.hasRoute({ method: 'HEAD', url })]),
    findRoute: urls.map((url) => app.findRoute({ method: 'GET', url }) !== null),
    printRoutes: app.printRoutes(),
    printRoutesFlat: app.printRoutes({ commonPrefix: false })
  }
  await app.close()
  return out
}

const PREFIXES = [['/api/tasks'], ['/v1/'], ['/'], ['/a', '/b'], ['/a/', '/b'], ['/a', 'b'], ['/a', '/b/']]
const URLS = ['/', '', '/x', 'x']
const OPTION_SETS = [
  {},
  { ignoreTrailingSlash: true },
  { ignoreDuplicateSlashes: true },
  { routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } }
]

for (const options of OPTION_SETS) {
  for (const prefixTrailingSlash of [undefined, 'both', 'slash', 'no-slash']) {
    test(`route URLs under prefixes, ${JSON.stringify(options)}, prefixTrailingSlash ${prefixTrailingSlash}`, async () => {
      const warn = process.emitWarning
      // Fastify's deprecation warning for the top-level router options
      process.emitWarning = () => {}
      try {
        for (const prefixes of PREFIXES) {
          for (const url of URLS) {
            const c = { prefixes, url, prefixTrailingSlash }
            const fastify = await describe(Fastify, options, c)
            const ours = await describe(hotpathFastify, options, c)
            // a path without its leading '/' is an error only where no prefix ends with '/'
            assert.deepEqual({ ...ours, errors: ours.errors.length }, { ...fastify, errors: fastify.errors.length }, JSON.stringify(c))
          }
        }
      } finally {
        process.emitWarning = warn
      }
    })
  }
}

test('@fastify/swagger\'s view: a root route under a prefix is published as Fastify publishes it', async () => {
  /** @param {any} factory */
  const published = async (factory) => {
    const app = factory()
    /** @type {any[]} */
    const routes = []
    // as @fastify/swagger collects them: the onRoute options, read once the app is ready
    app.addHook('onRoute', (/** @type {any} */ o) => { routes.push(o) })
    app.register(async (/** @type {any} */ tasks) => {
      tasks.get('/', handler)
      tasks.post('/', handler)
      tasks.get('/:id', handler)
    }, { prefix: '/api/tasks' })
    await app.ready()
    const paths = routes.map((o) => `${o.method} ${o.url}`)
    await app.close()
    return paths
  }
  const fastify = await published(Fastify)
  assert.deepEqual(fastify, ['GET /api/tasks/', 'HEAD /api/tasks', 'HEAD /api/tasks/', 'POST /api/tasks/', 'GET /api/tasks/:id', 'HEAD /api/tasks/:id'])
  assert.deepEqual(await published(hotpathFastify), fastify)
})
