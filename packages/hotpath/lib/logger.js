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
 * @param {unknown} option  false | true | pino options (with an optional `stream`) | a pino logger
 * @returns {import('pino').Logger | null}  null when logging is off
 */
export function createLogger (option) {
  if (option === undefined || option === false || option === null) return null
  if (option === true) return loadPino()({ level: 'info' })
  const opt = /** @type {any} */ (option)
  if (typeof opt.child === 'function' && typeof opt.info === 'function') return opt
  const pino = loadPino()
  const { stream, ...rest } = opt
  return stream ? pino(rest, stream) : pino(rest)
}

/** pino's levels, and 'silent' */
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/**
 * A route's or a plugin's `logLevel`: one of pino's levels, or one the app's
 * logger defines; refused at once otherwise (pino would throw at ready()).
 * @param {unknown} level
 * @param {import('pino').Logger | null} logger
 * @returns {string}
 */
export function checkLogLevel (level, logger) {
  if (typeof level === 'string' && (LEVELS.includes(level) || (logger !== null && logger.levels?.values?.[level] !== undefined))) return level
  throw createError('HP_ERR_INVALID_OPTION', 'logLevel', `expected one of ${LEVELS.join(', ')}, got ${JSON.stringify(level)}`)
}
