// The hook names an app accepts: request hooks run per request (compiled
// into each route at ready()), app hooks at start-up and shut-down.

export const REQUEST_HOOKS = /** @type {const} */ ([
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization',
  'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort'
])
/** The request hooks in the order Fastify lists them (its lifecycleHooks): how printRoutes shows a route's hooks. */
export const LISTED_REQUEST_HOOKS = /** @type {const} */ ([
  'onTimeout', 'onRequest', 'preParsing', 'preValidation', 'preSerialization',
  'preHandler', 'onSend', 'onResponse', 'onError', 'onRequestAbort'
])
export const APP_HOOKS = /** @type {const} */ (['onRoute', 'onRegister', 'onReady', 'onListen', 'preClose', 'onClose'])

/** @typedef {typeof REQUEST_HOOKS[number]} RequestHookName */
/** @typedef {typeof APP_HOOKS[number]} AppHookName */
