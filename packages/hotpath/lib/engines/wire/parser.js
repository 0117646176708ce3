// A strict, incremental HTTP/1.1 request parser (RFC 9112).
//
// Fast path: a whole head in one chunk is found with one Buffer#indexOf of
// CRLFCRLF, turned into one latin1 string and cut with String#indexOf; the
// only per-byte work is a table lookup over the characters, which allocates
// nothing. Anything the RFC does not allow, and anything that lets two
// parsers disagree about where a message ends (the root of request
// smuggling), is rejected: the connection is told to answer 400/414/431/505
// and close, and no handler runs for that request or anything after it.

import { WireRequest } from './request.js'
import { isValidHost } from '../host.js'
import { TOKEN, VALUE, TARGET, METHODS, METHOD_PREFIXES, methodAt, trimOws, connectionFlags, CONN_CLOSE, CONN_KEEP_ALIVE, CONN_UPGRADE,
  framingField, F_CONTENT_LENGTH, F_TRANSFER_ENCODING, F_HOST, F_CONNECTION, F_UPGRADE, F_EXPECT } from './syntax.js'
import { S_HEAD, S_BODY, S_CHUNK_SIZE, S_CHUNK_DATA, S_CHUNK_END, S_TRAILERS, S_DEAD } from './states.js'
import { chunkSize, chunkData, chunkEnd, trailers } from './chunked.js'

// field-line = field-name ":" OWS field-value OWS CRLF (RFC 9112 §5): a
// token, a colon, field-value characters (VALUE in ./syntax.js: HTAB, SP,
// VCHAR, obs-text), CRLF; as many lines as are well formed, from lastIndex
const FIELD_LINES = /(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e\x80-\xff]*\r\n)*/y
// characters of a field section from which FIELD_LINES costs less than the loop
const FIELD_LINES_FROM = 48
const CRLF = Buffer.from('\r\n')
const CRLFCRLF = Buffer.from('\r\n\r\n')
// Bytes of a read turned into one string to find and parse the heads in it:
// most request heads (and ten pipelined small ones) fit; a longer head is
// found by Buffer#indexOf instead.
const HEAD_WINDOW = 2048

/** @typedef {import('./limits.js').WireLimits} WireLimits */

/**
 * What the parser calls on its connection.
 * @typedef {object} ParserSink
 * @property {boolean} stopped   set by the sink: parse nothing more for now
 * @property {() => void} onHeadStart   the first bytes of a request head arrived but not the whole head
 * @property {(req: WireRequest) => void} onRequest
 * @property {(req: WireRequest, chunk: Buffer) => void} onBody
 * @property {(req: WireRequest) => void} onComplete
 * @property {(code: string, detail?: string | number) => void} onError
 */

export class Parser {
  /**
   * @param {ParserSink} sink
   * @param {any} conn   handed to WireRequest
   * @param {WireLimits} limits
   * @param {boolean} [requireHost]  false: an HTTP/1.1 request without Host (or with an empty one) is taken
   */
  constructor (sink, conn, limits, requireHost = true) {
    this.sink = sink
    this.conn = conn
    this.limits = limits
    this.requireHost = requireHost
    this.state = S_HEAD
    /** @type {Buffer | null} bytes not parsed yet (incomplete element, or parsing stopped) */
    this.pending = null
    /** where the search for the end of the head resumes in `pending` */
    this.scan = 0
    /** bytes left in the current Content-Length body or chunk */
    this.remaining = 0
    /** trailer bytes so far */
    this.trailerBytes = 0
    /** @type {WireRequest | null} the request whose body is being parsed */
    this.req = null
    /** bytes are kept because the sink stopped parsing, not because they are incomplete */
    this.held = false
    /** @type {Buffer | null} the read whose bytes from windowBase are in window (see head) */
    this.windowData = null
    this.window = ''
    this.windowBase = 0
  }

  /** True when no byte of a next request is buffered. */
  get idle () {
    return this.state === S_HEAD && this.pending === null
  }

  /** True while the body of a request is being received. */
  get inBody () {
    return this.state !== S_HEAD && this.state !== S_DEAD
  }

