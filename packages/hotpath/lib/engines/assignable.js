// A program may assign any property of node:http's IncomingMessage and
// ServerResponse but the few node defines with a getter alone
// (`headersSent`, `writableEnded`…): @fastify/middie runs
// `reply.raw.log = request.log`, Express 4 middleware `req.query = …`.
// The objects hotpath hands out (its own on wire and inject, node's
// subclasses with hotpath's members) compute some members with getters;
// each such getter (its own or inherited) gets a setter that makes the assigned value an own data
// property of that object, as the assignment makes it on node's, unless
// node's own object has the same getter alone. Decided once per class when
// it is defined; nothing per request.

/**
 * @param {object} proto  a prototype hotpath defines
 * @param {object} nodeProto  the prototype of node's object it stands for
 */
export function acceptAssignments (proto, nodeProto) {
  // the getters it inherits too: wire's response is a Writable, whose
  // writableBuffer and writableAborted node's ServerResponse does not have
  const seen = new Set()
  for (let p = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) {
      if (seen.has(name)) continue
      seen.add(name)
      const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(p, name))
      if (d.get === undefined || d.set !== undefined || getterOnly(nodeProto, name)) continue
      Object.defineProperty(proto, name, { get: d.get, set: shadowing(name), enumerable: d.enumerable, configurable: true })
    }
  }
}

/**
 * The assignment a program makes on an accessor without a setter of its
 * own: an own data property of the object, from then on.
 * @param {string} name
 * @returns {(this: object, value: unknown) => void}
 */
export function shadowing (name) {
  return function set (value) {
    Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: true })
  }
}

/**
 * Node's object refuses an assignment to `name` too: it finds an accessor
 * without a setter on its prototype chain.
 * @param {object | null} proto
 * @param {string} name
 */
function getterOnly (proto, name) {
  for (let p = proto; p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, name)
    if (d !== undefined) return d.get !== undefined && d.set === undefined
  }
  return false
}
