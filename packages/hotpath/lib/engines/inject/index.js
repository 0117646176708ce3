// The inject engine: an Engine (../engine.js) with no server. app.inject()
// turns its options into an InjectRequest and hands it to the same entry
// point as the socket engines, so tests run the same dispatch and lifecycle
// without a socket.
import { EventEmitter } from 'node:events'
import { randomUUID } from 'node:crypto'
import { InjectRequest, InjectResponse } from './records.js'
import { requestHead, rawLines } from './options.js'
import { httpServerPrototype, originalEmit, emitRequest, continueIntoCore } from '../server-emit.js'
import { loadModule } from '../../require.js'

/**
 * The process's first inject() requires node:http, as Fastify's does (it
 * loads light-my-request then, which requires it): an instrumentation
 * that patches node:http when it is required (require-in-the-middle:
 * OpenTelemetry's instrumentation-http, APM agents) and was enabled after
 * hotpath loaded patches it there, and sees the requests that come after
 * (../server-emit.js), on Fastify and here alike.
 */
let httpRequired = false

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
   * One request, as light-my-request's options describe it and as it
   * sends them: the head from ./options.js, the payload by its kind.
   * @param {string | Record<string, any>} options
   * @returns {Promise<InjectResult>}
   */
  request (options) {
    if (!httpRequired) {
      httpRequired = true
      loadModule('node:http')
    }
    const handler = this.handler
    if (handler === null) return Promise.reject(new Error('the inject engine has no handler yet (ready() gives it one)'))
    const opts = typeof options === 'string' ? { url: options } : options ?? {}
    /** @type {import('./options.js').RequestHead} */
    let head
    try {
      head = requestHead(opts)
    } catch (err) {
      return Promise.reject(err)
    }
    const headers = head.headers
    // `payload || body`: an empty string, 0 or false sends no body
    let payload = opts.payload || opts.body || null
    /** @type {Promise<Buffer[]> | null} a body that has to be read before the request is sent */
    let reading = null
    let classic = false
    if (isFormData(payload)) {
      // sent as multipart/form-data, its boundary in the Content-Type,
      // which it replaces, chunked
      headers['content-type'] = `multipart/form-data; boundary=${formBoundary()}`
      headers['transfer-encoding'] = 'chunked'
      reading = encodeForm(payload, /** @type {string} */ (headers['content-type']).slice(30))
    } else if (payload !== null && typeof payload.resume === 'function') {
      // a stream: its bytes as they come, with the head as given (no
      // length); a classic one (data and end events once resumed, as the
      // npm form-data package's) is read before the request is sent, and
      // gets the length it had, as light-my-request reads it
      classic = payload._readableState === undefined
      reading = classic ? readClassic(payload) : readAll(payload)
    } else if (payload !== null && typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      payload = JSON.stringify(payload)
      if (!('content-type' in headers)) headers['content-type'] = 'application/json'
    }
    if (payload !== null && reading === null && !Object.hasOwn(headers, 'content-length')) headers['content-length'] = String(Buffer.byteLength(payload))
    const rawHeaders = rawLines(headers, head.lines)
    const build = (/** @type {Buffer[] | null} */ chunks) => {
      if (classic && chunks !== null) {
        // after the raw lines were taken, as light-my-request adds them
        headers['content-length'] = headers['content-length'] || String(byteLength(chunks))
        delete headers['transfer-encoding']
      }
      if (chunks === null && payload !== null) {
        const body = typeof payload === 'string' ? Buffer.from(payload) : /** @type {Buffer} */ (payload)
        chunks = opts.simulate?.split === true && body.length > 0 ? [body.subarray(0, 1), body.subarray(1)] : [body]
      }
      const req = new InjectRequest(head.method, head.url, headers, chunks, String(opts.remoteAddress || '127.0.0.1'), rawHeaders)
      // light-my-request's simulate.error: the body stream fails after its bytes
      if (opts.simulate?.error === true) req.bodyError = new Error('Simulated')
      return this.send(req, opts)
    }
    if (reading === null) return build(null)
    return reading.then(build)
  }

  /**
   * Hands the request to the core; the promise of its result. An abort of
   * `signal` rejects it unless the response finishes without waiting on
   * I/O (light-my-request destroys the request, and the response learns
   * of it ticks later: one answered by then is the result); with
   * `payloadAsStream` it also ends the body stream.
   * @param {InjectRequest} raw
   * @param {Record<string, any>} opts
   * @returns {Promise<InjectResult>}
   */
  send (raw, opts) {
    const handler = /** @type {import('../engine.js').RequestHandler} */ (this.handler)
    /** @type {AbortSignal | undefined} */
    const signal = opts.signal
    return new Promise((resolve, reject) => {
      let settled = false
      /** @type {(() => void) | null} */
      let onAbort = null
      const res = new InjectResponse(raw, (result) => {
        if (settled) return
        settled = true
        if (onAbort !== null && opts.payloadAsStream !== true) signal?.removeEventListener('abort', onAbort)
        resolve(result)
      }, opts.payloadAsStream === true)
      raw.onSocketDestroy = (err) => {
        if (res.finished) return
        // (a body given as a stream with the head, payloadAsStream, fails)
        res.abort(err)
        if (settled) return
        settled = true
        reject(err)
      }
      if (signal !== undefined && signal !== null) {
        onAbort = () => {
          const err = abortError(signal)
          res.abort(err)
          setImmediate(() => {
            if (settled) return
            settled = true
            reject(err)
          })
        }
        if (signal.aborted) onAbort()
        else signal.addEventListener('abort', onAbort, { once: true })
      }
      // an instrumentation wrapped node:http's emit: it sees the request
      if (httpServerPrototype.emit === originalEmit) handler(/** @type {any} */ (raw), /** @type {any} */ (res))
      else this.emitRequest(res)
    })
  }
}

