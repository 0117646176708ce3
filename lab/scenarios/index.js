// The scenarios every target serves, and what a correct answer looks like.
//
// A target server imports this module to get the routes, schemas and payloads
// it must serve, and the runner imports it to build the timed request and the
// conformance checks. Keeping both sides on one definition is what makes
// "the same response bytes across targets" checkable.

/** @typedef {{ method: string, path: string, headers?: Record<string,string>, body?: string }} LabRequest */
/** @typedef {{ status: number, type?: string, body?: string }} LabExpect */
/**
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {LabRequest} request        the timed request
 * @property {LabExpect} expect          what every target must answer to it
 * @property {number} [pipelining]       requests in flight per connection (default 1)
 * @property {{ name: string, request: LabRequest, expect: LabExpect }[]} [extraChecks]
 *   conformance checks that are not timed (bad input must get its 4xx)
 */

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
  hooks: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } } }
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

const jsonHeaders = { 'content-type': 'application/json' }

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
    id: 'pipelined',
    title: 'hello with 10 pipelined requests per connection',
    request: { method: 'GET', path: '/' },
    expect: { status: 200, type: JSON_TYPE, body: hello },
    pipelining: 10
  }
]

export const scenarioIds = scenarios.map((s) => s.id)

/** @param {string} id */
export function getScenario (id) {
  const s = scenarios.find((x) => x.id === id)
  if (!s) throw new Error(`unknown scenario "${id}" (known: ${scenarioIds.join(', ')})`)
  return s
}

/** The server-side view: which routes a target registers for a scenario. */
export function serverKind (id) {
  if (id === 'pipelined') return 'hello'
  if (id.startsWith('payload-')) return 'payload'
  return id
}

/** Payload size for a payload scenario id. */
export function payloadSizeOf (id) {
  return payloadSizes[id]
}
