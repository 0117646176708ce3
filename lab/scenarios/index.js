// The scenarios every target serves, and what a correct answer looks like.
//
// A target server imports this module to get the routes, schemas and payloads
// it must serve, and the runner imports it to build the timed request and the
// conformance checks. Keeping both sides on one definition is what makes
// "the same response bytes across targets" checkable.

/** @typedef {{ method: string, path: string, headers?: Record<string,string>, body?: string }} LabRequest */
/**
 * @typedef {object} LabExpect
 * @property {number} status
 * @property {string} [type]                            media type, without parameters
 * @property {string} [body]                            exact bytes (after decoding, with `encoding`)
 * @property {'gzip'} [encoding]                        the Content-Encoding the body must come in
 * @property {Record<string, string | RegExp>} [headers] lower-case name → exact value, or a pattern it must match
 */
/**
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {LabRequest} request        the timed request
 * @property {LabExpect} expect          what every target must answer to it
 * @property {'h1' | 'h2'} [protocol]    HTTP/1.1 (default), or HTTP/2 over cleartext with prior knowledge (h2c)
 * @property {number} [pipelining]       requests in flight per connection (default 1); over HTTP/2, concurrent streams
 * @property {string} [baseline]         the target ratios are taken against (default node-http)
 * @property {{ name: string, request: LabRequest, expect: LabExpect }[]} [extraChecks]
 *   conformance checks that are not timed (bad input must get its 4xx)
 * @property {string[]} [plugins]        the npm packages the scenario's application registers on the
 *   framework (plugins, middleware), in order: the targets load these, and `--split` counts their code,
 *   and that of the dependencies only they bring in, as the plugins' share
 */

import { createHmac } from 'node:crypto'

export const JSON_TYPE = 'application/json'
export const TEXT_TYPE = 'text/plain'

const hello = JSON.stringify({ hello: 'world' })

/** The 99 routes registered next to the measured one in `params` (":name" syntax). */
export const decoyRoutes = buildDecoys()

function buildDecoys () {
  const resources = ['accounts', 'orders', 'invoices', 'products', 'teams', 'projects', 'tickets', 'events', 'files', 'reports', 'sessions']
  const routes = []
  for (const r of resources) {
    routes.push(`/${r}`, `/${r}/:id`, `/${r}/:id/history`, `/${r}/:id/owners/:owner`,
      `/api/v1/${r}`, `/api/v1/${r}/:id`, `/api/v1/${r}/:id/tags`, `/api/v2/${r}/:id`, `/admin/${r}/:id/audit`)
  }
  return routes.slice(0, 99)
}

/** Path of the measured route in `params`. */
export const paramsRoute = '/users/:id/posts/:post'

/** JSON schema of the `json-post` body (plain JSON Schema: every validator here takes it). */
export const postBodySchema = {
  type: 'object',
  required: ['id', 'name', 'email', 'tags', 'items'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    email: { type: 'string', minLength: 3, maxLength: 200 },
    active: { type: 'boolean' },
    tags: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 40 } },
    items: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['sku', 'qty', 'price'],
        properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 }, price: { type: 'number', minimum: 0 } }
      }
    },
    note: { type: 'string', maxLength: 1000 }
  }
}

/** Response schemas, for frameworks that compile serializers from them. */
export const responseSchemas = {
  hello: { type: 'object', properties: { hello: { type: 'string' } } },
  params: { type: 'object', properties: { user: { type: 'string' }, post: { type: 'string' } } },
  echo: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } } },
  hooks: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } } },
  order: {
    type: 'object',
    properties: {
      customer: { type: 'string' },
      coupon: { type: 'string' },
      items: {
        type: 'array',
        items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' }, priceCents: { type: 'integer' }, totalCents: { type: 'integer' } } }
      },
      totalCents: { type: 'integer' },
      recommendations: {
        type: 'array',
        items: { type: 'object', properties: { sku: { type: 'string' }, name: { type: 'string' }, priceCents: { type: 'integer' }, stock: { type: 'integer' } } }
      }
    }
  }
}

/** `plugin-stack`'s answer: the order's, with the user and the cart first. */
responseSchemas.stackOrder = {
  type: 'object',
  properties: { user: { type: 'string' }, cart: { type: 'string' }, ...responseSchemas.order.properties }
}

/** The 1 KiB body of `json-post`, padded to exactly 1024 bytes. */
export const postBody = buildPostBody()

