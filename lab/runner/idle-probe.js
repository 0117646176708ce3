// Loaded into every server of the idle profile with `node --expose-gc
// --import`, the same way for every target: it answers the runner's
// 'lab:memory' message with the process's memory after forced garbage
// collections, can write a heap snapshot ('lab:snapshot'), and holds the
// keep-alive timeout of every server the process listens with at the
// profile's value ('lab:keep-alive'), so that no framework's default (5 s
// on node:http, 72 s on Fastify) closes connections while 10,000 of them are
// opened and measured. It adds nothing per request or per connection.

import net from 'node:net'
import v8 from 'node:v8'

/** @type {Set<net.Server>} the servers this process listens with */
const servers = new Set()
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  servers.add(this)
  return listen.apply(this, args)
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Full collections until the heap stops shrinking (at most five): weak
 * callbacks and finalizers run between them, so what one collection frees
 * can let the next free more.
 */
async function collect () {
  const gc = /** @type {(() => void) | undefined} */ (globalThis.gc)
  if (typeof gc !== 'function') return false
  let last = Infinity
  for (let i = 0; i < 5; i++) {
    gc()
    await turn()
    const used = process.memoryUsage().heapUsed
    if (used >= last) break
    last = used
  }
  return true
}

/**
 * The resident pages of V8's young generation. It is empty after a full
 * collection, but V8 grows it while thousands of connections arrive (their
 * objects survive it) and gives it back only when its memory reducer runs,
 * 10 to 20 s after the process goes idle: the runner leaves it out of the
 * connections' figure.
 */
function youngPhysical () {
  let bytes = 0
  for (const space of v8.getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space' || space.space_name === 'new_large_object_space') bytes += space.physical_space_size
  }
  return bytes
}

if (typeof process.send === 'function') {
  process.on('message', async (msg) => {
    if (msg?.type === 'lab:keep-alive') {
      let set = 0
      // node:http's Server has the property, and so has hotpath's wire
      // engine on its net.Server (it mirrors node:http's members)
      for (const server of servers) if ('keepAliveTimeout' in server) { /** @type {any} */ (server).keepAliveTimeout = msg.ms; set++ }
      process.send?.({ type: msg.type, id: msg.id, servers: servers.size, set })
    } else if (msg?.type === 'lab:memory') {
      const collected = await collect()
      const m = process.memoryUsage()
      // the pages of V8's heap that are resident: the resident set less
      // this is memory outside the JavaScript heap (sockets' native
      // objects, libuv's, malloc's)
      const heapPhysical = v8.getHeapStatistics().total_physical_size
      process.send?.({ type: msg.type, id: msg.id, collected, rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, heapPhysical, youngPhysical: youngPhysical(), external: m.external, arrayBuffers: m.arrayBuffers })
    } else if (msg?.type === 'lab:snapshot') {
      await collect()
      const file = v8.writeHeapSnapshot(msg.file)
      process.send?.({ type: msg.type, id: msg.id, file })
    }
  })
}
