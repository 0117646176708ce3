// Logging: pino when enabled; when off, a shared no-op logger so that
// `req.log.info(...)` costs a call to an empty function and nothing is
// created per request. pino is loaded only when a logger is asked for: an
// app with logging off does not carry its modules (require('pino') adds
// 8.6 MiB of RSS to a bare node 20 process).
import { loadModule } from './require.js'
import { createError } from './errors.js'

/** @returns {typeof import('pino').default} */
function loadPino () {
  return loadModule('pino')
}

function noop () {}

/** @type {any} */
const noopLogger = {
  level: 'silent',
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  silent: noop,
  child () { return noopLogger },
  isLevelEnabled () { return false }
}

/** @type {import('pino').Logger} */
export const NOOP_LOGGER = noopLogger

/**
 * Fastify's serializers for the objects its request lines carry: `req`,
 * the request (method, url, version, host, address, port), and `res`, the
 * reply (its status code). A serializer of the app's own wins.
 * @type {Record<string, (value: any) => unknown>}
 */
export const FASTIFY_SERIALIZERS = {
  req: (req) => ({
    method: req.method,
    url: req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort
  }),
  res: (reply) => ({ statusCode: reply.statusCode })
}

/** The methods a logger made elsewhere must have (Fastify's list). */
export const LOGGER_METHODS = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child']

/**
 * The logger methods a value lacks: none for a logger made elsewhere
 * (pino's, or one with its methods), all of them for options.
 * @param {unknown} value
 * @returns {string[]}
 */
export function missingLoggerMethods (value) {
  const v = /** @type {any} */ (value)
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return LOGGER_METHODS
  return LOGGER_METHODS.filter((m) => typeof v[m] !== 'function')
}

/**
 * Whether a value is a logger made elsewhere rather than options for one.
 * @param {unknown} value
 */
function isLogger (value) {
  const v = /** @type {any} */ (value)
  return v !== null && typeof v === 'object' && typeof v.child === 'function' && typeof v.info === 'function'
}

/**
 * @param {unknown} option  false | true | pino options (with an optional `stream`, or `file` to write to) | a pino logger
 * @param {Record<string, (value: any) => unknown> | null} [serializers]  defaults under the app's own
 * @returns {import('pino').Logger | null}  null when logging is off
 */
export function createLogger (option, serializers = null) {
  if (option === undefined || option === false || option === null) return null
  const opt = /** @type {any} */ (option === true ? { level: 'info' } : option)
  if (isLogger(opt)) {
    // a logger made elsewhere: a child of it carries the defaults, its own winning
    if (serializers === null) return opt
    const own = opt[loadPino().symbols.serializersSym] ?? {}
    return opt.child({}, { serializers: { ...serializers, ...own } })
  }
  const pino = loadPino()
  const { stream, file, ...rest } = opt
  // Fastify's `file`: the lines go to that file (pino's destination)
  if (stream && file) throw createError('HP_ERR_INVALID_OPTION', 'logger', 'give stream or file, not both')
  if (serializers !== null) rest.serializers = { ...serializers, ...rest.serializers }
  const destination = file ? pino.destination(file) : stream
  return destination ? pino(rest, destination) : pino(rest)
}

/**
 * A route's or a plugin's `logSerializers` (Fastify's): pino serializers by
 * key, for the lines its requests log.
 * @param {unknown} serializers
 * @returns {Record<string, (value: any) => any>}
 */
export function checkLogSerializers (serializers) {
  if (serializers === null || typeof serializers !== 'object' || Object.values(serializers).some((f) => typeof f !== 'function')) {
    throw createError('HP_ERR_INVALID_OPTION', 'logSerializers', 'expected an object of functions')
  }
  return /** @type {Record<string, (value: any) => any>} */ (serializers)
}

/** pino's levels, and 'silent' */
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/**
 * Whether `level` is one of pino's levels, or one the app's logger defines.
 * @param {unknown} level
 * @param {import('pino').Logger | null} logger
 */
export function isLogLevel (level, logger) {
  return typeof level === 'string' && (LEVELS.includes(level) || (logger !== null && logger.levels?.values?.[level] !== undefined))
}

/**
 * A route's or a plugin's `logLevel`: one of pino's levels, or one the app's
 * logger defines; refused at once otherwise (pino would throw at ready()).
 * @param {unknown} level
 * @param {import('pino').Logger | null} logger
 * @returns {string}
 */
export function checkLogLevel (level, logger) {
  if (isLogLevel(level, logger)) return /** @type {string} */ (level)
  throw createError('HP_ERR_INVALID_OPTION', 'logLevel', `expected one of ${LEVELS.join(', ')}, got ${JSON.stringify(level)}`)
}
