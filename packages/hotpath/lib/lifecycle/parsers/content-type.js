// Content-Type → canonical media type ("type/subtype", lower case), or null
// when the header is not a valid media-type (RFC 9110 §8.3.1):
//   media-type = type "/" subtype parameters
//   parameters = *( OWS ";" OWS [ parameter ] ), parameter = token "=" ( token / quoted-string )
// The parser table and the validator both use this one function, so they
// cannot disagree about which parser a request gets.

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const PARAM = /^[\t ]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)=("(?:[\t !#-[\]-~\x80-\xff]|\\[\t !-~\x80-\xff])*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+)[\t ]*$/

/** Headers seen recently: most clients send one of a handful of values. */
/** @type {Map<string, string | null>} */
const cache = new Map()
const CACHE_MAX = 256

/**
 * @param {string} header
 * @returns {string | null}
 */
export function mediaType (header) {
  const hit = cache.get(header)
  if (hit !== undefined) return hit
  const result = parse(header)
  if (cache.size >= CACHE_MAX) cache.clear()
  cache.set(header, result)
  return result
}

/** @type {Map<string, string | null>} */
const normalizedCache = new Map()

/**
 * The media type with its parameters, normalized as Fastify writes a
 * Content-Type to match it against parsers: lower-case type, subtype and
 * parameter names, each value quoted ('text/html; charset="utf-8"'); null
 * when the header is not a valid media-type. Only parser tables with
 * parameters or RegExps ask for it.
 * @param {string} header
 * @returns {string | null}
 */
export function normalizedType (header) {
  const hit = normalizedCache.get(header)
  if (hit !== undefined) return hit
  const type = parse(header)
  let result = type
  if (type !== null) {
    const semi = header.indexOf(';')
    if (semi !== -1) {
      /** @type {Map<string, string>} */
      const params = new Map()
      for (const param of splitParams(header.slice(semi + 1))) {
        const m = PARAM.exec(param)
        if (m === null) continue
        let value = m[2]
        if (value.charCodeAt(0) === 34) value = value.slice(1, -1).replace(/\\([\t -~\x80-\xff])/g, '$1')
        params.set(m[1].toLowerCase(), value)
      }
      for (const [name, value] of params) result += `; ${name}="${value}"`
    }
  }
  if (normalizedCache.size >= CACHE_MAX) normalizedCache.clear()
  normalizedCache.set(header, result)
  return result
}

/** @param {string} header */
function parse (header) {
  const semi = header.indexOf(';')
  const essence = trimOWS(semi === -1 ? header : header.slice(0, semi))
  const slash = essence.indexOf('/')
  if (slash === -1) return null
  const type = essence.slice(0, slash)
  const subtype = essence.slice(slash + 1)
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null
  if (semi !== -1) {
    // Quoted strings may contain ';' — split with care.
    const rest = header.slice(semi + 1)
    for (const param of splitParams(rest)) {
      if (trimOWS(param) === '') continue
      if (!PARAM.test(param)) return null
    }
  }
  return essence.toLowerCase()
}

/** @param {string} s */
function trimOWS (s) {
  let start = 0
  let end = s.length
  while (start < end && (s.charCodeAt(start) === 32 || s.charCodeAt(start) === 9)) start++
  while (end > start && (s.charCodeAt(end - 1) === 32 || s.charCodeAt(end - 1) === 9)) end--
  return s.slice(start, end)
}

/** @param {string} s */
function splitParams (s) {
  /** @type {string[]} */
  const out = []
  let start = 0
  let quoted = false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (quoted) {
      if (c === 92) i++ // backslash escape
      else if (c === 34) quoted = false
    } else if (c === 34) {
      quoted = true
    } else if (c === 59) {
      out.push(s.slice(start, i))
      start = i + 1
    }
  }
  out.push(s.slice(start))
  return out
}
