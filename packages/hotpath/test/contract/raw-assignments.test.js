// A program may assign any property of node's IncomingMessage and
// ServerResponse that node's own objects take (@fastify/middie runs
// `reply.raw.log = request.log`; Express 4 middleware assigns req.query):
// req.raw and reply.raw take the same writes on every engine and under
// inject. Checked for every property name node's objects have (their own
// and their prototypes'), every name hotpath's objects have, and arbitrary
// ones: where node's object takes an assignment, hotpath's takes it too,
// and reads back the value assigned.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import http2 from 'node:http2'
import net from 'node:net'
import { Readable, Stream, Writable } from 'node:stream'
import { eachMode, setup } from '../helpers/engines.js'

/**
 * Every property name of an object, its own and its prototypes' (but
 * Object.prototype's).
 * @param {object} obj
 */
function allNames (obj) {
  const names = new Set()
  for (let p = obj; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) names.add(name)
  }
  return names
}

/**
 * Whether `obj.name = value` succeeds in strict code: the first property of
 * that name on the chain is a writable data property or an accessor with
 * a setter, or there is none and the object is extensible (ECMA-262
 * OrdinarySet).
 * @param {object} obj
 * @param {string} name
 */
function assignable (obj, name) {
  for (let p = obj; p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, name)
    if (d === undefined) continue
    if ('value' in d) return d.writable === true && (p === obj || Object.isExtensible(obj))
    return d.set !== undefined
  }
  return Object.isExtensible(obj)
}

/**
 * The first property of that name on the chain is an accessor.
 * @param {object} obj
 * @param {string} name
 */
function isAccessor (obj, name) {
  for (let p = obj; p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, name)
    if (d !== undefined) return !('value' in d)
  }
  return false
}

/**
 * The object on the chain that holds the property.
 * @param {object} obj
 * @param {string} name
 */
function holder (obj, name) {
  for (let p = obj; p !== null; p = Object.getPrototypeOf(p)) {
    if (Object.getOwnPropertyDescriptor(p, name) !== undefined) return p
  }
  return null
}

const STREAMS = new Set([Readable.prototype, Writable.prototype, Stream.prototype])

/**
 * Node's own pair for the mode: node:http's for HTTP/1.1 and inject,
 * node:http2's compat objects for h2 (taken from a plain node:http2 server).
 * @param {string} mode
 * @returns {Promise<{ req: object, res: object }>}
 */
async function nodePair (mode) {
  if (mode !== 'h2') {
    const req = new http.IncomingMessage(new net.Socket())
    return { req, res: new http.ServerResponse(req) }
  }
  const server = http2.createServer()
  /** @type {Promise<{ req: object, res: object }>} */
  const got = new Promise((resolve) => server.once('request', (req, res) => {
    resolve({ req, res })
    res.end()
  }))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const session = http2.connect(`http://127.0.0.1:${/** @type {net.AddressInfo} */ (server.address()).port}`)
  const stream = session.request({ ':path': '/' })
  stream.resume()
  const pair = await got
  await new Promise((resolve) => stream.on('close', resolve))
  session.close()
  await new Promise((resolve) => server.close(resolve))
  return pair
}

/** Names no object has, as programs add them. */
const ARBITRARY = ['log', 'user', 'session', 'tenant', 'startTime', '__anything']

eachMode('assignments to req.raw and reply.raw', (mode) => {
  /** @type {Awaited<ReturnType<typeof setup>>} */
  let s
  /** @type {Record<string, { refused: string[], readBack: string[] }>} */
  const found = {}
  /** @type {{ req: object, res: object }} */
  let node
  before(async () => {
    node = await nodePair(mode)
    s = await setup(mode, (app) => {
      app.get('/check', (/** @type {any} */ req, /** @type {any} */ reply) => {
        for (const [which, raw, theirs] of /** @type {const} */ ([['req', req.raw, node.req], ['res', reply.raw, node.res]])) {
          const names = new Set([...allNames(theirs), ...allNames(raw), ...ARBITRARY])
          // where node's object takes the assignment, hotpath's must too
          found[which] = { refused: [...names].filter((name) => assignable(theirs, name) && !assignable(raw, name)), readBack: [] }
        }
        return { ok: true }
      })
      // middie's assignment, then values assigned to names hotpath's
      // objects compute and to names nobody has, read back
      app.get('/assign', (/** @type {any} */ req, /** @type {any} */ reply) => {
        reply.raw.log = req.log
        req.raw.log = req.log
        for (const [which, raw] of /** @type {const} */ ([['req', req.raw], ['res', reply.raw]])) {
          const entry = found[which] ?? (found[which] = { refused: [], readBack: [] })
          for (const name of ARBITRARY) {
            const value = { marker: name }
            raw[name] = value
            if (raw[name] !== value) entry.readBack.push(`${name}: reads back something else`)
          }
          // every name hotpath computes with an accessor of its own where
          // node's object has a plain property or none (a stream's own
          // accessors with setters, as `destroyed`, keep the stream's
          // meaning): assigned on an object
          // that inherits from it (the same lookup; node's own state, as
          // `finished` or `_header`, assigned on the object itself would
          // break its response on node too)
          const theirs = which === 'req' ? node.req : node.res
          for (const name of allNames(raw)) {
            if (!isAccessor(raw, name) || isAccessor(theirs, name) || STREAMS.has(holder(raw, name))) continue
            const value = { marker: name }
            const heir = Object.create(raw)
            heir[name] = value
            if (heir[name] !== value) entry.readBack.push(`${name}: reads back something else`)
          }
        }
        // what the raw objects now carry is the program's; the answer goes
        // through hotpath's own reply
        return { assigned: true }
      })
    }, { logger: { level: 'silent' } })
  })
  after(() => s.close())

  test('every name node takes an assignment to, hotpath takes too', async () => {
    const res = await s.request('/check')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(found.req.refused, [], 'req.raw refuses assignments node takes')
    assert.deepEqual(found.res.refused, [], 'reply.raw refuses assignments node takes')
  })

  test('assigned values read back, and the request is answered', async () => {
    const res = await s.request('/assign')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { assigned: true })
    assert.deepEqual(found.req.readBack, [])
    assert.deepEqual(found.res.readBack, [])
  })
})

test('the check refuses what a getter alone refuses', () => {
  const obj = Object.create({ get only () { return 1 } })
  assert.equal(assignable(obj, 'only'), false)
  assert.equal(assignable(obj, 'other'), true)
  assert.equal(assignable(Object.freeze({ a: 1 }), 'a'), false)
})
