// Request field names: the lower-case form of the common spellings, and the
// headers object built from rawHeaders by node:http's rules, so that
// raw.headers means the same on every engine.

// Exact spellings of common field names → their lower-case form, so the
// usual headers cost a Map lookup instead of a toLowerCase allocation.
export const LOWER = new Map()
for (const n of ['host', 'user-agent', 'accept', 'accept-encoding', 'accept-language', 'connection',
  'content-type', 'content-length', 'transfer-encoding', 'cookie', 'authorization', 'referer',
  'origin', 'cache-control', 'pragma', 'upgrade', 'expect', 'if-none-match', 'if-modified-since',
  'x-forwarded-for', 'x-forwarded-proto', 'x-request-id', 'keep-alive', 'te', 'range']) {
  LOWER.set(n, n)
  LOWER.set(n.replace(/(^|-)[a-z]/g, (s) => s.toUpperCase()), n)
  LOWER.set(n.toUpperCase(), n)
}

// Field names whose duplicates node:http drops (first one wins); set-cookie
// becomes an array and cookie is joined with '; '. Kept identical so that
// raw.headers means the same on both engines (../engine.js, RawRequest).
const FIRST_WINS = new Set(['content-type', 'content-length', 'user-agent', 'referer', 'host',
  'authorization', 'proxy-authorization', 'if-modified-since', 'if-unmodified-since', 'from',
  'location', 'max-forwards', 'retry-after', 'etag', 'last-modified', 'server', 'age', 'expires'])

/**
 * The headers object of a request, from its rawHeaders, by node:http's
 * IncomingMessage.headers rules (lower-case names, duplicates dropped,
 * joined or collected as node:http does).
 * @param {string[]} raw  name, value, name, value…
 * @returns {Record<string, any>}
 */
export function headersFromRaw (raw) {
  /** @type {Record<string, any>} */
  const headers = {}
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]
    addHeader(headers, LOWER.get(name) ?? name.toLowerCase(), raw[i + 1])
  }
  return headers
}

/**
 * node:http's IncomingMessage.headers rules.
 * @param {Record<string, any>} headers
 * @param {string} name  lower-case
 * @param {string} value
 */
function addHeader (headers, name, value) {
  const prev = headers[name]
  if (prev === undefined || !Object.hasOwn(headers, name)) {
    if (name === '__proto__') {
      Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true })
    } else {
      headers[name] = name === 'set-cookie' ? [value] : value
    }
  } else if (name === 'set-cookie') {
    prev.push(value)
  } else if (name === 'cookie') {
    headers[name] = prev + '; ' + value
  } else if (!FIRST_WINS.has(name)) {
    headers[name] = prev + ', ' + value
  }
}
