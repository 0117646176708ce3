// The inject engine's RawRequest and ResponseHandle (../engine.js): a
// request whose whole body is known up front, and a response that becomes
// the InjectResult app.inject() resolves with. No sockets (node:http lends
// only its header validators).
import { EventEmitter } from 'node:events'
import { validateHeaderName, validateHeaderValue } from '../../node-http.js'
import { Readable } from 'node:stream'
import { CompatRequest, adoptRequest } from '../compat/request.js'
import { CompatResponse, finishCompat, requestOf } from '../compat/response.js'
import { respondThroughMiddleware, streamThroughMiddleware } from '../compat/through-middleware.js'
import { createError } from '../../errors.js'
import { reasonPhrase, refuseBadReason } from '../../status.js'
import { loadModule } from '../../require.js'
import { endSource } from '../source.js'
import { UNOWNED } from '../server-emit.js'

/**
 * @typedef {object} InjectResult
 * @property {number} statusCode
 * @property {string} statusMessage
 * @property {Record<string, string | number | string[]>} headers
 * @property {string | undefined} body  undefined with payloadAsStream
 * @property {string | undefined} payload
 * @property {Buffer | undefined} rawPayload
 * @property {Record<string, string>} trailers  the trailer fields after a chunked body
 * @property {() => any} json
 * @property {() => Readable} stream  the body as a stream
 * @property {object[]} cookies  the Set-Cookie lines, parsed
 * @property {{ req: any, res: any }} raw  node:http's request and response for this exchange (built on first read)
 */

const EMPTY = Buffer.alloc(0)

export class InjectRequest {
  /**
   * @param {string} method
   * @param {string} url
   * @param {Record<string, any>} headers
   * @param {Buffer[] | null} chunks  the body, in the chunks its stream gives
   * @param {string} remoteAddress
   * @param {string[]} [rawHeaders]  the head's lines as given (else made from `headers`)
   */
  constructor (method, url, headers, chunks, remoteAddress, rawHeaders) {
    this.method = method
    this.url = url
    this.headers = headers
    this.httpVersion = '1.1'
    this.chunks = chunks
    /** the request body (not `body`: that name is what body-parser middleware sets) */
    this.payload = chunks === null ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    /** @type {string[] | null} */
    this.givenRawHeaders = rawHeaders ?? null
    this.remoteAddress = remoteAddress
    /** @type {Readable | null} */
    this.stream = null
    /** the whole body is known up front */
    this.complete = true
    /** @type {InjectSocket | null} made when first read */
    this._socket = null
    /** @type {unknown} what a body-parsing middleware parsed (through the compat request) */
    this.body = undefined
    /** readBody took the body */
    this.consumed = false
    /** light-my-request's `simulate: { error: true }`: the body fails with this after its bytes @type {Error | null} */
    this.bodyError = null
    /** @type {((err: Error) => void) | null} what ends the injection when the app destroys its socket */
    this.onSocketDestroy = null
  }

  /** What middleware and req.ip find: a socket-like record, never written to. */
  get socket () {
    if (this._socket === null) this._socket = new InjectSocket(this.remoteAddress, this)
    return this._socket
  }

  /** the body was taken whole (IncomingMessage's body read to its end) */
  get bodyRead () {
    return this.consumed
  }

  /** Only connect middleware reads it (CompatRequest). */
  get rawHeaders () {
    if (this.givenRawHeaders !== null) return this.givenRawHeaders
    /** @type {string[]} */
    const out = []
    for (const name of Object.keys(this.headers)) {
      const v = this.headers[name]
      if (Array.isArray(v)) for (const item of v) out.push(name, item)
      else out.push(name, v)
    }
    return out
  }

  get hasBody () {
    return this.payload !== null && this.payload.length > 0
  }

  /**
   * @param {number} limit
   * @param {(err: any, body?: Buffer) => void} done
   */
  readBody (limit, done) {
    // read through bodyStream() already (a middleware)
    if (this.stream !== null) return done(createError('HP_ERR_BODY_CONSUMED'))
    const body = this.payload ?? EMPTY
    this.consumed = true
    if (body.length > limit) done(createError('HP_ERR_BODY_TOO_LARGE', limit))
    else if (this.bodyError !== null) done(Object.assign(createError('HP_ERR_REQUEST_ABORTED'), { cause: this.bodyError }))
    else if (this.lengthMismatch(body.length)) done(createError('HP_ERR_INVALID_CONTENT_LENGTH'))
    else done(null, body)
  }

