// app.inject(): runs a synthetic request through the same dispatch and
// pipeline as a socket request, on a small in-memory engine. No sockets
// (node:http lends only its header validators).
import { EventEmitter } from 'node:events'
import { validateHeaderName, validateHeaderValue } from 'node:http'
import { Readable } from 'node:stream'
import { CompatRequest, CompatResponse } from './compat.js'
import { dispatch } from '../routing/dispatch.js'
import { createError } from '../errors.js'
import { statusText } from '../status.js'

/**
 * @typedef {object} InjectResult
 * @property {number} statusCode
 * @property {string} statusMessage
 * @property {Record<string, string | number | string[]>} headers
 * @property {string} body
 * @property {string} payload
 * @property {Buffer} rawPayload
 * @property {() => any} json
 */

class InjectRequest {
  /**
   * @param {string} method
   * @param {string} url
   * @param {Record<string, string | string[]>} headers
   * @param {Buffer | null} body
   * @param {string} remoteAddress
   */
  constructor (method, url, headers, body, remoteAddress) {
    this.method = method
    this.url = url
    this.headers = headers
    this.httpVersion = '1.1'
    this.body = body
    this.remoteAddress = remoteAddress
    /** @type {Readable | null} */
    this.stream = null
    /** the whole body is known up front */
    this.complete = true
    /** @type {{ socket: InjectSocket } | null} set with the compat objects */
    this.conn = null
  }

  /** Only connect middleware reads it (CompatRequest). */
  get rawHeaders () {
    /** @type {string[]} */
    const out = []
    for (const name of Object.keys(this.headers)) {
      const v = this.headers[name]
      if (Array.isArray(v)) for (const item of v) out.push(name, item)
      else out.push(name, v)
    }
    return out
  }
}

/**
 * What middleware finds at req.socket / res.socket: an emitter with the
 * fields they read (on-finished listens on it), never written to.
 */
class InjectSocket extends EventEmitter {
  /** @param {string} remoteAddress */
  constructor (remoteAddress) {
    super()
    this.remoteAddress = remoteAddress
    this.remotePort = 0
    this.encrypted = false
    this.readable = true
    this.writable = true
    this.destroyed = false
  }

  destroy () {
    this.destroyed = true
    return this
  }

  setTimeout () { return this }
}

class InjectResponse {
  /**
   * @param {string} method
   * @param {(r: InjectResult) => void} resolve
   */
  constructor (method, resolve) {
    this.method = method
    this.resolve = resolve
    this.headersSent = false
    this.finished = false
    /** 0 pending, 3 finished (the field CompatResponse reads) */
    this.state = 0
    /** headers set through the compat object (connect middleware) */
    /** @type {Record<string, any> | null} */
    this.extraHeaders = null
    /** @type {CompatResponse | null} */
    this.compat = null
    /** @type {{ socket: InjectSocket } | null} */
    this.conn = null
    /** @type {((res: any, err: Error | null) => void) | null} */
    this.onFinish = null
  }

  /**
   * @param {number} status
   * @param {Record<string, any>} headers
   * @param {Buffer} body
   */
  finish (status, headers, body) {
    if (this.finished) return
    this.finished = true
    this.headersSent = true
    this.state = 3
    // Values as a client reads them off the wire: strings (lists stay lists).
    /** @type {Record<string, any>} */
    const all = {}
    const extra = this.extraHeaders
    if (extra !== null) for (const k of Object.keys(extra)) all[k.toLowerCase()] = wireValue(extra[k])
    for (const k of Object.keys(headers)) all[k.toLowerCase()] = wireValue(headers[k])
    const payload = this.method === 'HEAD' || status === 204 || status === 304 ? Buffer.alloc(0) : body
    if (!('content-length' in all) && status !== 204 && status !== 304) all['content-length'] = String(body.length)
    const text = payload.toString('utf8')
    this.resolve({
      statusCode: status,
      statusMessage: statusText(status),
      headers: all,
      body: text,
      payload: text,
      rawPayload: payload,
      json () { return JSON.parse(text) }
    })
    const cb = this.onFinish
    if (cb !== null) {
      this.onFinish = null
      queueMicrotask(() => cb(this, null))
    }
    const compat = this.compat
    if (compat !== null) queueMicrotask(() => compat.finish(null))
  }
}

/** @param {unknown} v */
function wireValue (v) {
  return Array.isArray(v) ? v.map(String) : String(v)
}