  /** Takes the unparsed bytes (for an upgrade). */
  takeRest () {
    const rest = this.pending
    this.pending = null
    this.state = S_DEAD
    return rest === null ? Buffer.alloc(0) : rest
  }

  /** @param {Buffer} chunk */
  execute (chunk) {
    this.parse(chunk)
    // the read and its string are not kept past this call: an idle
    // keep-alive connection must not hold on to its last (maybe 64 KiB) read
    this.windowData = null
    this.window = ''
  }

  /** @param {Buffer} chunk */
  parse (chunk) {
    let data = chunk
    this.held = false
    if (this.pending !== null) {
      data = chunk.length === 0 ? this.pending : Buffer.concat([this.pending, chunk])
      this.pending = null
    }
    const len = data.length
    let off = 0
    const sink = this.sink
    while (off < len) {
      if (sink.stopped) {
        if (this.state !== S_DEAD) {
          this.pending = data.subarray(off)
          this.held = true
        }
        return
      }
      switch (this.state) {
        case S_HEAD: off = this.head(data, off); break
        case S_BODY: off = this.body(data, off); break
        case S_CHUNK_SIZE: off = chunkSize(this, data, off); break
        case S_CHUNK_DATA: off = chunkData(this, data, off); break
        case S_CHUNK_END: off = chunkEnd(this, data, off); break
        case S_TRAILERS: off = trailers(this, data, off); break
        default: return
      }
      if (off < 0) return
    }
  }

  /**
   * Rejects the request: the connection answers with the code's status and
   * message from the error table (../../errors.js).
   * @param {string} code  an HP_ERR_* code
   * @param {string | number} [detail]  the message's %s (the reason, or a
   *   limit) where it has one, else a finer reason for the log
   * @returns {number}
   */
  fail (code, detail) {
    this.state = S_DEAD
    this.pending = null
    this.sink.onError(code, detail)
    return -1
  }

  /**
   * Keeps data[off..] for the next chunk.
   * @param {Buffer} data
   * @param {number} off
   */
  keep (data, off) {
    this.pending = off === 0 ? data : data.subarray(off)
    return -1
  }

  /**
   * @param {Buffer} data
   * @param {number} off
   */
  head (data, off) {
    const len = data.length
    // RFC 9112 §2.2: a server SHOULD ignore at least one empty line before
    // the request-line (some clients send one after a POST body). Like
    // llhttp, any CR and LF bytes there are skipped: nothing is framed yet.
    if (this.scan === 0) {
      while (off < len && (data[off] === 13 || data[off] === 10)) off++
      if (off === len) return len
      // Fast path: the bytes as one latin1 string (one native call, shared
      // by every head of a pipelined read), searched with String#indexOf.
      // Only a terminator found inside the window is taken; anything else
      // goes the Buffer way below, unchanged.
      let str = this.window
      let base = this.windowBase
      let at = -1
      const cached = this.windowData === data && off >= base
      if (cached) at = str.indexOf('\r\n\r\n', off - base)
      if (at === -1 && (!cached || (base !== off && base + str.length < len))) {
        str = data.toString('latin1', off, Math.min(len, off + HEAD_WINDOW))
        base = off
        this.windowData = data
        this.window = str
        this.windowBase = off
        at = str.indexOf('\r\n\r\n')
      }
      if (at !== -1) {
        const end = at + base
        if (end + 4 - off > this.limits.maxHeaderSize) {
          return this.fail('HP_ERR_HEADERS_TOO_LARGE')
        }
        const req = this.parseHead(str, off - base, at + 2)
        if (req === null) return -1
        this.start(req)
        return end + 4
      }
    }
    let from = off + this.scan
    if (from > off) from -= 3
    if (from < off) from = off
    const end = data.indexOf(CRLFCRLF, from)
    if (end === -1) return this.partialHead(data, off)
    this.scan = 0
    if (end + 4 - off > this.limits.maxHeaderSize) {
      return this.fail('HP_ERR_HEADERS_TOO_LARGE')
    }
    const req = this.parseHead(data.toString('latin1', off, end + 2), 0, end + 2 - off)
    if (req === null) return -1
    off = end + 4
    this.start(req)
    return off
  }