  /**
   * Whether the request declares a Content-Length other than the length of
   * its body: on a socket the HTTP parser reads exactly the declared bytes,
   * but an injected request carries both as given.
   * @param {number} length
   */
  lengthMismatch (length) {
    const declared = this.headers['content-length']
    if (declared === undefined) return false
    const n = Number(declared)
    return Number.isInteger(n) && n !== length
  }

  bodyStream () {
    // after readBody (the route's parser), the body has been read: a late
    // reader finds it ended, as on node:http
    // bytes, as a socket's body stream gives them (Readable.from alone
    // would make one object of the body, taken whole by any read(n))
    if (this.stream === null) {
      const chunks = this.chunks === null || this.consumed ? [] : this.chunks
      this.stream = this.bodyError === null ? Readable.from(chunks, { objectMode: false }) : Readable.from(failAfter(chunks, this.bodyError), { objectMode: false })
    }
    return this.stream
  }
}

/**
 * The body's bytes, then its simulated failure.
 * @param {Buffer[]} chunks
 * @param {Error} err
 */
async function * failAfter (chunks, err) {
  yield * chunks
  throw err
}

/**
 * What middleware finds at req.socket / res.socket: an emitter with the
 * fields they read (on-finished listens on it), never written to.
 */
class InjectSocket extends EventEmitter {
  /** @param {string} remoteAddress @param {InjectRequest} record */
  constructor (remoteAddress, record) {
    super()
    this.record = record
    this.remoteAddress = remoteAddress
    // none, as on light-my-request's socket: a logged request has no remotePort
    this.remotePort = undefined
    /** where an instrumentation looks for the server's side, as on a socket */
    this.localAddress = '127.0.0.1'
    this.localPort = 80
    this.encrypted = false
    this.readable = true
    this.writable = true
    this.destroyed = false
    // what node's ServerResponse reads of its socket when it writes (it
    // corks it around a write); nothing is ever written here
    this.writableCorked = 0
    this.writableLength = 0
    this.writableHighWaterMark = 16384
    this._writableState = { corked: 0 }
  }

  cork () {}
  uncork () {}

  /**
   * The app ended the connection (req.raw.destroy() of a request not read
   * to its end, reply.raw.destroy(), socket.destroy()): the injection fails
   * as light-my-request's does, unless the response was complete.
   */
  destroy () {
    if (this.destroyed) return this
    this.destroyed = true
    this.readable = false
    this.writable = false
    const onDestroy = this.record.onSocketDestroy
    if (onDestroy !== null) onDestroy(Object.assign(new Error('response destroyed before completion'), { code: 'LIGHT_ECONNRESET' }))
    process.nextTick(() => this.emit('close', false))
    return this
  }

  setTimeout () { return this }
}

export class InjectResponse {
  /**
   * @param {InjectRequest} req
   * @param {(r: InjectResult) => void} resolve
   * @param {boolean} [asStream]  light-my-request's payloadAsStream: the result comes with the head, the body as its stream()
   */
  constructor (req, resolve, asStream = false) {
    this.req = req
    this.resolve = resolve
    this.asStream = asStream
    /** @type {Readable | null} the body as it comes, given with the head (payloadAsStream) */
    this.live = null
    /** @type {InjectResult | null} the result given with the head (payloadAsStream) */
    this.early = null
    /** @type {{ req: any, res: any } | null} */
    this.rawPair = null
    this.headersSent = false
    this.finished = false
    /** 0 pending, 3 finished (the field CompatResponse reads) */
    this.state = 0
    /** node's header table of the compat object (lower-case name → [name, value]) when the core answers past it */
    /** @type {Record<string, any> | null} */
    this.extraHeaders = null
    /** @type {CompatResponse | null} */
    this.compatRes = null
    /** @type {((arg: any, err: Error | null) => void) | null} */
    this.endListener = null
    /** the app's 'request' listener took this response (../server-emit.js): a second call leaves it alone */
    this.routedByApp = false
    /** @type {any} */
    this.endArg = null
    /** the reply is on its way through a middleware's writeHead/write/end */
    this.throughCompat = false
    /** headersOf() added the Date and Connection a socket's head carries, which node's object does not hold */
    this.headAdded = false
    /** @type {InjectResult | null} the result, once the response finished */
    this.answer = null
  }

