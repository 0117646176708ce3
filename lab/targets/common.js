// What every target server shares: its environment (which scenario, which
// port) and the few helpers that frameworks without their own idiom need.
// A target serves exactly one scenario per process, so nothing registered for
// one scenario (100 routes, hooks) weighs on another.

import Ajv from 'ajv'
import { serverKind, payloadSizeOf, payloadString, postBodySchema, jwtSecret, orderBodySchema, responseSchemas, stackOrderOf, scenarios, protocolOf } from '../scenarios/index.js'

export const scenarioId = process.env.LAB_SCENARIO || 'hello'
/**
 * Whether this server speaks HTTP/2 (h2c, prior knowledge): LAB_HTTP2=1, set
 * by the target registry for the h2 targets. A server serves only the
 * scenarios of its own protocol; the others it reports unsupported.
 */
export const http2 = process.env.LAB_HTTP2 === '1'
/** hello | params | json-post | delay-1ms | payload | hooks | middleware */
export const kind = serverKind(scenarioId)
export const port = Number(process.env.PORT || 3000)
export const host = process.env.HOST || '127.0.0.1'
export const payload = kind === 'payload' ? payloadString(payloadSizeOf(scenarioId)) : ''

export { decoyRoutes, paramsRoute, postBodySchema, responseSchemas, echoOf, hooksBody, orderSummaryOf } from '../scenarios/index.js'

/** For frameworks without built-in validation: the same compiled JSON Schema validator. */
export const validateBody = new Ajv({ allErrors: false }).compile(postBodySchema)

/** The 400 body for a body that fails the schema. */
export function invalidBody (errors) {
  const e = errors && errors[0]
  return { statusCode: 400, error: 'Bad Request', message: e ? `body${e.instancePath} ${e.message}` : 'invalid body' }
}

/**
 * The `middleware` scenario's stack, one instance per target, with every
 * option at its default: cors(), helmet(), compression(), and body-parser's
 * json(), which is express.json() itself (Express 5 re-exports it). Imported
 * here, not at the top, so the targets of other scenarios do not load them.
 * @returns {Promise<Function[]>}
 */
export async function middlewareStack () {
  const [{ default: cors }, { default: helmet }, { default: compression }, { default: bodyParser }] = await Promise.all(
    pluginsOf('middleware').map((name) => import(name)))
  return [cors(), helmet(), compression(), bodyParser.json()]
}

/**
 * The `plugin-stack` scenario's application, one function run unchanged on
 * Fastify and on hotpath: five official plugins with their defaults (the
 * rate limit set far above what a run can reach, so every timed request is
 * counted and none refused), a route that verifies the bearer token in its own
 * onRequest hook (the preflight goes to @fastify/cors, not to the token
 * check), validates the body, sets a cookie and answers through its response
 * schema. The registers are awaited, as @fastify/rate-limit documents: its
 * onRoute hook must be in place before the route is declared.
 * @param {any} app a Fastify instance, or hotpath's
 */
export async function pluginStack (app) {
  const [cors, helmet, cookie, jwt, rateLimit] = (await Promise.all(
    pluginsOf('plugin-stack').map((name) => import(name))))
    .map((m) => m.default)
  await app.register(cors)
  await app.register(helmet)
  await app.register(cookie)
  await app.register(jwt, { secret: jwtSecret })
  await app.register(rateLimit, { max: 1_000_000_000, timeWindow: '1 minute' })
  app.decorate('authenticate', async (req) => { await req.jwtVerify() })
  app.post('/orders', {
    onRequest: app.authenticate,
    schema: { body: orderBodySchema, response: { 200: responseSchemas.stackOrder } }
  }, (req, reply) => {
    const order = stackOrderOf(req.body, req.user.sub, req.cookies.cart)
    reply.setCookie('last-order', String(order.totalCents), { path: '/', httpOnly: true, sameSite: 'lax' })
    return order
  })
}

/** The packages a scenario's application registers, from its definition (scenarios/index.js). */
function pluginsOf (id) {
  return /** @type {string[]} */ (scenarios.find((s) => s.id === id)?.plugins)
}

export const delay1ms = () => new Promise((resolve) => setTimeout(resolve, 1))

/** The exit code by which a target says it does not implement a scenario. */
export const UNSUPPORTED = 3

/** @param {string} [why] said after the scenario, for the run's report */
export function unsupported (why) {
  console.error(`scenario "${scenarioId}" is not supported by this target${why ? `: ${why}` : ''}`)
  process.exit(UNSUPPORTED)
}

const scenarioProtocol = protocolOf(scenarios.find((s) => s.id === scenarioId) ?? {})
if (http2 !== (scenarioProtocol === 'h2')) unsupported(`this target speaks ${http2 ? 'HTTP/2' : 'HTTP/1.1'}, the scenario ${scenarioProtocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1'}`)

/**
 * Buffers a node:http request body and parses it as JSON, for servers that
 * have no body parser of their own. Resolves undefined for invalid JSON.
 * @param {import('node:http').IncomingMessage} req
 */
export function readJson (req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    req.on('data', (c) => {
      size += c.length
      if (size > 1024 * 1024) { req.destroy(); reject(new Error('body too large')) } else chunks.push(c)
    })
    req.on('end', () => {
      try { resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) } catch { resolve(undefined) }
    })
    req.on('error', reject)
  })
}

/** Tells the runner the port is bound (it also polls the port, for --cmd servers). */
export function ready (what) {
  if (process.send) process.send({ type: 'lab:listening', port, what })
}
