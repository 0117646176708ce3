// The inject engine: an Engine (../engine.js) with no server. app.inject()
// turns its options into an InjectRequest and hands it to the same entry
// point as the socket engines, so tests run the same dispatch and lifecycle
// without a socket.
import { EventEmitter } from 'node:events'
import { InjectRequest, InjectResponse } from './records.js'
import { httpServerPrototype, originalEmit, emitRequest, continueIntoCore } from '../server-emit.js'

/** @typedef {import('./records.js').InjectResult} InjectResult */

export class InjectEngine {
  constructor () {
    /** @type {import('node:net').Server | null} */
    this.server = null
    /** @type {import('../engine.js').RequestHandler | null} */
    this.handler = null
    /** @type {EventEmitter | null} what emits the requests an instrumentation of node:http's emit sees (../server-emit.js) */
    this.emitter = null
  }

  // ── Engine (../engine.js) ───────────────────────────────────────────

  /** @param {import('../engine.js').RequestHandler} handler */
  setHandler (handler) {
    this.handler = handler
  }

  /** @returns {Promise<import('node:net').AddressInfo>} */
  async listen () {
    throw new Error('the inject engine does not listen')
  }

  async close () {}

  /**
   * A request, through the wrapped emit of node:http's Server, on this
   * engine's own emitter (there is no server).
   * @param {InjectResponse} res
   */
  emitRequest (res) {
    let emitter = this.emitter
    if (emitter === null) {
      emitter = this.emitter = new EventEmitter()
      emitter.on('request', continueIntoCore(this))
    }
    emitRequest(httpServerPrototype, emitter, res)
  }

  // ── the client side ─────────────────────────────────────────────────

  /**
   * One request, as light-my-request's options describe it.
   * @param {string | Record<string, any>} options
   * @returns {Promise<InjectResult>}
   */
  request (options) {
    const handler = this.handler
    if (handler === null) return Promise.reject(new Error('the inject engine has no handler yet (ready() gives it one)'))
    const opts = typeof options === 'string' ? { url: options } : options ?? {}
    const payload = opts.payload ?? opts.body
    // a stream payload (form-auto-content's, a file) is read first, then
    // sent as a body of that length
    if (isStream(payload)) return readAll(payload).then((body) => this.request({ ...opts, payload: body, body: undefined }))
    // a FormData payload is sent as multipart/form-data, its boundary in
    // the Content-Type, which it replaces (as light-my-request does)
    if (isFormData(payload)) return encodeForm(payload).then(({ body, type }) => this.request({ ...opts, payload: body, body: undefined, headers: { ...withoutContentType(opts.headers), 'content-type': type } }))
    const raw = requestFrom(opts)
    return new Promise((resolve) => {
      const res = new InjectResponse(raw, resolve)
      // an instrumentation wrapped node:http's emit: it sees the request
      if (httpServerPrototype.emit === originalEmit) handler(/** @type {any} */ (raw), /** @type {any} */ (res))
      else this.emitRequest(res)
    })
  }
}

/**
 * A FormData, the global one or another made to its shape (undici's).
 * @param {unknown} v
 * @returns {v is FormData}
 */
function isFormData (v) {
  return v !== null && typeof v === 'object' && (/** @type {any} */ (v))[Symbol.toStringTag] === 'FormData' && typeof (/** @type {any} */ (v)).entries === 'function'
}

/**
 * The multipart/form-data body of a FormData and its Content-Type, as the
 * fetch API encodes it.
 * @param {FormData} form
 * @returns {Promise<{ body: Buffer, type: string }>}
 */
async function encodeForm (form) {
  const response = new Response(form)
  const body = Buffer.from(await response.arrayBuffer())
  return { body, type: /** @type {string} */ (response.headers.get('content-type')) }
}

/**
 * @param {Record<string, any> | undefined} headers
 * @returns {Record<string, any>}
 */
function withoutContentType (headers) {
  /** @type {Record<string, any>} */
  const out = {}
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() !== 'content-type') out[k] = v
  return out
}

/** @param {unknown} v */
function isStream (v) {
  return v !== null && typeof v === 'object' && typeof (/** @type {any} */ (v)).pipe === 'function' && typeof (/** @type {any} */ (v)).on === 'function'
}

/**
 * @param {AsyncIterable<Buffer | string>} stream
 * @returns {Promise<Buffer>}
 */
async function readAll (stream) {
  /** @type {Buffer[]} */
  const chunks = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks)
}

/** @param {Record<string, any>} opts */
function requestFrom (opts) {
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
  // `cookies`, as light-my-request takes them: each value URL-encoded, after
  // any Cookie header given
  if (opts.cookies !== undefined && opts.cookies !== null) {
    const pairs = Object.entries(opts.cookies).map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    if (headers.cookie !== undefined) pairs.unshift(String(headers.cookie))
    if (pairs.length > 0) headers.cookie = pairs.join('; ')
  }
  if (headers.host === undefined) headers.host = 'localhost:80'
  if (headers['user-agent'] === undefined) headers['user-agent'] = 'lightMyRequest'
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
  const req = new InjectRequest(method, url, headers, body, opts.remoteAddress ?? '127.0.0.1')
  // light-my-request's simulate.error: the body stream fails after its bytes
  if (opts.simulate?.error === true) req.bodyError = new Error('Simulated')
  return req
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