  // ── ResponseHandle (../engine.js) ─────────────────────────────────────

  /**
   * @param {number} statusCode
   * @param {Record<string, any>} headers
   * @param {string | Buffer | null} body
   */
  respond (statusCode, headers, body) {
    if (respondThroughMiddleware(this, statusCode, headers, body)) return
    checkHeaders(headers)
    if (this.compatRes !== null) refuseBadReason(this.compatRes)
    if (body === null) this.finish(statusCode, headers, EMPTY, false, {}, this.req.method === 'HEAD')
    else this.finish(statusCode, headers, typeof body === 'string' ? Buffer.from(body) : body)
  }

  /**
   * Collects the stream; the result resolves at its end. A declared
   * Content-Length the stream does not match fails as over a socket.
   * @param {number} statusCode
   * @param {Record<string, any>} headers
   * @param {import('node:stream').Readable} stream
   * @param {(err: Error | null) => void} done
   * @param {import('../engine.js').TrailerSource | null} [trailers]
   */
  respondStream (statusCode, headers, stream, done, trailers = null) {
    if (streamThroughMiddleware(this, statusCode, headers, stream, done, trailers)) return
    checkHeaders(headers)
    if (this.compatRes !== null) refuseBadReason(this.compatRes)
    if (this.req.method === 'HEAD' || statusCode === 204 || statusCode === 304) {
      // the head alone, as over a socket: the stream is not read
      endSource(stream)
      this.finish(statusCode, headers, EMPTY, headers['content-length'] === undefined)
      done(null)
      return
    }
    /** @type {Buffer[]} */
    const chunks = []
    let started = false
    if (this.asStream) {
      // the result now, its stream() the body as it comes (trailers filled in at its end)
      const live = this.live = new Readable({ read () {} })
      this.early = this.result(statusCode, this.headersOf(statusCode, headers, true, false), null, {}, live)
      this.headersSent = true
      this.resolve(this.early)
      stream.on('data', (chunk) => { live.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk) })
      stream.once('end', () => { live.push(null) })
      stream.once('error', (err) => { live.destroy(err) })
    }
    stream.on('data', (chunk) => {
      started = true
      this.headersSent = true
      if (this.live === null) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
    })
    stream.once('end', () => {
      const body = Buffer.concat(chunks)
      const declared = headers['content-length']
      if (declared !== undefined && Number(declared) !== body.length) {
        // as over a socket: never more than the declared length, and the
        // response counts as failed (the engines end the connection)
        this.finish(statusCode, headers, body.subarray(0, Number(declared)))
        done(Object.assign(new Error('The response stream does not match its Content-Length'), { code: 'ERR_HTTP_CONTENT_LENGTH_MISMATCH' }))
        return
      }
      if (trailers === null) {
        this.finish(statusCode, headers, body, true)
        done(null)
        return
      }
      trailers((fields) => {
        this.finish(statusCode, headers, body, true, validTrailers(fields))
        done(null)
      })
    })
    stream.once('error', (err) => {
      if (started) {
        // what a client sees after a mid-stream failure: what came so far
        this.finish(statusCode, headers, Buffer.concat(chunks), true)
      }
      done(err)
    })
  }

  /**
   * @template T
   * @param {(arg: T, error: Error | null) => void} listener
   * @param {T} arg
   */
  onEnd (listener, arg) {
    if (this.finished) {
      queueMicrotask(() => listener(arg, null))
      return
    }
    this.endListener = listener
    this.endArg = arg
  }

  /** @param {import('../compat/guarded-emit.js').Owner} owner */
  compat (owner) {
    // the objects wire gives connect middleware, on a socket-less record
    if (this.compatRes === null) {
      const cres = this.compatRes = new CompatResponse(/** @type {any} */ (this), new CompatRequest(/** @type {any} */ (this.req), owner))
      // made once the response is written: it shows that answer, as
      // light-my-request's object does, and finishes now, its 'finish'
      // and 'close' on the next tick (as on wire)
      if (this.finished) {
        const answer = /** @type {InjectResult} */ (this.answer)
        this.showAnswer(cres, answer.statusCode, answer.headers)
      }
    } else if (requestOf(this.compatRes)._hotpath === UNOWNED) {
      adoptRequest(requestOf(this.compatRes), owner)
    }
    return this.compatRes
  }

  // ── the result ──────────────────────────────────────────────────────

  /**
   * @param {number} status
   * @param {Record<string, any>} headers
   * @param {Buffer} body
   * @param {boolean} [streamed]  a stream of no declared length: chunked, as a socket engine sends it
   * @param {Record<string, string>} [trailers]  the trailer section after the last chunk
   * @param {boolean} [lengthUnknown]  a HEAD answer with no body and no declared length: none is sent, as node:http sends none
   */
  finish (status, headers, body, streamed = false, trailers = {}, lengthUnknown = false) {
    if (this.finished) return
    this.finished = true
    this.headersSent = true
    this.state = 3
    const payload = this.req.method === 'HEAD' || status === 204 || status === 304 ? EMPTY : body
    /** @type {InjectResult} */
    let result
    if (this.early !== null) {
      result = this.early
      Object.assign(result.trailers, trailers)
    } else {
      const all = this.headersOf(status, headers, streamed, lengthUnknown, body.length)
      result = this.asStream
        ? this.result(status, all, null, trailers, Readable.from(payload.length > 0 ? [payload] : [], { objectMode: false }))
        : this.result(status, all, payload, trailers, null)
    }
    this.answer = result
    const listener = this.endListener
    if (listener !== null) {
      const arg = this.endArg
      this.endListener = null
      this.endArg = null
      queueMicrotask(() => listener(arg, null))
    }
    // On the next tick, as light-my-request resolves: what the request
    // queued for it runs first (a log stream that calls back on the next
    // tick has written the completion line when inject() resolves)
    const compat = this.compatRes
    if (compat === null || compat.ended) {
      process.nextTick(this.resolve, result)
      return
    }
    // As light-my-request does, the result comes after the response's
    // 'finish': what a middleware does on it (morgan's line) has happened
    // when inject() resolves.
    compat.once('close', () => process.nextTick(this.resolve, result))
    finishCompat(compat, null)
  }

  /**
   * The response's headers as a client reads them off the wire: strings
   * (lists stay lists), with the length or chunked framing, Date and
   * Connection a socket engine adds.
   * @param {number} status
   * @param {Record<string, any>} headers
   * @param {boolean} streamed
   * @param {boolean} lengthUnknown
   * @param {number} [bodyLength]  the body's length (a HEAD answer's too)
   */
  headersOf (status, headers, streamed, lengthUnknown, bodyLength = 0) {
    /** @type {Record<string, any>} */
    const all = {}
    const extra = this.extraHeaders
    // node's header table of the compat response: lower-case name → [name, value]
    if (extra !== null) for (const k of Object.keys(extra)) all[k] = wireValue(extra[k][1])
    for (const k of Object.keys(headers)) all[k.toLowerCase()] = wireValue(headers[k])
    if (!('content-length' in all) && status !== 204 && status !== 304 && !lengthUnknown) {
      if (streamed) all['transfer-encoding'] = 'chunked'
      else all['content-length'] = String(bodyLength)
    }
    // what a socket engine adds to every response, as light-my-request's
    // responses (node's ServerResponse) carry them
    this.headAdded = !('date' in all) || !('connection' in all)
    if (!('date' in all)) all.date = new Date().toUTCString()
    if (!('connection' in all)) all.connection = 'keep-alive'
    return all
  }

  /**
   * The Response app.inject() resolves with, as light-my-request's.
   * @param {number} status
   * @param {Record<string, any>} headers
   * @param {Buffer | null} payload  null with payloadAsStream
   * @param {Record<string, string>} trailers
   * @param {Readable | null} live  the body's stream, with payloadAsStream
   * @returns {InjectResult}
   */
  result (status, headers, payload, trailers, live) {
    const text = payload === null ? undefined : payload.toString('utf8')
    const handle = this
    return {
      statusCode: status,
      statusMessage: reasonPhrase(status, this.compatRes === null ? undefined : this.compatRes.statusMessage),
      headers,
      body: text,
      payload: text,
      rawPayload: payload ?? undefined,
      trailers,
      json () {
        if (text === undefined) throw new Error('Response payload is not available with payloadAsStream: true')
        return JSON.parse(text)
      },
      stream () {
        return live ?? Readable.from(/** @type {Buffer} */ (payload).length > 0 ? [payload] : [], { objectMode: false })
      },
      /** The Set-Cookie lines parsed (name, value, path, expires…), as light-my-request gives them. */
      get cookies () { return parseSetCookie(headers['set-cookie']) },
      get raw () { return handle.rawObjects(status, headers) }
    }
  }

  /**
   * A compat response made once the answer is known shows it, as node's
   * object shows a response it wrote: its status and phrase, and the
   * headers set on it, not the Date and Connection node adds to the head
   * alone; then it finishes.
   * @param {CompatResponse} cres
   * @param {number} status
   * @param {Record<string, any>} headers  the result's
   */
  showAnswer (cres, status, headers) {
    cres.statusCode = status
    cres.statusMessage = reasonPhrase(status)
    cres.coreHeaders = this.headAdded ? setHeadersOf(headers) : headers
    finishCompat(cres, null)
  }

  /**
   * node:http's request and response for this exchange, as
   * light-my-request's `raw`: the compat objects (../compat/), made now
   * if nothing asked for them during the request, showing the answer.
   * @param {number} status
   * @param {Record<string, any>} headers
   */
  rawObjects (status, headers) {
    if (this.rawPair !== null) return this.rawPair
    const made = this.compatRes === null
    const cres = this.compat(UNOWNED)
    // (payloadAsStream: asked for with the head, before the body finished)
    if (made && !this.finished) this.showAnswer(cres, status, headers)
    // light-my-request's payloadAsStream result has the response alone
    this.rawPair = this.asStream ? { req: undefined, res: cres } : { req: cres.req, res: cres }
    return this.rawPair
  }

  /**
   * The request's AbortSignal fired: a body still streaming to the result
   * (payloadAsStream) fails with its error.
   * @param {Error} err
   */
  abort (err) {
    const live = this.live
    if (live !== null && !live.readableEnded) {
      live.on('error', () => {})
      live.destroy(err)
    }
  }
}