function buildPostBody () {
  const body = {
    id: 4242,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    active: true,
    tags: ['analytical', 'engine', 'notes', 'bernoulli'],
    items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${1000 + i}`, qty: i + 1, price: 9.5 + i })),
    note: ''
  }
  const base = JSON.stringify(body).length
  body.note = 'x'.repeat(1024 - base)
  return JSON.stringify(body)
}

/** What a correct json-post handler answers: a few fields echoed. */
export function echoOf (body) {
  return { id: body.id, name: body.name, email: body.email }
}

/** A fixed, deterministic text payload of `size` bytes (ASCII). */
export function payloadString (size) {
  const line = 'the quick brown fox jumps over the lazy dog 0123456789\n'
  return line.repeat(Math.ceil(size / line.length)).slice(0, size)
}

export const payloadSizes = { 'payload-1k': 1024, 'payload-100k': 100 * 1024, 'payload-1m': 1024 * 1024, 'payload-10m': 10 * 1024 * 1024 }

/** The response of the `hooks` route: one field set by each of its three hooks. */
export const hooksBody = JSON.stringify({ a: 1, b: 2, c: 3 })

/** The small JSON order the `middleware` scenario posts: the cost measured is the middleware's, not JSON.parse's. */
export const orderBody = JSON.stringify({ customer: 'ada@example.com', items: [{ sku: 'SKU-1001', qty: 2 }, { sku: 'SKU-1004', qty: 1 }], coupon: 'WELCOME' })

/** The fixed catalogue the order route prices from and recommends (integers only: every serializer writes them alike). */
const catalogue = Array.from({ length: 20 }, (_, i) => ({ sku: `SKU-${1000 + i}`, name: `Analytical engine part ${i}`, priceCents: 950 + 125 * i, stock: (i * 7) % 13 }))

/**
 * What the `middleware` route answers to an order: the order priced, and the
 * catalogue as recommendations, so that the answer (about 1.8 KiB) is above
 * compression()'s 1 KiB threshold and is really gzipped.
 * @param {{ customer: string, coupon: string, items: { sku: string, qty: number }[] }} order
 */
export function orderSummaryOf (order) {
  const items = order.items.map(({ sku, qty }) => {
    const priceCents = catalogue.find((c) => c.sku === sku)?.priceCents ?? 0
    return { sku, qty, priceCents, totalCents: qty * priceCents }
  })
  return { customer: order.customer, coupon: order.coupon, items, totalCents: items.reduce((sum, i) => sum + i.totalCents, 0), recommendations: catalogue }
}

const orderSummaryBody = JSON.stringify(orderSummaryOf(JSON.parse(orderBody)))

/** A browser's cross-origin POST that accepts gzip: cors() and compression() both have work to do. */
const orderHeaders = { 'content-type': 'application/json', origin: 'https://shop.example.com', 'accept-encoding': 'gzip' }

/** The preflight a browser sends before that POST: cors() answers it alone. */
const preflightHeaders = { origin: 'https://shop.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }

/**
 * Headers the four middlewares must have set on the order's answer, on every
 * target: cors() with its defaults, four of helmet()'s defaults (values of
 * helmet 8), compression()'s Vary.
 */
const setByMiddleware = {
  'access-control-allow-origin': '*',
  'content-security-policy': "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  vary: /(^|,)\s*accept-encoding\s*(,|$)/i
}

const jsonHeaders = { 'content-type': 'application/json' }

/** The HS256 secret the `plugin-stack` application verifies its bearer tokens with. */
export const jwtSecret = 'lab-secret-for-hs256-bearer-tokens'

/**
 * A compact HS256 JWT signed with `secret` (RFC 7519 §3, RFC 7515 §7.1):
 * built here with node:crypto so the runner needs no JWT library to make the
 * tokens the scenario sends.
 * @param {object} payload
 * @param {string} secret
 */
export function signHs256 (payload, secret) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`
}

/** The bearer token of the timed request: a user, no expiry, so every run sends the same bytes. */
const stackToken = signHs256({ sub: 'ada', scope: 'orders:write', iat: 1763942400 }, jwtSecret)

/** The order the `plugin-stack` route validates: the body of `middleware`, with a schema. */
export const orderBodySchema = {
  type: 'object',
  required: ['customer', 'items'],
  additionalProperties: false,
  properties: {
    customer: { type: 'string', minLength: 3, maxLength: 200 },
    coupon: { type: 'string', maxLength: 40 },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['sku', 'qty'],
        additionalProperties: false,
        properties: { sku: { type: 'string', maxLength: 40 }, qty: { type: 'integer', minimum: 1, maximum: 1000 } }
      }
    }
  }
}

/**
 * What the `plugin-stack` route answers: the priced order of `middleware`,
 * with the user the token names and the cart the cookie names.
 * @param {Parameters<typeof orderSummaryOf>[0]} order
 * @param {string} user
 * @param {string} cart
 */
