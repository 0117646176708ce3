// Fastify's Reply constructor (`require('fastify/lib/reply')`) for a reply
// built outside any route, around Node's response: NestJS's adapter answers
// an exception thrown in its middleware with
//   new Reply(res, { [kRouteContext]: { onSend: [], … } }, log)
// then status(), header(), getHeader(), sent and send(). hotpath's own
// replies are made by its dispatch for a route (reply/reply.js); this one
// has no route, so it does what Fastify's does without one: it keeps its
// headers, serializes what it is sent as Fastify would (objects as JSON,
// strings as text/plain, bytes as application/octet-stream, streams piped),
// runs the context's onSend hooks, and writes the head and body on `res`.
// Checked beside Fastify's own by test/fastify-internals.test.js.
import { Readable } from 'node:stream'
import { createFastifyError } from '../errors.js'
import { lowerCaseName } from '../reply/header-name.js'
import { kRouteContext } from './symbols.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'
const OCTET_TYPE = 'application/octet-stream'

class Reply {
  /**
   * @param {any} res       Node's ServerResponse (or one of hotpath's)
   * @param {any} request   the request it answers; request[kRouteContext] may hold onSend hooks
   * @param {any} [log]
   */
  constructor (res, request, log) {
    this.raw = res
    this.request = request
    this.log = log
    /** @type {Record<string, any>} lower-case name → value, written with the head */
    this._headers = {}
    this._hijacked = false
  }

  get statusCode () {
    return this.raw.statusCode
  }

  set statusCode (code) {
    this.code(code)
  }

  /** true once the answer was written, or the reply hijacked (Fastify's) */
  get sent () {
    return this._hijacked || this.raw.writableEnded === true
  }

  get [kRouteContext] () {
    return this.request?.[kRouteContext]
  }

  /** @param {number | string} code */
  code (code) {
    const status = Number(code)
    if (!Number.isInteger(status) || status < 100 || status > 599) throw createFastifyError('HP_ERR_BAD_STATUS_CODE', String(code))
    this.raw.statusCode = status
    return this
  }

  /** @param {number | string} code */
  status (code) {
    return this.code(code)
  }

  /** @param {string} name @param {any} [value] */
  header (name, value = '') {
    const key = lowerCaseName(name)
    const had = this._headers[key]
    this._headers[key] = key === 'set-cookie' && had !== undefined ? [].concat(had, value) : value
    return this
  }

  /** @param {Record<string, any>} headers */
  headers (headers) {
    for (const name of Object.keys(headers)) this.header(name, headers[name])
    return this
  }

  /** @param {string} name */
  getHeader (name) {
    const key = lowerCaseName(name)
    const value = this._headers[key]
    return value !== undefined ? value : this.raw.getHeader(key)
  }

  getHeaders () {
    return { ...this.raw.getHeaders(), ...this._headers }
  }

  /** @param {string} name */
  hasHeader (name) {
    const key = lowerCaseName(name)
    return this._headers[key] !== undefined || this.raw.hasHeader(key)
  }

  /** @param {string} name */
  removeHeader (name) {
    delete this._headers[lowerCaseName(name)]
    return this
  }

  /** @param {string} type */
  type (type) {
    this._headers['content-type'] = type
    return this
  }

  /** @param {string} url @param {number} [code] */
  redirect (url, code) {
    this.header('location', url)
    this.code(code ?? (this.raw.statusCode !== 200 ? this.raw.statusCode : 302))
    return this.send()
  }

  hijack () {
    this._hijacked = true
    return this
  }

  /** @param {any} payload */
  serialize (payload) {
    return JSON.stringify(payload)
  }

