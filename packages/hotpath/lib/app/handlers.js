// The functions a plugin scope sets for its routes, and its children's:
// the error handler, the not-found handler (with hooks of its own), where
// request ids come from and how request loggers are made.
import { createError } from '../errors.js'
import { checkHookOption } from './hooks.js'
import { warnAsFastify } from '../fastify-warnings.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

/**
 * @param {Hotpath} app
 * @param {Function} fn
 */
export function setErrorHandler (app, fn) {
  const core = app._core
  if (typeof fn !== 'function') throw core.error('HP_ERR_ERROR_HANDLER_NOT_FN', typeof fn)
  if (core.locked) throw core.error('HP_ERR_HOOK_AFTER_READY', 'setErrorHandler', '')
  // a second handler in one context wraps the first (what it throws goes
  // there), unless allowErrorHandlerOverride is false
  if (app._ctx.errorHandlers.length > 0) {
    if (!core.allowErrorHandlerOverride) throw core.error('HP_ERR_ERROR_HANDLER_SET')
    warnAsFastify(core, 'FSTWRN004')
  }
  app._ctx.errorHandlers.push({ fn, instance: app })
  return app
}

/**
 * setNotFoundHandler(handler) or, as in Fastify,
 * setNotFoundHandler({ preValidation, preHandler }, handler).
 * @param {Hotpath} app
 * @param {any} opts
 * @param {Function} [fn]
 */
export function setNotFoundHandler (app, opts, fn) {
  if (fn === undefined && typeof opts === 'function') {
    fn = opts
    opts = {}
  }
  if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setNotFoundHandler', 'expected a function')
  if (opts === null || typeof opts !== 'object') throw createError('HP_ERR_INVALID_OPTION', 'setNotFoundHandler', 'expected an options object before the handler')
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setNotFoundHandler', '')
  /** @type {Record<string, Function | Function[]>} */
  const hooks = {}
  // Fastify's two: hooks for the not-found route only, run after the context's own
  for (const name of ['preValidation', 'preHandler']) {
    const h = opts[name]
    checkHookOption(app._core, name, h)
    if (h !== undefined && h !== null) hooks[name] = h
  }
  // and the not-found route's own error handler (Fastify's errorHandler option)
  const errorHandler = opts.errorHandler
  if (errorHandler !== undefined && errorHandler !== null && typeof errorHandler !== 'function') throw app._core.error('HP_ERR_ROUTE_ERROR_HANDLER', '*', '*')
  // One per prefix, as in Fastify: a plugin registered without a prefix
  // sets its parent's (with its own hooks), and only once.
  const level = app._ctx.notFoundLevel
  if (level.notFoundHandler !== null) throw app._core.error('HP_ERR_NOT_FOUND_HANDLER_SET', level.prefix === '' ? '/' : level.prefix)
  level.notFoundHandler = { handler: fn, hooks, errorHandler: errorHandler ?? null, ctx: app._ctx, instance: app }
  return app
}

/**
 * The request ids of this context's routes (and its children's) come
 * from fn(raw), given node:http's IncomingMessage, as Fastify's
 * setGenReqId; the requestIdHeader, when set, still comes first.
 * @param {Hotpath} app
 * @param {(raw: import('node:http').IncomingMessage) => string} fn
 */
export function setGenReqId (app, fn) {
  if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setGenReqId', 'expected a function')
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setGenReqId', '')
  app._ctx.genReqId = app._core.requestIdFrom(fn)
  return app
}

/**
 * The loggers of this context's requests are made by
 * factory(logger, bindings, options, raw), called with the route's
 * instance as `this`, as Fastify's setChildLoggerFactory: `bindings`
 * holds the request id, `options` the route's logLevel and
 * logSerializers; it returns the request's logger.
 * @param {Hotpath} app
 * @param {(this: any, logger: any, bindings: Record<string, unknown>, options: Record<string, unknown>, raw: import('node:http').IncomingMessage) => any} factory
 */
export function setChildLoggerFactory (app, factory) {
  if (typeof factory !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setChildLoggerFactory', 'expected a function')
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setChildLoggerFactory', '')
  app._ctx.childLoggerFactory = factory
  return app
}

/**
 * What a request's logger is when no childLoggerFactory is set: a child of
 * the route's logger with the request id (the request path makes it
 * without calling this).
 * @param {any} logger
 * @param {Record<string, unknown>} bindings
 * @param {Record<string, unknown>} options
 */
export function defaultChildLoggerFactory (logger, bindings, options) {
  return logger.child(bindings, options)
}
