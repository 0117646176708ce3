// The application the restart soak runs, one process per instance:
//
//   node scripts/restart/app.js <entry> <engine> <port> [--drain-delay ms|off] [--label name]
//
// entry: hotpath | fastify-hotpath | fastify (real Fastify 5, for comparison;
// its engine is node:http, or node:http2 for h2). engine: wire | node | h2
// (HTTP/2 over cleartext, `http2: true`).
// GET /items/:id and POST /items answer JSON; every answer carries
// `x-instance: <label>` so the load generator can tell which instance served
// it. On SIGTERM the app closes (in-flight requests finish) and exits 0.
// Once listening it prints `ready <port>` (and sends { ready, port } over an
// IPC channel when it has one: a cluster worker, a forked child).
//
// Under node:cluster the primary passes the same arguments; the workers share
// the port.
import cluster from 'node:cluster'
import { parseArgs } from 'node:util'

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'drain-delay': { type: 'string', default: '1000' },
    label: { type: 'string' }
  }
})
const [entry, engine = 'wire', portArg] = positionals
const port = Number(portArg)
if (!['hotpath', 'fastify-hotpath', 'fastify'].includes(entry) || !['wire', 'node', 'h2'].includes(engine) || !Number.isInteger(port) || port <= 0) {
  console.error('usage: node scripts/restart/app.js hotpath|fastify-hotpath|fastify wire|node|h2 <port> [--drain-delay ms|off] [--label name]')
  process.exit(2)
}
// 'off': close() as the entry's default (no drain), to see what drain changes
const drainDelay = flags['drain-delay'] === 'off' ? null : Number(flags['drain-delay'])
// a cluster worker is named by its id, which the primary knows too
const label = flags.label ?? (cluster.isWorker ? `worker-${cluster.worker?.id}` : `pid-${process.pid}`)

// a worker whose primary has gone cannot send to it (EPIPE): it is being stopped anyway
if (cluster.isWorker) cluster.worker?.on('error', () => {})

const app = await create(entry, engine, drainDelay)

const itemSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, qty: { type: 'integer' } }
}

app.get('/items/:id', { schema: { response: { 200: itemSchema } } }, (/** @type {any} */ req, /** @type {any} */ reply) => {
  reply.header('x-instance', label)
  return { id: req.params.id, name: 'item ' + req.params.id, qty: 1 }
})

app.post('/items', {
  schema: {
    body: { type: 'object', required: ['name', 'qty'], properties: { name: { type: 'string' }, qty: { type: 'integer' } } },
    response: { 201: itemSchema }
  }
}, (/** @type {any} */ req, /** @type {any} */ reply) => {
  reply.code(201).header('x-instance', label)
  return { id: String(req.body.qty), name: req.body.name, qty: req.body.qty }
})

// Real Fastify has no health option: the route says the same thing hotpath's
// does (200 while serving); during close() Fastify answers it 503.
if (entry === 'fastify') app.get('/health', () => ({ status: 'ok' }))

let closing = false
process.once('SIGTERM', async () => {
  closing = true
  try {
    await app.close()
    process.exit(0)
  } catch (err) {
    console.error(err)
    process.exit(1)
  }
})

await app.listen({ port, host: '127.0.0.1' })
// a cluster worker's primary learns it from the 'listening' event
if (!closing && !cluster.isWorker) {
  console.log(`ready ${port}`)
  if (typeof process.send === 'function') process.send({ ready: true, port, label })
}

/**
 * Three frameworks, one app: typed loosely here, their own types differ.
 * @param {string} entry
 * @param {string} engine
 * @param {number | null} drainDelay  null: no drain
 * @returns {Promise<any>}
 */
async function create (entry, engine, drainDelay) {
  if (entry === 'fastify') {
    const { default: Fastify } = await import('fastify')
    return Fastify({ logger: false, ...(engine === 'h2' ? { http2: true } : {}) })
  }
  // The shutdown options: on close(), keep answering for drainDelay ms with
  // the health route answering 503, so the balancer stops sending first.
  const options = { logger: false, ...(engine === 'h2' ? { http2: /** @type {const} */ (true) } : { engine: /** @type {'wire' | 'node'} */ (engine) }), drain: drainDelay === null ? false : { delay: drainDelay }, health: '/health' }
  if (entry === 'hotpath') {
    const { default: hotpath } = await import('hotpath')
    return hotpath(options)
  }
  const { default: Fastify } = await import('hotpath/fastify')
  return Fastify(options)
}