  /** @param {any} [payload] */
  send (payload) {
    if (this.sent) {
      this.log?.warn?.({ err: createFastifyError('HP_ERR_REP_ALREADY_SENT', this.request?.url, this.request?.method) })
      return this
    }
    if (payload instanceof Error) return sendError(this, payload)
    if (payload === undefined) return onSend(this, payload)
    const type = this.getHeader('content-type')
    if (payload !== null) {
      if (typeof payload.pipe === 'function' || typeof payload.getReader === 'function' ||
        Object.prototype.toString.call(payload) === '[object Response]') return onSend(this, payload)
      if (ArrayBuffer.isView(payload)) {
        if (type === undefined) this._headers['content-type'] = OCTET_TYPE
        return onSend(this, Buffer.isBuffer(payload) ? payload : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength))
      }
      if (type === undefined && typeof payload === 'string') {
        this._headers['content-type'] = TEXT_TYPE
        return onSend(this, payload)
      }
    }
    if (type === undefined) {
      this._headers['content-type'] = JSON_TYPE
    } else if (String(type).includes('json')) {
      // a JSON type without a charset gets utf-8's, as Fastify's does
      if (!/;\s*charset\s*=/i.test(String(type))) this._headers['content-type'] = `${String(type).replace(/;\s*$/, '')}; charset=utf-8`
    } else {
      return onSend(this, payload)
    }
    return onSend(this, typeof payload === 'string' ? payload : this.serialize(payload))
  }
}

/**
 * An error sent with no route: Fastify's default answer for it (its status
 * when it carries a 4xx/5xx one, else 500, and {statusCode, code?, error,
 * message}).
 * @param {Reply} reply @param {any} err
 */
function sendError (reply, err) {
  const status = Number(err.statusCode ?? err.status)
  const code = Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500
  reply.raw.statusCode = code
  reply._headers['content-type'] = JSON_TYPE
  /** @type {Record<string, unknown>} */
  const body = { statusCode: code }
  if (typeof err.code === 'string') body.code = err.code
  body.error = ERROR_NAMES[code] ?? 'Error'
  body.message = err.message
  return onSend(reply, JSON.stringify(body))
}

const ERROR_NAMES = /** @type {Record<number, string>} */ ({
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout'
})

/**
 * The context's onSend hooks, in order, each (request, reply, payload,
 * done) or returning a promise of the new payload; then the answer.
 * @param {Reply} reply @param {any} payload
 */
function onSend (reply, payload) {
  const hooks = reply.request?.[kRouteContext]?.onSend
  if (!Array.isArray(hooks) || hooks.length === 0) {
    write(reply, payload)
    return reply
  }
  let index = 0
  const next = (/** @type {any} */ err, /** @type {any} */ value = undefined) => {
    if (err) return sendError(reply, err)
    if (value !== undefined) payload = value
    if (index === hooks.length) return write(reply, payload)
    const hook = hooks[index++]
    let settled = false
    const done = (/** @type {any} */ e, /** @type {any} */ v = undefined) => { if (!settled) { settled = true; next(e, v) } }
    try {
      const result = hook.call(reply.request?.server, reply.request, reply, payload, done)
      if (result && typeof result.then === 'function') result.then((/** @type {any} */ v) => done(null, v), done)
    } catch (e) {
      done(e)
    }
  }
  next(null, undefined)
  return reply
}

/** @param {Reply} reply @param {any} payload */
function write (reply, payload) {
  const res = reply.raw
  if (res.writableEnded === true) return
  const headers = reply._headers
  if (payload === undefined || payload === null) {
    const status = res.statusCode
    if (payload === null) payload = 'null'
    else if (status >= 200 && status !== 204 && status !== 304 && reply.request?.method !== 'HEAD' &&
      headers['transfer-encoding'] === undefined) headers['content-length'] = '0'
  }
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    if (headers['content-length'] === undefined && !res.hasHeader('content-length')) headers['content-length'] = String(Buffer.byteLength(payload))
    res.writeHead(res.statusCode, headers)
    res.end(payload)
    return
  }
  if (payload === undefined) {
    res.writeHead(res.statusCode, headers)
    res.end()
    return
  }
  if (Object.prototype.toString.call(payload) === '[object Response]') {
    res.statusCode = payload.status
    for (const [name, value] of payload.headers) if (headers[name] === undefined) headers[name] = value
    payload = payload.body ?? Readable.from([])
  }
  if (typeof payload.getReader === 'function') payload = Readable.fromWeb(payload)
  if (typeof payload.pipe === 'function') {
    res.writeHead(res.statusCode, headers)
    payload.on('error', (/** @type {Error} */ err) => {
      reply.log?.warn?.({ err }, 'response stream errored')
      res.destroy(err)
    })
    res.on('close', () => { if (!payload.destroyed && payload.readableEnded !== true) payload.destroy() })
    payload.pipe(res)
    return
  }
  throw createFastifyError('HP_ERR_REP_INVALID_PAYLOAD_TYPE', typeof payload)
}

export { Reply as 'module.exports' }
export default Reply
