// node:http's checks on a header set through the compat response, and the
// errors node:http's ServerResponse throws.
import { validateHeaderName, validateHeaderValue } from '../../node-http.js'

/**
 * Header names and short values node:http's checks have passed. The
 * plugins that write through this object (helmet: a dozen headers a
 * request) set the same constant names and values on every request, and
 * the checks are a regular expression each (about 60 ns a name, 70 a
 * value); a name or value seen before costs one Set lookup. Validity does
 * not depend on anything else: the name only goes into the error message.
 * Bounded, as the wire writer's caches are: past the bound, every check runs.
 */
const checkedNames = new Set()
const checkedValues = new Set()
const CHECKED_LIMIT = 1024
/**
 * Longer values (a content security policy, 260 characters with helmet's
 * defaults, built anew on each request) are neither looked up nor kept:
 * hashing a new string costs about what checking it does.
 */
const CHECKED_VALUE_LENGTH = 128

/**
 * node:http's validateHeaderName and validateHeaderValue, thrown as
 * ServerResponse.setHeader throws them (ERR_INVALID_HTTP_TOKEN,
 * ERR_HTTP_INVALID_HEADER_VALUE, ERR_INVALID_CHAR).
 * @param {string} name
 * @param {unknown} value
 */
export function checkHeader (name, value) {
  if (!checkedNames.has(name)) {
    validateHeaderName(name)
    if (checkedNames.size < CHECKED_LIMIT) checkedNames.add(name)
  }
  if (Array.isArray(value)) {
    for (const v of value) checkValue(name, v)
  } else {
    checkValue(name, value)
  }
}

/**
 * @param {string} name
 * @param {unknown} value
 */
function checkValue (name, value) {
  const short = typeof value === 'string' && value.length <= CHECKED_VALUE_LENGTH
  if (short && checkedValues.has(value)) return
  validateHeaderValue(name, /** @type {any} */ (value))
  if (short && checkedValues.size < CHECKED_LIMIT) checkedValues.add(value)
}

/** What a later write gets when the response has ended (node:http's code and message). */
export function writeAfterEnd () {
  return Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' })
}

/** @param {string} what */
export function headersSentError (what) {
  return Object.assign(new Error(`Cannot ${what} headers after they are sent to the client`), { code: 'ERR_HTTP_HEADERS_SENT' })
}
