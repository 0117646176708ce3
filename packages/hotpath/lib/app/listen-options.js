// listen()'s options, checked before anything opens: node:net reads a
// wrong type in some of them as something else (a string `ipv6Only` is
// true, a negative `fd` asks for a port, a string `backlog` is dropped), or
// fails with a message about its own arguments. A wrong one is refused with
// the option's name (HP_ERR_INVALID_LISTEN_OPTION; Fastify's
// FST_ERR_LISTEN_OPTIONS_INVALID under hotpath/fastify). A wrong port is
// left to node:net, whose ERR_SOCKET_BAD_PORT says it well and is what
// Fastify's listen() rejects with.

const FLAGS = ['exclusive', 'ipv6Only', 'readableAll', 'writableAll']

/**
 * A count given as a number or a string of one (`process.env.BACKLOG`).
 * @param {unknown} value
 */
function isCount (value) {
  if (typeof value === 'string') {
    if (value.trim() === '') return false
    value = Number(value)
  }
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

/**
 * Why listen() cannot use `opts`, or null. `signal` is checked by listen()
 * itself, at the call, as Fastify does.
 * @param {unknown} opts
 * @returns {string | null}
 */
export function invalidListenOption (opts) {
  if (opts === null || typeof opts !== 'object') return `options must be an object, as in listen({ port: 3000 }); got ${opts === null ? 'null' : typeof opts}`
  const o = /** @type {Record<string, unknown>} */ (opts)
  if (o.host != null && typeof o.host !== 'string') return `options.host must be a string; got ${show(o.host)}`
  if (o.path != null && (typeof o.path !== 'string' || o.path === '')) return `options.path must be a non-empty string; got ${show(o.path)}`
  if (o.fd != null && !(typeof o.fd === 'number' && Number.isInteger(o.fd) && o.fd >= 0)) return `options.fd must be an open file descriptor (an integer, 0 or more); got ${show(o.fd)}`
  if (o.backlog != null && !isCount(o.backlog)) return `options.backlog must be an integer, 0 or more; got ${show(o.backlog)}`
  for (const name of FLAGS) {
    if (o[name] != null && typeof o[name] !== 'boolean') return `options.${name} must be true or false; got ${show(o[name])}`
  }
  if (o.listenTextResolver != null && typeof o.listenTextResolver !== 'function') return `options.listenTextResolver must be a function; got ${show(o.listenTextResolver)}`
  return null
}

/** @param {unknown} value */
function show (value) {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object'
  return String(value)
}