/**
 * The error a stream destroyed by an AbortSignal fails with (node:stream's
 * addAbortSignal).
 * @param {AbortSignal} signal
 */
function abortError (signal) {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' })
}

/** @param {Buffer[]} chunks */
function byteLength (chunks) {
  let n = 0
  for (const c of chunks) n += c.length
  return n
}

/**
 * A FormData, the global one or another made to its shape (undici's), as
 * light-my-request tells one.
 * @param {any} v
 * @returns {v is FormData}
 */
function isFormData (v) {
  return v !== null && typeof v === 'object' && v[Symbol.toStringTag] === 'FormData' &&
    ['append', 'delete', 'get', 'getAll', 'has', 'set'].every((name) => typeof v[name] === 'function')
}

/** The boundary light-my-request gives a form: '----formdata-' and a UUID. */
function formBoundary () {
  return `----formdata-${randomUUID()}`
}

/**
 * The multipart/form-data body of a FormData, in the parts
 * light-my-request encodes it in (fetch's encoding: CRLF line ends, a
 * file's name and type).
 * @param {FormData} form
 * @param {string} boundary
 * @returns {Promise<Buffer[]>}
 */
async function encodeForm (form, boundary) {
  const prefix = `--${boundary}\r\nContent-Disposition: form-data`
  const escape = (/** @type {string} */ str) => str.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22')
  const lines = (/** @type {string} */ value) => value.replace(/\r?\n|\r/g, '\r\n')
  /** @type {Buffer[]} */
  const parts = []
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      parts.push(Buffer.from(`${prefix}; name="${escape(lines(name))}"\r\n\r\n${lines(value)}\r\n`))
      continue
    }
    let part = `${prefix}; name="${escape(lines(name))}"`
    if (value.name) part += `; filename="${escape(value.name)}"`
    part += `\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`
    parts.push(Buffer.from(part), Buffer.from(await value.arrayBuffer()), Buffer.from('\r\n'))
  }
  parts.push(Buffer.from(`--${boundary}--`))
  return parts
}

/**
 * A stream's chunks, as Buffers.
 * @param {AsyncIterable<Buffer | string>} stream
 * @returns {Promise<Buffer[]>}
 */
async function readAll (stream) {
  /** @type {Buffer[]} */
  const chunks = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return chunks
}

/**
 * A classic stream's chunks: one that emits data and end once resumed, and
 * has no async iterator (a Stream, the npm form-data package's
 * CombinedStream).
 * @param {any} stream
 * @returns {Promise<Buffer[]>}
 */
function readClassic (stream) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = []
    stream.on('data', (/** @type {any} */ chunk) => chunks.push(Buffer.from(chunk)))
    stream.on('end', () => resolve(chunks))
    stream.on('error', reject)
    stream.resume()
  })
}