/** @returns {import('./engine.js').Engine} */
function createInjectEngine () {
  return {
    name: /** @type {any} */ ('inject'),
    server: /** @type {any} */ (null),
    setHandler () {},
    setUpgradeHandler () {},
    async listen () { throw new Error('the inject engine does not listen') },
    async close () {},
    remoteAddress (raw) { return /** @type {InjectRequest} */ (raw).remoteAddress },
    encrypted () { return false },
    hasBody (raw) {
      const body = /** @type {InjectRequest} */ (raw).body
      return body !== null && body.length > 0
    },
    contentLength (raw) {
      const body = /** @type {InjectRequest} */ (raw).body
      return body === null ? -1 : body.length
    },
    readBody (raw, limit, done) {
      const body = /** @type {InjectRequest} */ (raw).body ?? Buffer.alloc(0)
      if (body.length > limit) done(createError('HP_ERR_BODY_TOO_LARGE', limit))
      else done(null, body)
    },
    bodyStream (raw) {
      const r = /** @type {InjectRequest} */ (raw)
      if (r.stream === null) r.stream = Readable.from(r.body === null ? [] : [r.body])
      return r.stream
    },
    write (res, statusCode, headers, body) {
      checkHeaders(headers)
      const b = body === null ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body) : body
      ;/** @type {InjectResponse} */ (res).finish(statusCode, headers, b)
    },
    writeStream (res, statusCode, headers, stream, done) {
      checkHeaders(headers)
      const r = /** @type {InjectResponse} */ (res)
      /** @type {Buffer[]} */
      const chunks = []
      let started = false
      stream.on('data', (chunk) => {
        started = true
        r.headersSent = true
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
      })
      stream.once('end', () => {
        const body = Buffer.concat(chunks)
        const declared = headers['content-length']
        if (declared !== undefined && Number(declared) !== body.length) {
          // as over a socket: never more than the declared length, and the
          // response counts as failed (the engines end the connection)
          r.finish(statusCode, headers, body.subarray(0, Number(declared)))
          done(Object.assign(new Error('The response stream does not match its Content-Length'), { code: 'ERR_HTTP_CONTENT_LENGTH_MISMATCH' }))
          return
        }
        r.finish(statusCode, headers, body)
        done(null)
      })
      stream.once('error', (err) => {
        if (started) {
          // what a client sees after a mid-stream failure: what came so far
          r.finish(statusCode, headers, Buffer.concat(chunks))
        }
        done(err)
      })
    },
    headersSent (res) { return /** @type {InjectResponse} */ (res).headersSent },
    onFinish (res, cb) {
      const r = /** @type {InjectResponse} */ (res)
      if (r.finished) queueMicrotask(() => cb(res, null))
      else r.onFinish = cb
    },
    hijack (res) {
      const r = /** @type {InjectResponse} */ (res)
      // nothing will be written through hotpath: answer with what we have
      r.finish(r.compat === null ? 200 : r.compat.statusCode, {}, Buffer.alloc(0))
      return /** @type {any} */ (null)
    },
    compat (raw, res) {
      const r = /** @type {InjectResponse} */ (res)
      if (r.compat === null) {
        // the objects wire gives connect middleware, on a socket-less record
        const req = /** @type {InjectRequest} */ (raw)
        req.conn = r.conn = { socket: new InjectSocket(req.remoteAddress) }
        if (r.extraHeaders === null) r.extraHeaders = {}
        r.compat = new CompatResponse(this, /** @type {any} */ (r), new CompatRequest(/** @type {any} */ (req)))
      }
      return [r.compat.req, r.compat]
    },
    isClosing () { return false }
  }
}

// The rules both engines enforce when they write a head (node:http's own
// validators; wire's writer.js applies the same): a field name is a token
// (RFC 9110 §5.1); a value holds no CTL but HTAB, so CR/LF/NUL can never
// split a response (§5.5), and no character above 0xFF, which has no byte
// to stand for it. A socket refuses such a header; inject refuses it too.
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

/** @type {WeakMap<object, import('./engine.js').Engine>} */
const engines = new WeakMap()

/**
 * @param {any} app
 * @param {import('../app/core.js').Core} core
 * @param {string | Record<string, any>} options
 * @returns {Promise<InjectResult>}
 */
export async function inject (app, core, options) {
  const opts = typeof options === 'string' ? { url: options } : options ?? {}
  await app.ready()
  let engine = engines.get(core)
  if (engine === undefined) {
    engine = createInjectEngine()
    engines.set(core, engine)
  }
  const method = String(opts.method ?? 'GET').toUpperCase()
  let url = String(opts.url ?? opts.path ?? '/')
  if (/^https?:\/\//i.test(url)) {
    const u = new URL(url)
    url = u.pathname + u.search
  }
  if (opts.query !== undefined) {
    const qs = typeof opts.query === 'string' ? opts.query : toQueryString(opts.query)
    if (qs !== '') url += (url.includes('?') ? '&' : '?') + qs
  }
  /** @type {Record<string, string | string[]>} */
  const headers = {}
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (v === undefined) continue
    const key = k.toLowerCase()
    headers[key] = Array.isArray(v) ? (key === 'set-cookie' ? v.map(String) : v.join(', ')) : String(v)
  }
  if (headers.host === undefined) headers.host = 'localhost:80'
  if (headers['user-agent'] === undefined) headers['user-agent'] = 'hotpath-inject'
  /** @type {Buffer | null} */
  let body = null
  const payload = opts.payload ?? opts.body
  if (payload !== undefined && payload !== null) {
    if (typeof payload === 'string') body = Buffer.from(payload)
    else if (payload instanceof Uint8Array) body = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)
    else {
      body = Buffer.from(JSON.stringify(payload))
      if (headers['content-type'] === undefined) headers['content-type'] = 'application/json'
    }
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) headers['content-length'] = String(body.length)
  }
  const raw = new InjectRequest(method, url, headers, body, opts.remoteAddress ?? '127.0.0.1')
  const eng = engine
  return new Promise((resolve) => {
    const res = new InjectResponse(method, resolve)
    dispatch(core, eng, /** @type {any} */ (raw), res)
  })
}

/** @param {Record<string, unknown>} query */
function toQueryString (query) {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item))
    else if (v !== undefined) params.append(k, String(v))
  }
  return params.toString()
}
