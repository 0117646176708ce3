// Fastify's error constructors by code (`require('fastify/lib/errors')`),
// which plugins' and applications' tests import to compare what they
// caught (`assert.throws(fn, new FST_ERR_SCH_ALREADY_PRESENT('a'))`,
// `err instanceof FST_ERR_BAD_STATUS_CODE`): the same constructors as
// `require('hotpath/fastify').errorCodes`, so an error hotpath/fastify
// raises with one of these codes is an instance of its constructor, with
// Fastify's name, code, message and status. With them, the two helpers
// Fastify's module exports beside the codes.
import { fastifyErrorCodes } from '../errors.js'

const codes = fastifyErrorCodes()

/**
 * Fastify's: `newErr` with `oldErr` as its cause.
 * @param {Error} oldErr
 * @param {Error} newErr
 */
export function appendStackTrace (oldErr, newErr) {
  newErr.cause = oldErr
  return newErr
}

/** Fastify's map of avvio's error codes to its own constructors */
export const AVVIO_ERRORS_MAP = {
  AVV_ERR_CALLBACK_NOT_FN: codes.FST_ERR_PLUGIN_CALLBACK_NOT_FN,
  AVV_ERR_PLUGIN_NOT_VALID: codes.FST_ERR_PLUGIN_NOT_VALID,
  AVV_ERR_ROOT_PLG_BOOTED: codes.FST_ERR_ROOT_PLG_BOOTED,
  AVV_ERR_PARENT_PLG_LOADED: codes.FST_ERR_PARENT_PLUGIN_BOOTED,
  AVV_ERR_READY_TIMEOUT: codes.FST_ERR_PLUGIN_TIMEOUT,
  AVV_ERR_PLUGIN_EXEC_TIMEOUT: codes.FST_ERR_PLUGIN_TIMEOUT
}

/** the module itself, as Fastify's CommonJS module is: the constructors by code, and the two helpers */
const errors = Object.assign({}, codes, { appendStackTrace, AVVIO_ERRORS_MAP })
export default errors
export { errors as 'module.exports' }
