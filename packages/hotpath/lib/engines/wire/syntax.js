// The request grammar the parser checks against: character classes of
// RFC 9110 §5.5 and §5.6.2 and RFC 3986, the methods llhttp knows, and the
// field-value rules where two parsers could disagree (OWS, Connection
// options, chunk extensions). Tables are indexed by byte: the per-byte work
// of the parser is one lookup, with no allocation.

// tchar (RFC 9110 §5.6.2): method and field names.
export const TOKEN = new Uint8Array(256)
for (const c of "!#$%&'*+-.^_`|~") TOKEN[c.charCodeAt(0)] = 1
for (let i = 0x30; i <= 0x39; i++) TOKEN[i] = 1
for (let i = 0x41; i <= 0x5a; i++) TOKEN[i] = 1
for (let i = 0x61; i <= 0x7a; i++) TOKEN[i] = 1

// field-value characters (RFC 9110 §5.5): HTAB, SP, VCHAR, obs-text. No CR,
// LF, NUL or other control characters, no DEL (llhttp rejects DEL too).
export const VALUE = new Uint8Array(256)
VALUE[9] = 1
for (let i = 0x20; i <= 0x7e; i++) VALUE[i] = 1
for (let i = 0x80; i <= 0xff; i++) VALUE[i] = 1

// request-target characters: visible ASCII only. llhttp (in the lenient
// build Node ships) also lets HTAB, FF and bytes >= 0x80 through; RFC 3986
// allows none of them, so they are rejected here (docs/engines.md).
export const TARGET = new Uint8Array(256)
for (let i = 0x21; i <= 0x7e; i++) TARGET[i] = 1

export const HEX = new Int8Array(256).fill(-1)
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i
for (let i = 0; i < 6; i++) { HEX[0x41 + i] = 10 + i; HEX[0x61 + i] = 10 + i }

// The methods llhttp knows; anything else is rejected like llhttp does.
export const METHODS = new Map()
for (const m of ['ACL', 'BIND', 'CHECKOUT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK',
  'M-SEARCH', 'MERGE', 'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH',
  'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT', 'QUERY', 'REBIND', 'REPORT', 'SEARCH', 'SOURCE',
  'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE']) METHODS.set(m, m)
/**
 * The method str[from, to) names, or undefined for none llhttp knows. The
 * usual ones are compared in place (methods are case-sensitive, RFC 9110
 * §9.1): a slice and a Map lookup were an eighth of a POST head's parse.
 * @param {string} str
 * @param {number} from
 * @param {number} to
 * @returns {string | undefined}
 */
export function methodAt (str, from, to) {
  switch (to - from) {
    case 3:
      if (sameCodes(str, from, 'GET')) return 'GET'
      if (sameCodes(str, from, 'PUT')) return 'PUT'
      break
    case 4:
      if (sameCodes(str, from, 'POST')) return 'POST'
      if (sameCodes(str, from, 'HEAD')) return 'HEAD'
      break
    case 5:
      if (sameCodes(str, from, 'PATCH')) return 'PATCH'
      break
    case 6:
      if (sameCodes(str, from, 'DELETE')) return 'DELETE'
      break
    case 7:
      if (sameCodes(str, from, 'OPTIONS')) return 'OPTIONS'
      break
  }
  return METHODS.get(str.slice(from, to))
}

/**
 * @param {string} str
 * @param {number} from
 * @param {string} literal
 */
function sameCodes (str, from, literal) {
  for (let i = 0; i < literal.length; i++) {
    if (str.charCodeAt(from + i) !== literal.charCodeAt(i)) return false
  }
  return true
}

// Every prefix of a method: a head that cannot become a request is
// rejected as soon as its first bytes arrive, as llhttp does.
export const METHOD_PREFIXES = new Set()
for (const m of METHODS.keys()) for (let i = 1; i <= m.length; i++) METHOD_PREFIXES.add(m.slice(0, i))

