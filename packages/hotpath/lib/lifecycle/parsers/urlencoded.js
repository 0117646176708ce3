// application/x-www-form-urlencoded bodies and query strings, parsed by
// fast-querystring into objects without a prototype. fast-querystring does
// not nest keys (`a[b]=1` stays the key "a[b]"), so depth is always one;
// the key count is bounded before parsing so a hostile string costs one
// linear scan.
import { createError } from '../../errors.js'
import { loadModule } from '../../require.js'

/** @type {typeof import('fast-querystring')} */
const qs = loadModule('fast-querystring')

const MAX_KEYS = 1000

/**
 * @param {string} str
 * @param {string} [where]
 * @returns {Record<string, string | string[]>}
 */
export function parseQuery (str, where = 'query string') {
  if (str.length === 0) return Object.create(null)
  let keys = 1
  for (let i = str.indexOf('&'); i !== -1; i = str.indexOf('&', i + 1)) {
    if (++keys > MAX_KEYS) throw createError('HP_ERR_TOO_MANY_KEYS', MAX_KEYS, where)
  }
  return /** @type {any} */ (qs.parse(str))
}

/**
 * @param {unknown} _req
 * @param {string} body
 */
export function parseUrlencoded (_req, body) {
  return parseQuery(body, 'form body')
}