  /**
   * The head is not complete yet: keep it, but fail as early as the bytes
   * already allow (bare LF, oversize, a request line that cannot be valid).
   * @param {Buffer} data
   * @param {number} off
   */
  partialHead (data, off) {
    const len = data.length
    const n = len - off
    const limits = this.limits
    let from = off + this.scan
    let lf = data.indexOf(10, from)
    while (lf !== -1) {
      if (lf === off || data[lf - 1] !== 13) return this.fail('HP_ERR_BAD_REQUEST', 'Bare LF in request head')
      lf = data.indexOf(10, lf + 1)
    }
    const lineEnd = data.indexOf(CRLF, off)
    if (lineEnd === -1) {
      if (n > limits.maxUrlLength + 32) return this.fail('HP_ERR_URL_TOO_LONG', limits.maxUrlLength)
      // the method is known as soon as its space arrives
      const sp = data.indexOf(32, off)
      if (sp === -1 ? (n > 16 || !METHOD_PREFIXES.has(data.toString('latin1', off, len))) : !METHODS.has(data.toString('latin1', off, sp))) {
        return this.fail('HP_ERR_BAD_REQUEST', 'Invalid method')
      }
    }
    if (n > limits.maxHeaderSize) return this.fail('HP_ERR_HEADERS_TOO_LARGE')
    this.scan = n
    this.sink.onHeadStart()
    return this.keep(data, off)
  }

  /**
   * Parses request line and fields. Returns null after reporting an error.
   * @param {string} str  holds the head at [start, end)
   * @param {number} start
   * @param {number} end  just past the CRLF of the head's last line
   * @returns {WireRequest | null}
   */
  parseHead (str, start, end) {
    const lineEnd = str.indexOf('\r\n', start)
    const sp1 = str.indexOf(' ', start)
    if (sp1 <= start || sp1 > lineEnd) return this.bad('Invalid request line')
    const method = methodAt(str, start, sp1)
    if (method === undefined) return this.bad('Invalid method')
    const sp2 = str.indexOf(' ', sp1 + 1)
    if (sp2 === -1 || sp2 > lineEnd || sp2 === sp1 + 1) return this.bad('Invalid request line')
    if (sp2 - sp1 - 1 > this.limits.maxUrlLength) {
      this.fail('HP_ERR_URL_TOO_LONG', this.limits.maxUrlLength)
      return null
    }
    for (let i = sp1 + 1; i < sp2; i++) {
      if (TARGET[str.charCodeAt(i)] === 0) return this.bad('Invalid character in request-target')
    }
    const c0 = str.charCodeAt(sp1 + 1)
    // origin-form, asterisk-form (OPTIONS only) or absolute-form (RFC 9112 §3.2)
    if (c0 !== 47 /* / */) {
      if (c0 === 42 /* * */) {
        if (sp2 !== sp1 + 2 || method !== 'OPTIONS') return this.bad('Invalid request-target')
      } else if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(str.slice(sp1 + 1, sp2))) {
        return this.bad('Invalid request-target')
      }
    }
    const url = sp2 === sp1 + 2 && c0 === 47 ? '/' : str.slice(sp1 + 1, sp2)
    let minor = -1
    // "HTTP/1.1" or "HTTP/1.0", compared code by code (no startsWith call)
    if (lineEnd - sp2 === 9 && str.charCodeAt(sp2 + 1) === 72 && str.charCodeAt(sp2 + 2) === 84 &&
      str.charCodeAt(sp2 + 3) === 84 && str.charCodeAt(sp2 + 4) === 80 && str.charCodeAt(sp2 + 5) === 47 &&
      str.charCodeAt(sp2 + 6) === 49 && str.charCodeAt(sp2 + 7) === 46) {
      const m = str.charCodeAt(sp2 + 8)
      if (m === 49) minor = 1
      else if (m === 48) minor = 0
    }
    if (minor === -1) {
      if (/^HTTP\/[0-9]\.[0-9]$/.test(str.slice(sp2 + 1, lineEnd))) {
        this.fail('HP_ERR_HTTP_VERSION')
        return null
      }
      return this.bad('Invalid HTTP version')
    }