export function stackOrderOf (order, user, cart) {
  return { user, cart, ...orderSummaryOf(order) }
}

const stackOrderBody = JSON.stringify(stackOrderOf(JSON.parse(orderBody), 'ada', 'c-42'))

/** A signed-in browser's cross-origin POST: a bearer token, a cookie, an Origin. */
const stackHeaders = { 'content-type': 'application/json', origin: 'https://shop.example.com', authorization: `Bearer ${stackToken}`, cookie: 'cart=c-42; theme=dark' }

/**
 * Headers the five plugins must have set on the order's answer, on every
 * target: @fastify/cors's and @fastify/helmet's defaults (helmet 8's values),
 * @fastify/rate-limit's counters, and the cookie the route sets through
 * @fastify/cookie.
 */
const setByPlugins = {
  'access-control-allow-origin': '*',
  'content-security-policy': setByMiddleware['content-security-policy'],
  'strict-transport-security': setByMiddleware['strict-transport-security'],
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'x-ratelimit-limit': '1000000000',
  'x-ratelimit-remaining': /^\d+$/,
  'set-cookie': `last-order=${JSON.parse(stackOrderBody).totalCents}; Path=/; HttpOnly; SameSite=Lax`
}

/** @type {Scenario[]} */
export const scenarios = [
  {
    id: 'hello',
    title: 'GET / → {"hello":"world"}',
    request: { method: 'GET', path: '/' },
    expect: { status: 200, type: JSON_TYPE, body: hello }
  },
  {
    id: 'params',
    title: 'GET /users/:id/posts/:post among 100 routes',
    request: { method: 'GET', path: '/users/42/posts/7' },
    expect: { status: 200, type: JSON_TYPE, body: JSON.stringify({ user: '42', post: '7' }) },
    extraChecks: [
      { name: 'decoy route', request: { method: 'GET', path: '/api/v1/orders/9/tags' }, expect: { status: 200, type: JSON_TYPE, body: JSON.stringify({ route: '/api/v1/orders/:id/tags' }) } }
    ]
  },
  {
    id: 'json-post',
    title: 'POST 1 KiB JSON, schema-validated, a few fields echoed',
    request: { method: 'POST', path: '/echo', headers: jsonHeaders, body: postBody },
    expect: { status: 200, type: JSON_TYPE, body: JSON.stringify(echoOf(JSON.parse(postBody))) },
    extraChecks: [
      { name: 'body failing the schema', request: { method: 'POST', path: '/echo', headers: jsonHeaders, body: JSON.stringify({ id: 'one', name: 'x' }) }, expect: { status: 400 } },
      { name: 'malformed JSON', request: { method: 'POST', path: '/echo', headers: jsonHeaders, body: '{"id":' }, expect: { status: 400 } }
    ]
  },
  {
    id: 'delay-1ms',
    title: 'async handler awaiting a 1 ms timer',
    request: { method: 'GET', path: '/delay' },
    expect: { status: 200, type: JSON_TYPE, body: hello }
  },
  ...Object.entries(payloadSizes).map(([id, size]) => ({
    id,
    title: `GET a fixed ${{ '1k': '1 KiB', '100k': '100 KiB', '1m': '1 MiB', '10m': '10 MiB' }[id.slice(8)]} text payload`,
    request: { method: 'GET', path: '/payload' },
    // The expected body is built when the conformance check reads it, not
    // when a target imports this module: 11 MiB of payload strings would
    // otherwise sit in every server's heap and in every RSS figure.
    expect: {
      status: 200,
      type: TEXT_TYPE,
      get body () {
        Object.defineProperty(this, 'body', { value: payloadString(size), enumerable: true })
        return this.body
      }
    }
  })),
  {
    id: 'hooks',
    title: 'a route behind three hooks (two sync, one async)',
    request: { method: 'GET', path: '/hooks' },
    expect: { status: 200, type: JSON_TYPE, body: hooksBody }
  },
  {
    id: 'middleware',
    title: 'POST a small JSON order through cors, helmet, compression, express.json; 1.8 KiB JSON answer, gzipped',
    request: { method: 'POST', path: '/orders', headers: orderHeaders, body: orderBody },
    plugins: ['cors', 'helmet', 'compression', 'body-parser'],
    // The body is compared after gunzip, not as gzip bytes: those are zlib's
    // work, the same on every target of one Node version (409 bytes on Node
    // 20; test/middleware.test.js checks they are identical), but under
    // --node the servers' zlib need not be the runner's.
    expect: { status: 200, type: JSON_TYPE, encoding: 'gzip', body: orderSummaryBody, headers: setByMiddleware },
    // Only targets that run Express middleware unmodified serve it; node:http
    // is not among them, so ratios are taken against Express.
    baseline: 'express',
    extraChecks: [
      { name: 'malformed JSON', request: { method: 'POST', path: '/orders', headers: orderHeaders, body: '{"customer":' }, expect: { status: 400 } },
      { name: 'CORS preflight', request: { method: 'OPTIONS', path: '/orders', headers: preflightHeaders }, expect: { status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE', 'access-control-allow-headers': 'content-type' } } },
      { name: 'without Accept-Encoding', request: { method: 'POST', path: '/orders', headers: jsonHeaders, body: orderBody }, expect: { status: 200, type: JSON_TYPE, body: orderSummaryBody } }
    ]
  },
  {
    id: 'plugin-stack',
    title: 'POST a small JSON order through @fastify/cors, helmet, cookie, jwt (bearer) and rate-limit; body validated, 1.8 KiB answer serialized',
    request: { method: 'POST', path: '/orders', headers: stackHeaders, body: orderBody },
    expect: { status: 200, type: JSON_TYPE, body: stackOrderBody, headers: setByPlugins },
    plugins: ['@fastify/cors', '@fastify/helmet', '@fastify/cookie', '@fastify/jwt', '@fastify/rate-limit'],
    // Only targets that load Fastify's plugins unmodified serve it: Fastify
    // itself and hotpath; ratios are taken against Fastify.
    baseline: 'fastify',
    extraChecks: [
      { name: 'no bearer token', request: { method: 'POST', path: '/orders', headers: { ...stackHeaders, authorization: '' }, body: orderBody }, expect: { status: 401, type: JSON_TYPE } },
      { name: 'token signed with another secret', request: { method: 'POST', path: '/orders', headers: { ...stackHeaders, authorization: `Bearer ${signHs256({ sub: 'ada', iat: 1763942400 }, 'not-the-secret')}` }, body: orderBody }, expect: { status: 401, type: JSON_TYPE } },
      { name: 'body failing the schema', request: { method: 'POST', path: '/orders', headers: stackHeaders, body: JSON.stringify({ customer: 'ada@example.com', items: [{ sku: 'SKU-1001', qty: 0 }] }) }, expect: { status: 400, type: JSON_TYPE } },
      { name: 'malformed JSON', request: { method: 'POST', path: '/orders', headers: stackHeaders, body: '{"customer":' }, expect: { status: 400, type: JSON_TYPE } },
      { name: 'CORS preflight', request: { method: 'OPTIONS', path: '/orders', headers: preflightHeaders }, expect: { status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET,HEAD,POST', 'access-control-allow-headers': 'content-type' } } }
    ]
  },
  {
    id: 'pipelined',
    title: 'hello with 10 pipelined requests per connection',
    request: { method: 'GET', path: '/' },
    expect: { status: 200, type: JSON_TYPE, body: hello },
    pipelining: 10
  },
  {
    // the bytes of `hello`, over HTTP/2: 10 concurrent streams on each of
    // the run's connections (h2load -m 10); served by the targets whose
    // protocol is h2, timed only by a loader that speaks it (h2load)
    id: 'h2-hello',
    title: 'hello over HTTP/2 (h2c, prior knowledge)',
    request: { method: 'GET', path: '/' },
    expect: { status: 200, type: JSON_TYPE, body: hello },
    protocol: 'h2',
    pipelining: 10,
    baseline: 'node-http2'
  }
]

export const scenarioIds = scenarios.map((s) => s.id)

/** What "all" selects: the HTTP/1.1 scenarios (an h2 scenario needs h2load and the h2 targets: the h2 profile). */
export const scenarioGroups = { all: scenarios.filter((s) => protocolOf(s) === 'h1').map((s) => s.id) }

/** @param {{ protocol?: 'h1' | 'h2' }} scenario */
export function protocolOf (scenario) {
  return scenario.protocol ?? 'h1'
}

/** @param {string} id */
export function getScenario (id) {
  const s = scenarios.find((x) => x.id === id)
  if (!s) throw new Error(`unknown scenario "${id}" (known: ${scenarioIds.join(', ')})`)
  return s
}

/** The server-side view: which routes a target registers for a scenario. */
export function serverKind (id) {
  if (id === 'pipelined' || id === 'h2-hello') return 'hello'
  if (id.startsWith('payload-')) return 'payload'
  return id
}

/** Payload size for a payload scenario id. */
export function payloadSizeOf (id) {
  return payloadSizes[id]
}