/**
 * s without leading and trailing OWS. OWS is SP and HTAB only (RFC 9110
 * §5.6.3); String#trim also strips NBSP (0xA0), which is obs-text, so
 * "\xa0chunked" would pass for "chunked" where llhttp sees an unknown coding.
 * @param {string} s
 */
export function trimOws (s) {
  let start = 0
  let end = s.length
  let c
  while (start < end && ((c = s.charCodeAt(start)) === 32 || c === 9)) start++
  while (end > start && ((c = s.charCodeAt(end - 1)) === 32 || c === 9)) end--
  return start === 0 && end === s.length ? s : s.slice(start, end)
}

export const CONN_CLOSE = 1
export const CONN_KEEP_ALIVE = 2
export const CONN_UPGRADE = 4

/**
 * The connection options of one Connection field (RFC 9112 §9.3, §9.6) as
 * CONN_* bits. Options are split on "," and stripped of SP/HTAB only: both
 * are OWS around a list member (RFC 9110 §5.6.1), so "close<HTAB>" closes
 * and "keep-alive<HTAB>" keeps an HTTP/1.0 connection, as llhttp 9.4 (Node
 * 22 and later) reads them; NBSP is not OWS.
 * @param {string} value  stripped of SP/HTAB at both ends
 */
export function connectionFlags (value) {
  const lower = value.toLowerCase()
  // the common single option without a split
  if (lower === 'close') return CONN_CLOSE
  if (lower === 'keep-alive') return CONN_KEEP_ALIVE
  const options = lower.split(',')
  let flags = 0
  for (let i = 0; i < options.length; i++) {
    const t = trimOws(options[i])
    if (t === 'close') flags |= CONN_CLOSE
    else if (t === 'upgrade') flags |= CONN_UPGRADE
    else if (t === 'keep-alive') flags |= CONN_KEEP_ALIVE
  }
  return flags
}

/**
 * chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
 * chunk-ext-val = token / quoted-string (RFC 9112 §7.1.1). The optional
 * whitespace (BWS) is not accepted: llhttp rejects it too, and a parser
 * that skips it where another does not is a smuggling vector.
 * @param {string} s
 */
export function validChunkExt (s) {
  return CHUNK_EXT.test(s)
}
const CHUNK_EXT = /^(?:;[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:=(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+|"(?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*"))?)+$/

// The field names the parser acts on (framing, Host, Connection, Expect),
// as codes for framingField().
export const F_OTHER = 0
export const F_CONTENT_LENGTH = 1
export const F_TRANSFER_ENCODING = 2
export const F_HOST = 3
export const F_CONNECTION = 4
export const F_UPGRADE = 5
export const F_EXPECT = 6

/**
 * Which framing field str[from, to) names, compared without regard to case
 * (RFC 9110 §5.1) code by code: no slice, no lower-case copy, no hash of a
 * fresh string per field line (a Map lookup of the name was a fifth of the
 * head's parse time for a pipelined GET). The name is already checked to be
 * a token, so `| 0x20` folds only letters: a token has no CR, the one byte
 * that would fold onto "-".
 * @param {string} str
 * @param {number} from
 * @param {number} to
 */
export function framingField (str, from, to) {
  switch (to - from) {
    case 4: return sameName(str, from, 'host') ? F_HOST : F_OTHER
    case 6: return sameName(str, from, 'expect') ? F_EXPECT : F_OTHER
    case 7: return sameName(str, from, 'upgrade') ? F_UPGRADE : F_OTHER
    case 10: return sameName(str, from, 'connection') ? F_CONNECTION : F_OTHER
    case 14: return sameName(str, from, 'content-length') ? F_CONTENT_LENGTH : F_OTHER
    case 17: return sameName(str, from, 'transfer-encoding') ? F_TRANSFER_ENCODING : F_OTHER
    default: return F_OTHER
  }
}

/**
 * @param {string} str
 * @param {number} from
 * @param {string} lower  the name in lower case
 */
function sameName (str, from, lower) {
  for (let i = 0; i < lower.length; i++) {
    if ((str.charCodeAt(from + i) | 0x20) !== lower.charCodeAt(i)) return false
  }
  return true
}
