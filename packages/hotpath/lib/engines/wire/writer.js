// Builds response heads (RFC 9112 §4, RFC 9110 §6.6). A head is one string
// of characters up to 0xFF (node:http's rule for values: tab, visible ASCII
// and obs-text), written as latin1 (./output.js); an ASCII body is joined to
// it, which is what makes a small response one string and one syscall.

import { STATUS_CODES } from '../../node-http.js'
import { reasonPhrase, refuseBadReason } from '../../status.js'

/** @type {string[]} */
const STATUS_LINE = []
for (const code of Object.keys(STATUS_CODES)) {
  STATUS_LINE[Number(code)] = `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\n`
}

/** @param {number} status */
export function statusLine (status) {
  const line = STATUS_LINE[status]
  if (line !== undefined) return line
  if (!Number.isInteger(status) || status < 100 || status > 999) {
    throw Object.assign(new RangeError(`Invalid status code: ${status}`), { code: 'ERR_HTTP_INVALID_STATUS_CODE' })
  }
  // node:http's phrase for a code it has no name for
  return `HTTP/1.1 ${status} unknown\r\n`
}

/**
 * The status line of a response whose node:http object the app touched:
 * the reason phrase it set there (`statusMessage`, `writeHead(code, msg)`)
 * goes out, as on node:http; one with CR, LF or another control is refused
 * as node refuses it. A phrase with obs-text goes out as its latin1
 * bytes, as node writes it.
 * @param {number} status
 * @param {{ statusMessage?: unknown }} compat
 */
export function compatStatusLine (status, compat) {
  const line = statusLine(status)
  refuseBadReason(compat)
  const own = compat.statusMessage
  if (own === undefined || own === STATUS_CODES[status]) return line
  return `HTTP/1.1 ${status} ${reasonPhrase(status, own)}\r\n`
}

const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// Response-splitting guard: CR, LF, NUL and other controls never reach the wire.
const NOT_LATIN1_VALUE = /[^\t\x20-\x7e\x80-\xff]/

/** Names already checked, so a route's constant header names cost one Set lookup. */
const goodNames = new Set()

/** @param {string} name */
function isGoodName (name) {
  if (goodNames.has(name)) return true
  if (!TOKEN_RE.test(name)) return false
  if (goodNames.size < 4096) goodNames.add(name)
  return true
}

/** @param {string} name */
function checkName (name) {
  if (!isGoodName(name)) {
    throw Object.assign(new TypeError(`Invalid header name: ${JSON.stringify(name)}`), { code: 'ERR_INVALID_HTTP_TOKEN' })
  }
}

/**
 * The lines of short values already checked (a route's constant
 * Content-Type, say), by name then value: two Map lookups on strings whose
 * hash V8 keeps, instead of a regex run and three concatenations. The line
 * is one flat string: a head of fewer pieces is cheaper to join and write
 * (a pipelined read's ten heads are flattened into one socket write).
 * A name whose values keep changing (a rate limit's remaining count, a
 * request id) is marked null after VALUES_PER_NAME of them: its values are
 * then neither hashed nor kept.
 * @type {Map<string, Map<string, string> | null>}
 */
const goodLines = new Map()
const NAMES_KEPT = 256
const VALUES_PER_NAME = 16
// a longer value is not looked up: hashing a string made for this response
// (helmet's policy of 260 characters) costs about the check
const SHORT_VALUE = 128

/**
 * @param {string} name
 * @param {string} value
 */
function checkValue (name, value) {
  if (NOT_LATIN1_VALUE.test(value)) {
    throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' })
  }
}

/**
 * The line of a string value, from goodLines when it was seen before.
 * @param {string} name  checked
 * @param {string} value
 */
function stringLine (name, value) {
  const line = checkedLine(name, value)
  if (line === null) checkValue(name, value)
  return /** @type {string} */ (line)
}

/**
 * stringLine's line, or null for a value node's rule refuses.
 * @param {string} name  checked
 * @param {string} value
 * @returns {string | null}
 */
function checkedLine (name, value) {
  const byValue = value.length > SHORT_VALUE ? null : goodLines.get(name)
  if (byValue !== null && byValue !== undefined) {
    const known = byValue.get(value)
    if (known !== undefined) return known
  }
  if (NOT_LATIN1_VALUE.test(value)) return null
  if (byValue === null) return name + ': ' + value + '\r\n'
  // join makes the line flat at once (a + b + c would be a rope)
  const line = [name, ': ', value, '\r\n'].join('')
  if (byValue === undefined) {
    if (goodLines.size < NAMES_KEPT) goodLines.set(name, new Map([[value, line]]))
  } else if (byValue.size < VALUES_PER_NAME) {
    byValue.set(value, line)
  } else {
    goodLines.set(name, null)
  }
  return line
}

/** 'content-length: N\r\n' for the small lengths, made flat on first use */
const LENGTH_LINES = new Array(4096).fill('')

