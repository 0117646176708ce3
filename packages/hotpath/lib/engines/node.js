// The node:http engine: adapts IncomingMessage/ServerResponse to the engine
// interface in ./engine.js. Every method is a plain function over the
// objects node:http hands us, so nothing is allocated per request to reach
// the engine.
import http from 'node:http'
import { pipeline, Transform } from 'node:stream'
import { createError } from '../errors.js'
import { isValidHost } from './host.js'
import { loadModule } from '../require.js'

const kOnFinish = Symbol('hotpath.onFinish')
const kCompat = Symbol('hotpath.compat')

/**
 * The JSON body of an answer the engine gives itself (a request no handler
 * may see), in the shape of the core's error bodies.
 * @param {import('../errors.js').HttpError} error
 */
function errorJson (error) {
  return JSON.stringify({ statusCode: error.statusCode, code: error.code, error: http.STATUS_CODES[error.statusCode], message: error.message })
}

/**
 * Why the Host of a request is not acceptable, or null (RFC 9112 §3.2, the
 * rule of ../host.js that the wire engine applies too). node:http checks
 * only that HTTP/1.1 has one (requireHostHeader, answered with an empty
 * body, so turned off here); any value passes llhttp. No Host or an empty
 * one means no authority (RFC 9112 §3.3): a 400 on HTTP/1.1, allowed on
 * HTTP/1.0.
 * @param {http.IncomingMessage} req
 * @returns {string | null}
 */
function invalidHost (req) {
  // node:http keeps the first of several Host lines; RFC 9112 §3.2 wants a
  // 400 for more than one (one length compare per header line)
  const raw = req.rawHeaders
  let hosts = 0
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host' && ++hosts > 1) return 'Duplicate Host header'
  }
  const host = req.headers.host
  if (host === undefined || host === '') {
    if (req.httpVersionMinor !== 1 || req.httpVersionMajor !== 1) return null
    return host === undefined ? 'Missing Host header' : 'Empty Host header'
  }
  return isValidHost(host) ? null : 'Invalid Host header'
}

/**
 * Answers a request no handler may see with the JSON 400 every malformed
 * request gets, and closes the connection.
 * @param {http.ServerResponse} res
 * @param {string} message
 */
function rejectRequest (res, message) {
  const body = errorJson(createError('HP_ERR_BAD_REQUEST', message))
  res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' })
  res.end(body)
}

/**
 * The handler, unless the parser failed the request's read meanwhile
 * (onClientError has answered it and ended the socket).
 * @param {(req: import('./engine.js').RawRequest, res: http.ServerResponse) => void} handler
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function dispatchAfterParse (handler, req, res) {
  if (req.socket.writable) handler(/** @type {import('./engine.js').RawRequest} */ (/** @type {unknown} */ (req)), res)
}

/** ms an open connection may still bring a request once close() began */
const CLOSE_IDLE_MS = 500

function noop () {}

/**
 * @param {import('./engine.js').EngineOptions} options
 * @returns {import('./engine.js').Engine}
 */
