// light-my-request's options turned into a request head, as it turns them:
// the URL resolved against http://localhost (a path without its leading
// slash, an object with pathname and query), `query` merged into the URL's
// own, header values as Node's HTTP server aggregates repeated lines, the
// default User-Agent and Host (`authority`, else the URL's host), and
// `cookies` encoded onto the Cookie header. Also the check of the options
// light-my-request refuses. Runs per inject() call only.
import assert from 'node:assert'
import { METHODS } from '../../node-http.js'

const BASE_URL = 'http://localhost'

/**
 * The fields Node's HTTP server keeps the first value of when a request
 * repeats them (IncomingMessage's `headers`).
 */
const SINGLE_VALUE = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag',
  'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since',
  'last-modified', 'location', 'max-forwards', 'proxy-authorization',
  'referer', 'retry-after', 'server', 'user-agent'
])

/**
 * @typedef {object} RequestHead
 * @property {string} method
 * @property {string} url  path and query
 * @property {Record<string, any>} headers  as IncomingMessage's (a value may be undefined: a user-agent or content-type given as undefined)
 * @property {Map<string, string[]>} lines  the values of each header given as an array, one a line
 */

/**
 * @param {Record<string, any>} opts
 * @returns {RequestHead}
 */
export function requestHead (opts) {
  const parsed = parseURL(opts.url || opts.path, opts.query)
  const method = opts.method ? String(opts.method).toUpperCase() : 'GET'
  /** @type {Record<string, any>} */
  const headers = {}
  /** @type {Map<string, string[]>} the lines of a header given as an array */
  const lines = new Map()
  const given = opts.headers || {}
  for (const field in given) {
    const name = field.toLowerCase()
    const value = given[field]
    if ((name === 'user-agent' || name === 'content-type') && value === undefined) {
      headers[name] = undefined
      continue
    }
    if (Array.isArray(value)) {
      const values = value.map((item) => {
        assert(item !== undefined, 'invalid value "undefined" for header ' + field)
        return '' + item
      })
      lines.set(name, values)
      headers[name] = name === 'set-cookie' ? values : SINGLE_VALUE.has(name) ? values[0] : values.join(name === 'cookie' ? '; ' : ', ')
      continue
    }
    assert(value !== undefined, 'invalid value "undefined" for header ' + field)
    headers[name] = '' + value
  }
  if (!('user-agent' in headers)) headers['user-agent'] = 'lightMyRequest'
  headers.host = headers.host || (opts.authority ? String(opts.authority) : null) || (parsed.port ? parsed.host : parsed.hostname + (parsed.protocol === 'https:' ? ':443' : ':80'))
  if (opts.cookies) {
    const pairs = encodeCookies(opts.cookies, parsed.pathname)
    if (headers.cookie) pairs.unshift(headers.cookie)
    headers.cookie = pairs.join('; ')
    lines.delete('cookie')
  }
  return { method, url: parsed.pathname + parsed.search, headers, lines }
}

/**
 * The raw lines of the head as it stands: one a value given in an array.
 * @param {Record<string, any>} headers
 * @param {Map<string, string[]>} lines
 */
export function rawLines (headers, lines) {
  /** @type {any[]} */
  const out = []
  for (const name of Object.keys(headers)) {
    const values = lines.get(name)
    if (values === undefined) out.push(name, headers[name])
    else for (const v of values) out.push(name, v)
  }
  return out
}

/**
 * The request URL: a string resolved against http://localhost ('q' is
 * '/q', '//x' a path), or an object's fields assigned onto that URL; then
 * `query` (an object: its keys replace the URL's; a string: its keys
 * replace the URL's, repeated ones kept) and an object URL's own `query`.
 * @param {any} url
 * @param {any} query
 */
function parseURL (url, query) {
  if (url === null || url === undefined) url = ''
  if (query !== null && query !== undefined && typeof query !== 'object') query = String(query)
  if ((typeof url === 'string' || url instanceof String) && url.startsWith('//')) url = BASE_URL + url
  const result = typeof url === 'object' && !(url instanceof String) ? Object.assign(new URL(BASE_URL), url, { pathname: String(url.pathname ?? '/') }) : new URL(String(url), BASE_URL)
  if (typeof query === 'string') {
    const params = new URLSearchParams(query)
    for (const key of params.keys()) {
      result.searchParams.delete(key)
      for (const value of params.getAll(key)) result.searchParams.append(key, value)
    }
    return result
  }
  const merged = Object.assign({}, url.query, query)
  for (const key in merged) {
    const value = merged[key]
    if (Array.isArray(value)) {
      result.searchParams.delete(key)
      for (const item of value) result.searchParams.append(key, item)
    } else {
      result.searchParams.set(key, value)
    }
  }
  return result
}