/**
 * The Content-Length line of a response.
 * @param {number} length
 */
export function lengthLine (length) {
  if (length >= LENGTH_LINES.length) return 'content-length: ' + length + '\r\n'
  let line = LENGTH_LINES[length]
  if (line === '') LENGTH_LINES[length] = line = ['content-length: ', length, '\r\n'].join('')
  return line
}

/** The head's end on a connection that closes after this response. */
export const CLOSE_LINES = 'Connection: close\r\n\r\n'

/** What buildHead learned about the headers it was given. */
export const headInfo = {
  /** the caller gave a Content-Length */
  length: -1,
  /** the caller asked for Connection: close */
  close: false,
  /** the caller gave Transfer-Encoding */
  te: false,
  /** the caller gave a Date (a proxy passing the upstream's on): the engine adds none */
  date: false
}

/**
 * Header lines for `headers` (and `extra`, set through the compat object,
 * overridden by `headers`), skipping the ones the engine owns.
 * @param {Record<string, string | number | string[]>} headers
 * @param {Record<string, [string, string | number | string[]]> | null} extra
 */
export function headerLines (headers, extra) {
  headInfo.length = -1
  headInfo.close = false
  headInfo.te = false
  headInfo.date = false
  let out = ''
  if (extra !== null) {
    // node's header table of the compat object: lower-case name → [name,
    // value]; the core keeps its names in lower case too, so one lookup
    // tells whether the core overrides it
    for (const name in extra) {
      if (headers[name] === undefined) out += line(name, extra[name][1])
    }
  }
  for (const name in headers) out += line(name, headers[name])
  return out
}

/**
 * @param {string} name
 * @param {string | number | string[] | undefined} value
 */
function line (name, value) {
  if (value === undefined) return ''
  checkName(name)
  const lname = name === 'content-length' ? name : name.length === 14 || name.length === 10 || name.length === 17 || name.length === 4 ? name.toLowerCase() : ''
  if (lname === 'content-length') {
    const n = Number(value)
    if (!Number.isSafeInteger(n) || n < 0) {
      throw Object.assign(new TypeError(`Invalid Content-Length: ${String(value)}`), { code: 'ERR_INVALID_CHAR' })
    }
    headInfo.length = n
    return ''
  }
  if (lname === 'connection') {
    if (/\bclose\b/i.test(String(value))) headInfo.close = true
    return ''
  }
  if (lname === 'transfer-encoding') {
    headInfo.te = true
    return ''
  }
  // sent once, as node:http sends a Date the response set (RFC 9110 §6.6.1)
  if (lname === 'date') headInfo.date = true
  if (typeof value === 'string') return stringLine(name, value)
  if (typeof value === 'number') return name + ': ' + value + '\r\n'
  if (Array.isArray(value)) {
    let out = ''
    for (const v of value) {
      const s = String(v)
      checkValue(name, s)
      out += name + ': ' + s + '\r\n'
    }
    return out
  }
  const s = String(value)
  checkValue(name, s)
  return name + ': ' + s + '\r\n'
}

/**
 * The lines of one header as node:http's writeHead() writes them (one a
 * value of a list), every name and value checked by its rule; null for
 * one it refuses (the node engine then lets writeHead() throw its own
 * error: ../node/head.js).
 * @param {string} name
 * @param {string | number | Array<string | number>} value
 * @returns {string | null}
 */
export function valueLines (name, value) {
  if (!isGoodName(name)) return null
  if (typeof value === 'string') return checkedLine(name, value)
  if (typeof value === 'number') return name + ': ' + value + '\r\n'
  if (!Array.isArray(value)) return null
  let out = ''
  for (let i = 0; i < value.length; i++) {
    const v = value[i]
    if (v === undefined || v === null || (typeof v !== 'string' && typeof v !== 'number')) return null
    const s = String(v)
    if (NOT_LATIN1_VALUE.test(s)) return null
    out += name + ': ' + s + '\r\n'
  }
  return out
}

/** @param {number} status */
export function statusHasNoBody (status) {
  return status === 204 || status === 304 || (status >= 100 && status < 200)
}

/**
 * A complete error response written by the engine itself (parse errors,
 * timeouts), always with Connection: close. The status and body come from
 * the error table (../../reply/error-body.js).
 * @param {{ status: number, body: string }} answer
 * @param {string} dateLine
 * @returns {string | Buffer}  a string goes out as latin1 (./output.js): a body outside ASCII as its UTF-8 bytes
 */
export function errorResponse (answer, dateLine) {
  const length = Buffer.byteLength(answer.body)
  const text = statusLine(answer.status) +
    'content-type: application/json; charset=utf-8\r\n' +
    'content-length: ' + length + '\r\n' +
    dateLine +
    'Connection: close\r\n\r\n' + answer.body
  return length === answer.body.length ? text : Buffer.from(text)
}
