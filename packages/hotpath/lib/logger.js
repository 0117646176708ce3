// Logging: pino when enabled; when off, a shared no-op logger so that
// `req.log.info(...)` costs a call to an empty function and nothing is
// created per request. pino is loaded only when a logger is asked for: an
// app with logging off does not carry its modules (require('pino') adds
// 8.6 MiB of RSS to a bare node 20 process).
import { loadModule } from './require.js'

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