    // The fields are checked and kept as rawHeaders; the headers object is
    // built from them only when someone reads it (WireRequest#headers).
    /** @type {string[]} */
    const raw = []
    let contentLength = -1
    /** @type {string | null} */
    let te = null
    let hosts = 0
    let host = ''
    let conn = 0
    let upgrade = false
    /** @type {string | null} */
    let expect = null
    let count = 0
    const maxCount = this.limits.maxHeaderCount
    let pos = lineEnd + 2
    // A field section of more than a few lines is checked by one native
    // regex run (about 70 ns for a short one, then a fraction of a JS
    // loop's ~3 ns a character, on the 2-core reference machine): when
    // every line is well formed, they are only cut below. A short section
    // (a benchmark's lone Host line) is cheaper to check line by line, and
    // so is any section that is refused: the loop tells the reason.
    let wellFormed = false
    if (end - pos > FIELD_LINES_FROM) {
      FIELD_LINES.lastIndex = pos
      wellFormed = FIELD_LINES.test(str) && FIELD_LINES.lastIndex === end
    }
    while (pos < end) {
      let eol
      let colon
      if (wellFormed) {
        colon = str.indexOf(':', pos)
        eol = str.indexOf('\r\n', colon)
      } else {
        eol = str.indexOf('\r\n', pos)
        colon = str.indexOf(':', pos)
        const c = str.charCodeAt(pos)
        if (c === 32 || c === 9) return this.bad('Obsolete line folding (obs-fold) is not allowed')
        if (colon === -1 || colon > eol) return this.bad('Header line without a colon')
        if (colon === pos) return this.bad('Empty header name')
        for (let i = pos; i < colon; i++) {
          if (TOKEN[str.charCodeAt(i)] === 0) {
            const b = str.charCodeAt(i)
            return this.bad(b === 32 || b === 9 ? 'Whitespace before the colon of a header' : 'Invalid character in header name')
          }
        }
      }
      let vs = colon + 1
      let ve = eol
      let ch
      while (vs < ve && ((ch = str.charCodeAt(vs)) === 32 || ch === 9)) vs++
      while (ve > vs && ((ch = str.charCodeAt(ve - 1)) === 32 || ch === 9)) ve--
      if (!wellFormed) {
        for (let i = vs; i < ve; i++) {
          if (VALUE[str.charCodeAt(i)] === 0) {
            const b = str.charCodeAt(i)
            return this.bad(b === 13 ? 'Bare CR in header value' : b === 10 ? 'Bare LF in header value' : 'Invalid character in header value')
          }
        }
      }
      if (++count > maxCount) {
        this.fail('HP_ERR_HEADERS_TOO_LARGE', 'Too many header fields')
        return null
      }
      const name = str.slice(pos, colon)
      const value = str.slice(vs, ve)
      raw.push(name, value)
      const field = framingField(str, pos, colon)
      pos = eol + 2
      switch (field) {
        case F_CONTENT_LENGTH:
          // RFC 9112 §6.3: a list or repeated Content-Length is a framing
          // error; digits only, bounded so the number stays exact. The SP
          // and HTAB around it are OWS, already cut off (RFC 9110 §5.5;
          // llhttp 9.4, Node 22's, reads them so too).
          if (contentLength !== -1) return this.bad('Duplicate Content-Length')
          if (value.length === 0 || value.length > 15) return this.bad('Invalid Content-Length')
          contentLength = 0
          for (let i = 0; i < value.length; i++) {
            const d = value.charCodeAt(i) - 48
            if (d < 0 || d > 9) return this.bad('Invalid Content-Length')
            contentLength = contentLength * 10 + d
          }
          break
        case F_TRANSFER_ENCODING:
          // SP and HTAB around the value and its members are OWS (RFC 9110
          // §5.5, §5.6.1): "chunked<HTAB>" is chunked. llhttp takes it for
          // an unknown coding and answers 400, so a front end on llhttp
          // never frames it differently: it refuses it.
          te = te === null ? value : te + ', ' + value
          break
        case F_HOST:
          hosts++
          host = value
          break
        case F_CONNECTION:
          conn |= connectionFlags(value)
          break
        case F_UPGRADE:
          upgrade = true
          break
        case F_EXPECT:
          expect = expect === null ? value : expect + ', ' + value
          break
      }
    }