/** A cookie value's characters that are sent URL-encoded (RFC 6265 cookie-octet) */
const COOKIE_OCTET_INVALID = /[\u0000-\u0020\u007F-\uFFFF",;\\%]/ // eslint-disable-line no-control-regex
const COOKIE_NAME = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/

/**
 * `cookies` as Cookie pairs: an object of values (or of { name, value,
 * path }), or an array of { name, value, path }; a cookie whose path does
 * not match the request's is left out (RFC 6265 §5.1.4).
 * @param {any} cookies
 * @param {string} requestPath
 * @returns {string[]}
 */
function encodeCookies (cookies, requestPath) {
  /** @type {{ name: string, value: any, path?: string }[]} */
  const list = Array.isArray(cookies)
    ? cookies
    : Object.keys(cookies).map((name) => {
      const item = cookies[name]
      return item !== null && typeof item === 'object' ? { name: item.name || name, value: item.value, path: item.path } : { name, value: item }
    })
  /** @type {string[]} */
  const out = []
  for (const { name, value, path } of list) {
    if (!pathMatches(path, requestPath)) continue
    if (!COOKIE_NAME.test(name)) throw new TypeError(`cookie name is invalid: ${name}`)
    const text = value === null || value === undefined ? '' : String(value)
    out.push(name + '=' + (COOKIE_OCTET_INVALID.test(text) ? encodeURIComponent(text) : text))
  }
  return out
}

/**
 * @param {string | undefined} cookiePath
 * @param {string} requestPath
 */
function pathMatches (cookiePath, requestPath) {
  const path = cookiePath || '/'
  if (requestPath === path) return true
  if (!requestPath.startsWith(path)) return false
  return path.endsWith('/') || requestPath.charAt(path.length) === '/'
}

// ── the options light-my-request refuses ─────────────────────────────

/** the methods Node.js parses, in upper or lower case */
const METHOD_NAMES = new Set([...METHODS, ...METHODS.map((m) => m.toLowerCase())])

/** @param {unknown} v */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * Where a string is asked for, a number, a boolean or null is taken as
 * its string, as light-my-request's validator coerces it.
 * @param {unknown} v
 */
const isScalar = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)

/** @param {unknown} v  a boolean, or what the validator coerces to one */
const isBooleanLike = (v) => v === undefined || v === null || typeof v === 'boolean' || v === 'true' || v === 'false' || v === 1 || v === 0

/**
 * What is wrong with inject()'s options, as light-my-request checks them
 * (unless `validate: false`): the option and why, or null.
 * @param {Record<string, any>} opts
 * @returns {[string, string] | null}
 */
export function invalidOption (opts) {
  if (opts.validate === false) return null
  const { method } = opts
  if (method !== undefined && (typeof method !== 'string' || !METHOD_NAMES.has(method))) return ['method', `${JSON.stringify(method)} is not a method Node.js parses`]
  if (('url' in opts && opts.url !== undefined) === ('path' in opts && opts.path !== undefined)) return ['url', 'one of url or path is required']
  const url = opts.url !== undefined ? opts.url : opts.path
  if (!isScalar(url) && !(isObject(url) && url.pathname !== undefined && ['protocol', 'hostname', 'pathname'].every((k) => url[k] === undefined || isScalar(url[k])))) return ['url', 'a string, or an object with a pathname']
  if (opts.headers !== undefined && !isObject(opts.headers)) return ['headers', 'an object']
  if (opts.query !== undefined && !isScalar(opts.query) && !isObject(opts.query)) return ['query', 'an object or a string']
  if (opts.cookies !== undefined && !isObject(opts.cookies) && !(Array.isArray(opts.cookies) && opts.cookies.every((c) => isObject(c) && isScalar(c.name) && isScalar(c.value)))) return ['cookies', 'an object, or an array of { name, value }']
  if (opts.simulate !== undefined && !(isObject(opts.simulate) && ['end', 'split', 'error', 'close'].every((k) => isBooleanLike(opts.simulate[k])))) return ['simulate', 'an object of booleans (end, split, error, close)']
  for (const name of ['authority', 'remoteAddress']) {
    if (opts[name] !== undefined && !isScalar(opts[name])) return [name, 'a string']
  }
  return null
}
