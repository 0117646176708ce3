// decorate(), decorateRequest() and decorateReply(): the names each may take
// (not a built-in member, not one declared in this scope already), their
// dependencies, and where the value goes: onto the instance, or into the
// context's table, from which ready() builds the Request and Reply
// subclasses of its routes.
import { OWN_FIELDS } from './context.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */
/** @typedef {import('./core.js').Core} Core */

/** built-in members a decorator may replace */
/** @type {Set<string | symbol>} */
const YIELDING_MEMBERS = new Set(['use'])
export const RESERVED_REQUEST = new Set(['raw', 'params', 'body', 'headers', 'method', 'url', 'route', 'reply', 'path', 'querystring', 'query', 'id', 'log', 'ip', 'ips', 'hostname', 'host', 'port', 'socket', 'protocol', 'signal', 'routeOptions', 'getDecorator', 'setDecorator', 'server', 'getValidationFunction', 'compileValidationSchema', 'validateInput'])
export const RESERVED_REPLY = new Set(['raw', 'request', 'route', 'statusCode', 'sent', 'code', 'status', 'header', 'headers', 'getHeader', 'hasHeader', 'removeHeader', 'getHeaders', 'type', 'send', 'serialize', 'redirect', 'hijack', 'elapsedTime', 'callNotFound', 'log', 'getDecorator', 'server', 'getSerializationFunction', 'compileSerializationSchema', 'serializeInput'])
/**
 * The built-in members no decorator may replace: the fields Fastify sets on
 * each request and reply itself (its `instanceProperties`). Its methods and
 * accessors (`reply.getHeader`, `request.hostname`…) are members of the
 * class, which a decorator may replace for the scope it is declared in, as
 * Fastify lets it (a test double, a plugin's own `reply.view`).
 */
const INSTANCE_FIELDS = {
  requestDecorators: new Set(['id', 'params', 'raw', 'query', 'log', 'body']),
  replyDecorators: new Set(['raw', 'request', 'log'])
}

/**
 * @param {Hotpath} app
 * @param {object} builtIns  the prototype that holds the app's own members (Hotpath.prototype)
 * @param {string | symbol} name
 * @param {unknown} value  a value, or { getter, setter }
 * @param {(string | symbol)[]} [dependencies]  decorators that must exist already
 */
export function decorate (app, builtIns, name, value, dependencies) {
  // the instance's own decorators may still be added by an onReady hook,
  // as in Fastify; those of requests and replies are built into the routes
  if (app._core.isReady) throw app._core.error('HP_ERR_DEC_AFTER_READY', String(name))
  if (isDeclared(app, builtIns, name)) throw app._core.error('HP_ERR_DEC_ALREADY_PRESENT', String(name))
  requireDecorators(app._core, dependencies, (dep) => dep in app, name)
  const target = app
  const v = /** @type {any} */ (value)
  if (isAccessor(v)) Object.defineProperty(target, name, { get: v.getter, set: v.setter, configurable: true, enumerable: false })
  else /** @type {any} */ (target)[name] = value
  return app
}

/**
 * @param {Hotpath} app
 * @param {string | symbol} name
 * @param {unknown} value
 * @param {(string | symbol)[]} [dependencies]
 */
export function decorateRequest (app, name, value, dependencies) {
  requireDecorators(app._core, dependencies, (dep) => app.hasRequestDecorator(dep), name)
  return decorateObject(app, 'requestDecorators', name, value)
}

/**
 * @param {Hotpath} app
 * @param {string | symbol} name
 * @param {unknown} value
 * @param {(string | symbol)[]} [dependencies]
 */
export function decorateReply (app, name, value, dependencies) {
  requireDecorators(app._core, dependencies, (dep) => app.hasReplyDecorator(dep), name)
  return decorateObject(app, 'replyDecorators', name, value)
}

/**
 * @param {Hotpath} app
 * @param {'requestDecorators' | 'replyDecorators'} kind
 * @param {string | symbol} name
 * @param {unknown} value
 */
function decorateObject (app, kind, name, value) {
  if (app._core.locked) throw app._core.error('HP_ERR_DEC_AFTER_READY', String(name))
  // (a field every request or reply has, or one of hotpath's own fields,
  // which an instance's own value would hide from the decorator)
  if (typeof name === 'string' ? INSTANCE_FIELDS[kind].has(name) || OWN_FIELDS[kind].has(name) : typeof name !== 'symbol') throw app._core.error('HP_ERR_DEC_ALREADY_PRESENT', String(name))
  // a plugin may declare its own value for a parent's decorator, as in
  // Fastify; its routes see it, the parent's keep theirs
  if (app._ctx[kind].has(name)) throw app._core.error('HP_ERR_DEC_ALREADY_PRESENT', String(name))
  // an object or array as the value would be one value shared by every
  // request (its prototype's): refused, as in Fastify; an accessor, or a
  // value set per request in a hook, is what a request needs
  if (typeof value === 'object' && value !== null && !isAccessor(value)) throw app._core.error('HP_ERR_DEC_REFERENCE_TYPE', String(name), typeof value)
  app._ctx[kind].set(name, value)
  return app
}

/**
 * decorate(name, value, dependencies): each dependency must be decorated
 * already, as Fastify checks it.
 * @param {Core} core
 * @param {(string | symbol)[] | undefined} dependencies
 * @param {(dep: string | symbol) => boolean} has
 * @param {string | symbol} name
 */
function requireDecorators (core, dependencies, has, name) {
  if (dependencies === undefined || dependencies === null) return
  if (!Array.isArray(dependencies)) throw core.error('HP_ERR_DEC_DEPENDENCY_INVALID_TYPE', String(name))
  for (const dep of dependencies) {
    if (!has(dep)) throw core.error('HP_ERR_DEC_MISSING_DEPENDENCY', String(dep), String(name))
  }
}

/**
 * Whether `name` may not be decorated on this instance: a member of the app
 * itself, or a decorator of this plugin scope. A parent's decorator may be
 * declared again by a plugin, which sees its own value (Fastify's rule).
 * @param {any} instance
 * @param {object} builtIns  Hotpath.prototype
 * @param {string | symbol} name
 */
function isDeclared (instance, builtIns, name) {
  for (let o = instance; o !== null; o = Object.getPrototypeOf(o)) {
    if (!Object.hasOwn(o, name)) continue
    // the built-in use() gives way to a plugin's (@fastify/middie's,
    // @fastify/express's): Fastify has none of its own
    if (o === builtIns && YIELDING_MEMBERS.has(name)) return false
    // an instance (the root or a plugin's) has its own _ctx; a class
    // prototype holds the built-in members
    return o === instance || !Object.hasOwn(o, '_ctx')
  }
  return false
}

/** @param {any} v  a decorator value given as { getter, setter } */
function isAccessor (v) {
  return v !== null && typeof v === 'object' && (typeof v.getter === 'function' || typeof v.setter === 'function')
}