/**
 * The headers of a result less the Date and Connection a socket engine adds.
 * @param {Record<string, any>} headers
 */
function setHeadersOf (headers) {
  const out = { ...headers }
  delete out.date
  delete out.connection
  return out
}

/**
 * @param {string | string[] | undefined} lines
 * @returns {object[]}
 */
function parseSetCookie (lines) {
  if (lines === undefined) return []
  // set-cookie-parser loads on the first read: inject() results that are
  // never asked for cookies do not carry it
  // values URL-decoded, as light-my-request gives them
  return loadModule('set-cookie-parser').parse(lines, { decodeValues: true })
}

/**
 * The trailer fields a socket engine would send: those whose name and value
 * pass the head's rules.
 * @param {Record<string, string>} fields
 */
function validTrailers (fields) {
  /** @type {Record<string, string>} */
  const out = {}
  for (const name of Object.keys(fields)) {
    try {
      validateHeaderName(name)
      validateHeaderValue(name, fields[name])
      out[name.toLowerCase()] = fields[name]
    } catch {}
  }
  return out
}

/** @param {unknown} v */
function wireValue (v) {
  return Array.isArray(v) ? v.map(String) : String(v)
}

// The rules both socket engines enforce when they write a head (node:http's
// own validators; wire's writer.js applies the same): a field name is a
// token (RFC 9110 §5.1); a value holds no CTL but HTAB, so CR/LF/NUL can
// never split a response (§5.5), and no character above 0xFF, which has no
// byte to stand for it. A socket refuses such a header; inject refuses it too.
/** @param {Record<string, any>} headers */
function checkHeaders (headers) {
  for (const name of Object.keys(headers)) {
    const v = headers[name]
    if (v === undefined) continue
    validateHeaderName(name)
    if (Array.isArray(v)) for (const item of v) validateHeaderValue(name, item)
    else validateHeaderValue(name, v)
  }
}
