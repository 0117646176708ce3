// Events on the compat objects: each listener called on its own, what one
// throws logged through hotpath's request, never thrown into the engine's
// callbacks (a connection's or the process's).
import { errorMonitor } from 'node:events'

/**
 * hotpath's request the pair belongs to: Express's req.ip and friends read
 * its address, host and protocol (its trustProxy setting), and what user
 * code throws from an engine callback goes to its log.
 * @typedef {{ log: { error: (obj: object, msg: string) => void }, ip?: string | undefined, ips?: readonly unknown[], hostname?: string | undefined, protocol?: string }} Owner
 */

/**
 * @param {import('node:events').EventEmitter} target
 * @param {Owner} owner
 * @param {string | symbol} event
 * @param {any[]} args
 */
export function guardedEmit (target, owner, event, args) {
  // the Writable's own events ('prefinish', 'finish') and 'close' on a
  // response nobody listens to: no copy of an empty listener list
  if (event !== 'error' && target.listenerCount(event) === 0) return false
  // as EventEmitter.emit: an 'error' goes to the errorMonitor listeners
  // first (instrumentations watch a response's failure there)
  if (event === 'error') for (const listener of target.rawListeners(errorMonitor)) callGuarded(target, owner, event, listener, args)
  const listeners = target.rawListeners(event)
  if (listeners.length === 0) {
    if (event === 'error') owner.log.error({ err: args[0] }, 'an error on the request or response objects, with no listener')
    return false
  }
  // each listener on its own: one that throws does not keep the others
  // (the 'close' after 'finish') from running
  for (const listener of listeners) callGuarded(target, owner, event, listener, args)
  return true
}

/**
 * @param {import('node:events').EventEmitter} target
 * @param {Owner} owner
 * @param {string | symbol} event
 * @param {unknown} listener
 * @param {any[]} args
 */
function callGuarded (target, owner, event, listener, args) {
  try {
    Reflect.apply(/** @type {Function} */ (listener), target, args)
  } catch (err) {
    owner.log.error({ err }, `a '${String(event)}' listener threw`)
  }
}
