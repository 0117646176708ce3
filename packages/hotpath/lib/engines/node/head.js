// The node engine's response head, built as node:http's writeHead() builds
// it, from lines already checked. writeHead() checks every name and value
// by a regular expression, and joins each line, on every response: a
// hand-written node:http server answering a small JSON took about 8 % less
// CPU a request with its head stored ready-made (Node 20; 4 % on Node 26,
// which caches more of it; wrk, pinned), and hotpath's respond() alone went
// from 628 to 363 ns (docs/benchmarks.md). Here a route's constant lines
// come from the wire writer's caches (../wire/writer.js), and the result is
// the head node would have made, byte for byte, for the common response: a
// status with a body, a Content-Length, on a connection kept alive.
// Anything else (a header node:http treats specially, a value it would
// refuse or write another way, a response someone wrapped) gets null, and
// node's own writeHead() (./response.js).
import { STATUS_CODES, ServerResponse } from '../../node-http.js'
import { statusLine, valueLines } from '../wire/writer.js'
import { kUniqueHeaders } from '../compat/node-state.js'

// node's own methods: an instrumentation or a middleware (on-headers:
// compression, morgan, express-session; an APM) that wraps writeHead on the
// object or the prototype must see the head go through it. One wrapped on
// the prototype before this module loaded (an APM preloaded with -r) is
// told by its source, which is not node's: then every head goes through it.
/** @param {unknown} fn @param {string} signature  how node's own begins */
const ifNodesOwn = (fn, signature) => typeof fn === 'function' && Function.prototype.toString.call(fn).startsWith(signature) ? fn : null
const nodeWriteHead = ifNodesOwn(ServerResponse.prototype.writeHead, 'function writeHead(statusCode, reason, obj)')
const nodeStoreHeader = ifNodesOwn(/** @type {any} */ (ServerResponse.prototype)._storeHeader, 'function _storeHeader(firstLine, headers)')

/**
 * Names node:http's _storeHeader() acts on (matchHeader), or writes in
 * another way (processHeader: a Content-Disposition as latin1 bytes once
 * the length is known, a Cookie list joined): a response that sets one
 * gets node's own writeHead(). Names are compared in lower case.
 */
const SPECIAL = new Set(['connection', 'transfer-encoding', 'date', 'expect', 'trailer', 'keep-alive', 'content-disposition', 'cookie'])

/**
 * What each header name is, found once: 0 an ordinary name, 1 the
 * Content-Length, 2 one of SPECIAL. Bounded as the writer's caches are.
 * @type {Map<string, number>}
 */
const nameKinds = new Map()
const NAMES_KEPT = 1024

/** @param {string} name */
function kindOf (name) {
  let kind = nameKinds.get(name)
  if (kind !== undefined) return kind
  const lower = name.toLowerCase()
  kind = lower === 'content-length' ? 1 : SPECIAL.has(lower) ? 2 : 0
  if (nameKinds.size < NAMES_KEPT) nameKinds.set(name, kind)
  return kind
}

// node's Date line (internal/http's utcDate), made once a second
let dateLine = ''
function resetDate () { dateLine = '' }
function currentDateLine () {
  if (dateLine === '') {
    const now = new Date()
    dateLine = 'Date: ' + now.toUTCString() + '\r\n'
    setTimeout(resetDate, 1000 - now.getMilliseconds()).unref()
  }
  return dateLine
}

// The keep-alive lines of the last server asked for (every response of a
// server has the same)
let keepAliveTimeout = -1
let keepAliveMax = -1
let keepAliveLines = ''

/**
 * @param {number} timeout  the server's keepAliveTimeout, ms
 * @param {number} max  the server's maxRequestsPerSocket
 */
function keepAliveLinesFor (timeout, max) {
  if (timeout !== keepAliveTimeout || max !== keepAliveMax) {
    keepAliveTimeout = timeout
    keepAliveMax = max
    keepAliveLines = 'Connection: keep-alive\r\nKeep-Alive: timeout=' + Math.floor(timeout / 1000) +
      (max > 0 ? ', max=' + max : '') + '\r\n'
  }
  return keepAliveLines
}

/**
 * The head node:http's writeHead(statusCode, headers) would store on `res`,
 * or null where this response must go through writeHead() itself.
 * @param {any} res  a ServerResponse with no head yet and no header set on it
 * @param {number} statusCode
 * @param {Record<string, any>} headers
 * @returns {string | null}
 */
export function ownHead (res, statusCode, headers) {
  // what writeHead() and _storeHeader() would read or change: a status
  // without a body, a reason phrase of the app's, a response kept from
  // keep-alive, node's options that change how lines are written
  if (statusCode < 200 || statusCode === 204 || statusCode === 304 || STATUS_CODES[statusCode] === undefined) return null
  if (res.statusMessage && res.statusMessage !== STATUS_CODES[statusCode]) return null
  if (!res.shouldKeepAlive || res.maxRequestsOnConnectionReached || res._removedConnection || !res.sendDate) return null
  if (res._expect_continue && !res._sent100) return null
  if (res.writeHead !== nodeWriteHead || res._storeHeader !== nodeStoreHeader || nodeWriteHead === null) return null
  if (kUniqueHeaders !== undefined && res[kUniqueHeaders]) return null
  let head = statusLine(statusCode)
  let length = false
  for (const name in headers) {
    const value = headers[name]
    // node refuses undefined and null (ERR_HTTP_INVALID_HEADER_VALUE) and
    // writes a boolean, a symbol or an object its own way: its writeHead() says so
    if (typeof value !== 'string' && typeof value !== 'number' && !Array.isArray(value)) return null
    const kind = kindOf(name)
    if (kind === 2) return null
    if (kind === 1) {
      // the length is read back under its lower-case name (./response.js)
      if (name !== 'content-length') return null
      length = true
    }
    const lines = valueLines(name, value)
    // a name or value node's rule refuses: node's writeHead() throws its own error
    if (lines === null) return null
    head += lines
  }
  // without a Content-Length node decides between chunked and close
  if (!length) return null
  head += currentDateLine()
  head += res._keepAliveTimeout && res._defaultKeepAlive
    ? keepAliveLinesFor(res._keepAliveTimeout, ~~res._maxRequestsPerSocket)
    : 'Connection: keep-alive\r\n'
  return head + '\r\n'
}