    // RFC 9112 §3.2: 400 for an HTTP/1.1 request without Host, and for
    // any request with more than one Host or an invalid one. An empty Host
    // is a valid one: the client sends it for a target URI without an
    // authority (an empty reg-name, RFC 3986 §3.2.2), and node:http takes
    // it too.
    // node:http hands an upgrade to the server's 'upgrade' listeners
    // before its Host check, and so does this: a missing Host on one is
    // refused only if it goes to the routes (Connection#dispatch).
    const isUpgrade = (conn & CONN_UPGRADE) !== 0 && upgrade
    let hostMissing = false
    if (hosts > 1) return this.bad('Duplicate Host header')
    if (hosts === 0) {
      if (minor === 1 && isUpgrade) hostMissing = true
      else if (minor === 1 && this.requireHost) return this.bad('Missing Host header')
    } else if (host !== '' && !isValidHost(host)) {
      return this.bad('Invalid Host header')
    }
    let chunked = false
    if (te !== null) {
      // RFC 9112 §6.1-6.3: both framings at once is how requests get
      // smuggled; HTTP/1.0 has no chunked coding; chunked must be final.
      if (contentLength !== -1) return this.bad('Both Content-Length and Transfer-Encoding')
      if (minor === 0) return this.bad('Transfer-Encoding in an HTTP/1.0 request')
      const codings = te.toLowerCase().split(',').map(trimOws)
      if (codings[codings.length - 1] !== 'chunked') return this.bad('Transfer-Encoding whose final coding is not chunked')
      // other codings (gzip, chunked) would need a decoder this server does not have
      if (codings.length !== 1) return this.bad('Unsupported transfer coding')
      chunked = true
    }
    const req = new WireRequest(this.conn, method, url, minor === 1 ? '1.1' : '1.0', raw)
    req.keepAlive = (conn & CONN_CLOSE) === 0 && (minor === 1 || (conn & CONN_KEEP_ALIVE) !== 0)
    req.upgrade = isUpgrade
    req.hostMissing = hostMissing
    req.chunked = chunked
    req.contentLength = contentLength
    // RFC 9110 §10.1.1: a 100-continue expectation in an HTTP/1.0 request
    // is ignored (no 1xx may go to an HTTP/1.0 client, §15.2); node:http
    // ignores Expect on HTTP/1.0 altogether, and so does this
    if (expect !== null && minor === 1) req.expectContinue = expect.toLowerCase() === '100-continue'
    if (expect !== null && minor === 1 && !req.expectContinue) {
      // RFC 9110 §10.1.1: an expectation we cannot meet gets 417
      this.fail('HP_ERR_EXPECTATION_FAILED')
      return null
    }
    return req
  }

  /**
   * @param {string} message
   * @returns {null}
   */
  bad (message) {
    this.fail('HP_ERR_BAD_REQUEST', message)
    return null
  }

  /**
   * Hands a parsed head to the connection and sets up body framing.
   * @param {WireRequest} req
   */
  start (req) {
    if (req.chunked) {
      this.state = S_CHUNK_SIZE
      this.req = req
      this.trailerBytes = 0
    } else if (req.contentLength > 0) {
      this.state = S_BODY
      this.remaining = req.contentLength
      this.req = req
    } else {
      req.complete = true
    }
    this.sink.onRequest(req)
    // the sink may refuse the request (an upgrade without Host that no
    // 'upgrade' listener takes)
    if (req.complete && this.state !== S_DEAD) this.sink.onComplete(req)
  }

  /**
   * @param {Buffer} data
   * @param {number} off
   */
  body (data, off) {
    const req = /** @type {WireRequest} */ (this.req)
    const avail = data.length - off
    if (avail < this.remaining) {
      this.remaining -= avail
      this.sink.onBody(req, off === 0 ? data : data.subarray(off))
      return data.length
    }
    const end = off + this.remaining
    this.remaining = 0
    this.sink.onBody(req, data.subarray(off, end))
    this.finish(req)
    return end
  }

  /** @param {WireRequest} req */
  finish (req) {
    this.req = null
    this.state = S_HEAD
    req.complete = true
    this.sink.onComplete(req)
  }

}
