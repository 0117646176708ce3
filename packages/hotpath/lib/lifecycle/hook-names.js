// The hook names an app accepts: request hooks run per request (compiled
// into each route at ready()), app hooks at start-up and shut-down.

export const REQUEST_HOOKS = /** @type {const} */ ([
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization',
  'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort'
])
export const APP_HOOKS = /** @type {const} */ (['onRoute', 'onRegister', 'onReady', 'onListen', 'preClose', 'onClose'])

/** @typedef {typeof REQUEST_HOOKS[number]} RequestHookName */
/** @typedef {typeof APP_HOOKS[number]} AppHookName */
