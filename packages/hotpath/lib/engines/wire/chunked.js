// Chunked transfer coding of request bodies (RFC 9112 §7.1): chunk sizes,
// chunk data, the CRLF after each chunk, and the trailer section (§7.1.2).
// Functions of the parser, entered from its state machine (./parser.js); a
// malformed size line, a bare LF or a forbidden trailer fails the request
// with 400, as llhttp does, since a lenient parser here is a request
// smuggling vector.
import { HEX, TOKEN, VALUE, validChunkExt, trimOws } from './syntax.js'
import { S_TRAILERS, S_CHUNK_DATA, S_CHUNK_END, S_CHUNK_SIZE } from './states.js'

/** @typedef {import('./parser.js').Parser} Parser */
/** @typedef {import('./request.js').WireRequest} WireRequest */

const CRLF = Buffer.from('\r\n')

/**
 * chunk = chunk-size [ chunk-ext ] CRLF (RFC 9112 §7.1)
 * @param {Parser} p
 * @param {Buffer} data
 * @param {number} off
 */
export function chunkSize (p, data, off) {
  const eol = data.indexOf(CRLF, off)
  const max = p.limits.maxChunkLineLength
  if (eol === -1) {
    if (data.length - off > max) return p.fail('HP_ERR_BAD_REQUEST', 'Chunk extension too long')
    const lf = data.indexOf(10, off)
    if (lf !== -1) return p.fail('HP_ERR_BAD_REQUEST', 'Bare LF in chunk size line')
    return p.keep(data, off)
  }
  if (eol - off > max) return p.fail('HP_ERR_BAD_REQUEST', 'Chunk extension too long')
  let size = 0
  let i = off
  for (; i < eol; i++) {
    const h = HEX[data[i]]
    if (h === -1) break
    size = size * 16 + h
  }
  if (i === off) return p.fail('HP_ERR_BAD_REQUEST', 'Invalid chunk size')
  if (i - off > 12) return p.fail('HP_ERR_BAD_REQUEST', 'Chunk size too large')
  if (i < eol && !validChunkExt(data.toString('latin1', i, eol))) {
    return p.fail('HP_ERR_BAD_REQUEST', 'Invalid chunk extension')
  }
  if (size === 0) {
    p.state = S_TRAILERS
  } else {
    p.state = S_CHUNK_DATA
    p.remaining = size
  }
  return eol + 2
}

/**
 * @param {Parser} p
 * @param {Buffer} data
 * @param {number} off
 */
export function chunkData (p, data, off) {
  const req = /** @type {WireRequest} */ (p.req)
  const avail = data.length - off
  if (avail <= p.remaining) {
    p.remaining -= avail
    p.sink.onBody(req, off === 0 ? data : data.subarray(off))
    if (p.remaining === 0) p.state = S_CHUNK_END
    return data.length
  }
  const end = off + p.remaining
  p.remaining = 0
  p.state = S_CHUNK_END
  p.sink.onBody(req, data.subarray(off, end))
  return end
}

/**
 * @param {Parser} p
 * @param {Buffer} data
 * @param {number} off
 */
export function chunkEnd (p, data, off) {
  if (data[off] !== 13) return p.fail('HP_ERR_BAD_REQUEST', 'Missing CRLF after chunk data')
  if (off + 1 === data.length) return p.keep(data, off)
  if (data[off + 1] !== 10) return p.fail('HP_ERR_BAD_REQUEST', 'Missing CRLF after chunk data')
  p.state = S_CHUNK_SIZE
  return off + 2
}

/**
 * trailer-section = *( field-line CRLF ) CRLF (RFC 9112 §7.1.2)
 * @param {Parser} p
 * @param {Buffer} data
 * @param {number} off
 */
export function trailers (p, data, off) {
  const req = /** @type {WireRequest} */ (p.req)
  const eol = data.indexOf(CRLF, off)
  if (eol === -1) {
    if (data.indexOf(10, off) !== -1) return p.fail('HP_ERR_BAD_REQUEST', 'Bare LF in trailer')
    if (p.trailerBytes + data.length - off > p.limits.maxHeaderSize) {
      return p.fail('HP_ERR_HEADERS_TOO_LARGE', 'Trailer fields too large')
    }
    return p.keep(data, off)
  }
  p.trailerBytes += eol + 2 - off
  if (p.trailerBytes > p.limits.maxHeaderSize) return p.fail('HP_ERR_HEADERS_TOO_LARGE', 'Trailer fields too large')
  if (eol === off) {
    p.finish(req)
    return eol + 2
  }
  const line = data.toString('latin1', off, eol)
  const colon = line.indexOf(':')
  if (colon <= 0) return p.fail('HP_ERR_BAD_REQUEST', 'Invalid trailer field')
  for (let i = 0; i < colon; i++) {
    if (TOKEN[line.charCodeAt(i)] === 0) return p.fail('HP_ERR_BAD_REQUEST', 'Invalid trailer field name')
  }
  for (let i = colon + 1; i < line.length; i++) {
    if (VALUE[line.charCodeAt(i)] === 0) return p.fail('HP_ERR_BAD_REQUEST', 'Invalid trailer field value')
  }
  const lname = line.slice(0, colon).toLowerCase()
  // a trailer may not change framing or routing (RFC 9110 §6.5.1)
  if (lname === 'content-length' || lname === 'transfer-encoding' || lname === 'host') {
    return p.fail('HP_ERR_BAD_REQUEST', 'Forbidden trailer field')
  }
  if (++req.trailerCount > p.limits.maxHeaderCount) return p.fail('HP_ERR_HEADERS_TOO_LARGE', 'Too many trailer fields')
  const prev = req.trailers[lname]
  const value = trimOws(line.slice(colon + 1))
  req.trailers[lname] = prev === undefined ? value : prev + ', ' + value
  return eol + 2
}