export function createNodeEngine (options) {
  const requestTimeout = options.requestTimeout
  // node:http refuses headersTimeout > requestTimeout when both are set.
  const headersTimeout = requestTimeout > 0 ? Math.min(options.headersTimeout, requestTimeout) : options.headersTimeout
  const serverOptions = {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeout,
    maxHeaderSize: options.maxHeaderSize,
    // node:http checks headersTimeout/requestTimeout only every 30 s by
    // default; a slow-drip client would hold a socket that long past its
    // limit. Check at most every second (and faster for short limits).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeout || 1000, requestTimeout || 1000) / 2))),
    // checked in setHandler instead: node:http's own answer is an empty 400
    requireHostHeader: false,
    maxRequestsPerSocket: options.maxRequestsPerSocket ?? 0
  }
  const server = options.https
    // node:https (and node:tls under it) is loaded only for an HTTPS server
    ? /** @type {typeof import('node:https')} */ (loadModule('node:https')).createServer({ ...options.https, ...serverOptions })
    : http.createServer(serverOptions)
  // Node's default 'timeout' handling is fine; keep the socket idle timeout
  // off (timeouts above cover slow clients).
  server.timeout = 0
  // node:http answers a malformed request itself with an empty body; with a
  // listener we answer it as wire does, with a JSON body naming the problem
  // (llhttp's reason, e.g. "Invalid header value char").
  const log = options.onClientError
  server.on('clientError', onClientError)
  /**
   * @param {Error & { code?: string, reason?: string }} err
   * @param {import('node:net').Socket} socket
   */
  function onClientError (err, socket) {
    if (log) log(err)
    if (socket.writable && !(/** @type {any} */ (socket))._httpMessage?.headersSent) {
      const error = err.code === 'HPE_HEADER_OVERFLOW' ? createError('HP_ERR_HEADERS_TOO_LARGE')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? createError('HP_ERR_REQUEST_TIMEOUT')
          : createError('HP_ERR_BAD_REQUEST', typeof err.reason === 'string' ? err.reason : 'unparsable request')
      const body = errorJson(error)
      socket.end(`HTTP/1.1 ${error.statusCode} ${http.STATUS_CODES[error.statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
    }
    socket.destroySoon()
  }

  let closing = false

  /** @type {import('./engine.js').Engine} */
  const engine = {
    name: 'node',
    server,
    setHandler (handler) {
      server.on('request', (/** @type {http.IncomingMessage} */ req, /** @type {http.ServerResponse} */ res) => {
        const invalid = invalidHost(req)
        if (invalid !== null) return rejectRequest(res, invalid)
        // llhttp hands over the head of a request whose Transfer-Encoding
        // it rejects (a final coding other than a lone "chunked", as in
        // "gzip", "chunked<HTAB>" or "<NBSP>chunked") and fails the read
        // right after this event, in the same call. Such a request waits
        // one tick: the error comes first, onClientError answers with the
        // JSON 400, and no handler runs. A request without the field pays
        // one property check.
        if (req.headers['transfer-encoding'] !== undefined) return process.nextTick(dispatchAfterParse, handler, req, res)
        handler(/** @type {import('./engine.js').RawRequest} */ (/** @type {unknown} */ (req)), res)
      })
    },
    setUpgradeHandler (handler) {
      server.on('upgrade', handler)
    },
    listen (opts) {
      return new Promise((resolve, reject) => {
        const onError = (/** @type {Error} */ err) => reject(err)
        server.once('error', onError)
        server.listen({ port: opts.port ?? 0, host: opts.host ?? 'localhost', backlog: opts.backlog }, () => {
          server.removeListener('error', onError)
          resolve(/** @type {import('node:net').AddressInfo} */ (server.address()))
        })
      })
    },
    close () {
      closing = true
      return new Promise((resolve) => {
        if (!server.listening) return resolve()
        // server.close() stops accepting and (node ≥ 19) closes idle
        // keep-alive sockets; in-flight requests finish, and the core marks
        // their responses Connection: close so their sockets end too.
        // Connections still busy after the grace period (a stream that
        // never ends, a client that never reads) are destroyed.
        const grace = setTimeout(() => server.closeAllConnections(), options.closeGraceTimeout ?? 10_000)
        grace.unref()
        // server.close() stops accepting and also destroys every keep-alive
        // connection idle at that moment; but a client's next request may
        // already be on its way on one of them, and it would be reset.
        // node:http does not say when a connection last answered, so the
        // idle ones are left open CLOSE_IDLE_MS longer: a request arriving
        // meanwhile is answered 503 + Connection: close (see write), and
        // those still idle are closed then.
        const closeIdle = server.closeIdleConnections
        server.closeIdleConnections = noop
        server.close(() => {
          clearTimeout(grace)
          resolve()
        })
        server.closeIdleConnections = closeIdle
        setTimeout(() => server.closeIdleConnections(), CLOSE_IDLE_MS).unref()
      })
    },
    remoteAddress (raw) {
      return /** @type {http.IncomingMessage} */ (raw).socket.remoteAddress
    },
    encrypted (raw) {
      return /** @type {any} */ ((/** @type {http.IncomingMessage} */ (raw).socket)).encrypted === true
    },
    hasBody (raw) {
      const h = raw.headers
      const cl = h['content-length']
      if (cl !== undefined) return cl !== '0'
      return h['transfer-encoding'] !== undefined
    },
    contentLength (raw) {
      const cl = raw.headers['content-length']
      // node:http has already rejected non-numeric and conflicting lengths.
      return typeof cl === 'string' ? Number(cl) : -1
    },
    readBody (raw, limit, done) {
      const req = /** @type {http.IncomingMessage} */ (raw)
      const declared = engine.contentLength(raw)
      if (declared > limit) {
        stopReading(req)
        done(createError('HP_ERR_BODY_TOO_LARGE', limit))
        return
      }
      new BodyReader(req, limit, done)
    },
    bodyStream (raw) {
      return /** @type {http.IncomingMessage} */ (raw)
    },
    write (res, statusCode, headers, body) {
      const r = /** @type {http.ServerResponse} */ (res)
      if (closing) headers.connection = 'close'
      if (body !== null && headers['content-length'] === undefined) {
        headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length
      }
      // node:http writes a head joined to a string body in the body's
      // encoding: obs-text in a value (0x80-0xFF, RFC 9110 §5.5) would go
      // out as two UTF-8 bytes, where a head written alone (a Buffer body, a
      // stream) and the wire engine send the one latin1 byte a client reads.
      // The scan costs about 40 ns a response, against the microseconds of
      // node:http's own work.
      if (typeof body === 'string' && (hasObsText(headers) || (/** @type {any} */ (r)[kCompat] === true && hasObsText(r.getHeaders())))) body = Buffer.from(body)
      // One writeHead with every header, then one end(): node:http joins the
      // head and a body given to end() into a single socket write.
      try {
        r.writeHead(statusCode, headers)
      } catch (err) {
        // A refused header (ERR_INVALID_CHAR, ERR_INVALID_HTTP_TOKEN): the
        // failed call left its reason phrase behind, and the fallback 500
        // would go out as "500 OK".
        r.statusMessage = /** @type {any} */ (undefined)
        throw err
      }
      r.end(body)
    },
    writeStream (res, statusCode, headers, stream, done) {
      const r = /** @type {http.ServerResponse} */ (res)
      if (closing) headers.connection = 'close'
      // The head is written on the stream's first byte, in an event
      // listener where a throw would end the process: refuse a bad header
      // now, as write() does, with node:http's own checks.
      checkHeaders(headers)
      new StreamWriter(r, statusCode, headers, stream, done)
    },
    headersSent (res) {
      return /** @type {http.ServerResponse} */ (res).headersSent
    },
    onFinish (res, onFinish) {
      const r = /** @type {http.ServerResponse} */ (res)
      if (r.closed) {
        // 'close' has fired already (the client left before anyone asked,
        // e.g. req.signal first read after it): report it the way it ended
        onFinish(r, r.writableFinished ? null : abortError())
        return
      }
      ;/** @type {any} */ (r)[kOnFinish] = onFinish
      r.on('close', onResClose)
    },
    hijack (res) {
      return /** @type {import('node:stream').Duplex} */ (/** @type {http.ServerResponse} */ (res).socket)
    },
    compat (raw, res) {
      // middleware may set headers on it: write() checks those too
      ;/** @type {any} */ (res)[kCompat] = true
      return [raw, res]
    },
    isClosing () {
      return closing
    }
  }
  return engine
}

/**
 * ServerResponse 'close' fires once: after 'finish' when the response was
 * handed to the socket, or alone when the connection went away first.
 * @this {http.ServerResponse}
 */
function onResClose () {
  const cb = /** @type {any} */ (this)[kOnFinish]
  if (cb === undefined) return
  ;/** @type {any} */ (this)[kOnFinish] = undefined
  cb(this, this.writableFinished ? null : abortError())
}

const NOT_ASCII = /[^\x00-\x7f]/

/** @param {Record<string, any>} headers */
function hasObsText (headers) {
  for (const name in headers) {
    const v = headers[name]
    if (typeof v === 'number') continue
    if (Array.isArray(v) ? v.some(isNotAscii) : NOT_ASCII.test(v)) return true
  }
  return false
}

/** @param {unknown} v */
function isNotAscii (v) { return NOT_ASCII.test(String(v)) }

/** @param {import('./engine.js').OutgoingHeaders} headers */
function checkHeaders (headers) {
  for (const name in headers) {
    const v = headers[name]
    http.validateHeaderName(name)
    if (Array.isArray(v)) for (const item of v) http.validateHeaderValue(name, item)
    else http.validateHeaderValue(name, /** @type {any} */ (v))
  }
}

function abortError () {
  return createError('HP_ERR_REQUEST_ABORTED')
}

/**
 * Stops reading an over-limit body. The core answers 413 with
 * Connection: close, so node:http ends the socket after the response and
 * the rest of the body is never read into memory.
 * @param {http.IncomingMessage} req
 */
function stopReading (req) {
  req.pause()
}

const kReader = Symbol('hotpath.bodyReader')

/**
 * Buffers a body up to a limit. The listeners are module-level functions
 * (EventEmitter calls them with `this` = the request) that find the reader
 * through one symbol property: no closure or bound function per request.
 */
class BodyReader {
  /**
   * @param {http.IncomingMessage} req
   * @param {number} limit
   * @param {(err: any, body?: Buffer) => void} done
   */
  constructor (req, limit, done) {
    this.req = req
    this.limit = limit
    this.done = done
    /** @type {Buffer[]} */
    this.chunks = []
    this.received = 0
    this.finished = false
    ;/** @type {any} */ (req)[kReader] = this
    req.on('data', readerData)
    req.on('end', readerEnd)
    req.on('close', readerClose)
    req.on('error', readerError)
  }

  /** @param {Buffer} chunk */
  onData (chunk) {
    if (this.finished) return
    this.received += chunk.length
    if (this.received > this.limit) {
      this.chunks = []
      this.finish(createError('HP_ERR_BODY_TOO_LARGE', this.limit))
      this.req.removeListener('data', readerData)
      stopReading(this.req)
      return
    }
    this.chunks.push(chunk)
  }

  onEnd () {
    if (this.finished) return
    const chunks = this.chunks
    this.finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.received))
  }

  onClose () {
    if (!this.finished) this.finish(abortError())
  }

  /** @param {Error} err */
  onError (err) {
    if (!this.finished) this.finish(this.req.destroyed ? abortError() : err)
  }

  /**
   * @param {any} err
   * @param {Buffer} [body]
   */
  finish (err, body) {
    this.finished = true
    this.req.removeListener('end', readerEnd)
    this.req.removeListener('close', readerClose)
    this.done(err, body)
  }
}

/** @this {any} @param {Buffer} chunk */
function readerData (chunk) { this[kReader].onData(chunk) }
/** @this {any} */
function readerEnd () { this[kReader].onEnd() }
/** @this {any} */
function readerClose () { this[kReader].onClose() }
/** @this {any} @param {Error} err */
function readerError (err) { this[kReader].onError(err) }

/**
 * Writes the head only once the stream has data (or ended), so a stream
 * that fails before its first byte can still be answered by the error
 * handler; after that, an error destroys the socket.
 */
class StreamWriter {
  /**
   * @param {http.ServerResponse} res
   * @param {number} statusCode
   * @param {import('./engine.js').OutgoingHeaders} headers
   * @param {import('node:stream').Readable} stream
   * @param {(err: Error | null) => void} done
   */
  constructor (res, statusCode, headers, stream, done) {
    this.res = res
    this.statusCode = statusCode
    this.headers = headers
    this.stream = stream
    this.done = done
    this.started = false
    this.onReadable = this.onReadable.bind(this)
    this.onEarlyError = this.onEarlyError.bind(this)
    this.onEarlyClose = this.onEarlyClose.bind(this)
    stream.once('readable', this.onReadable)
    stream.once('error', this.onEarlyError)
    res.once('close', this.onEarlyClose)
  }

  onReadable () {
    if (this.started) return
    this.started = true
    this.stream.removeListener('error', this.onEarlyError)
    this.res.removeListener('close', this.onEarlyClose)
    this.res.writeHead(this.statusCode, this.headers)
    /** @param {Error | null | undefined} err */
    const onDone = (err) => {
      if (err && !this.res.writableFinished) this.res.destroy()
      this.done(err ?? null)
    }
    const declared = this.headers['content-length']
    if (declared === undefined) pipeline(this.stream, this.res, onDone)
    else pipeline(this.stream, lengthGuard(Number(declared)), this.res, onDone)
  }

  /** @param {Error} err */
  onEarlyError (err) {
    if (this.started) return
    this.started = true
    this.stream.removeListener('readable', this.onReadable)
    this.res.removeListener('close', this.onEarlyClose)
    this.done(err)
  }

  onEarlyClose () {
    // The client went away before the stream produced anything.
    if (this.started) return
    this.started = true
    this.stream.removeListener('readable', this.onReadable)
    this.stream.removeListener('error', this.onEarlyError)
    this.stream.destroy()
    this.done(abortError())
  }
}

/**
 * Passes a streamed body through while it stays within its declared
 * Content-Length, and fails if it ends short or runs long: node:http would
 * send the extra bytes, which the client reads as the start of the next
 * response (RFC 9112 §6.3). A failure destroys the socket (see onDone).
 * @param {number} length
 */
function lengthGuard (length) {
  let left = length
  return new Transform({
    transform (chunk, _encoding, cb) {
      left -= chunk.length
      cb(left < 0 ? lengthMismatch() : null, left < 0 ? undefined : chunk)
    },
    flush (cb) {
      cb(left === 0 ? null : lengthMismatch())
    }
  })
}

function lengthMismatch () {
  return Object.assign(new Error('The response stream does not match its Content-Length'), { code: 'ERR_HTTP_CONTENT_LENGTH_MISMATCH' })
}
