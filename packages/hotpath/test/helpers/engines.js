// The contract suite runs every behaviour in each mode: through inject, and
// over a real socket on every engine. The wire engine joins automatically
// once lib/engines/wire/index.js exists. 'h2' is the h2 engine
// (`http2: true`, cleartext with prior knowledge) read with node:http2's
// client.
import { existsSync } from 'node:fs'
import http from 'node:http'
import http2 from 'node:http2'
import net from 'node:net'
import { describe } from 'node:test'
import hotpath from '../../lib/index.js'

const wireIndex = new URL('../../lib/engines/wire/index.js', import.meta.url)

/** @typedef {'inject' | 'node' | 'wire' | 'h2'} Mode */

/**
 * inject and the HTTP/1.1 engines: for a suite about HTTP/1.1 itself
 * (its framing, Connection, raw bytes, node:http's client).
 * @type {Mode[]}
 */
export const HTTP1_MODES = ['inject', 'node', ...(existsSync(wireIndex) ? /** @type {const} */ (['wire']) : [])]
/** Every mode: what eachMode runs by default. @type {Mode[]} */
export const MODES = [...HTTP1_MODES, 'h2']
/**
 * The HTTP/1.1 engines over a real socket: the suites that use them write
 * HTTP/1.1 bytes (net.connect) or node:http's client.
 * @type {Mode[]}
 */
export const SOCKET_MODES = HTTP1_MODES.filter((m) => m !== 'inject')
/**
 * Every engine over a real socket, h2 among them: for a suite with an h2
 * form of what it does on a socket (s.h2.start() for a client that leaves).
 * @type {Mode[]}
 */
export const LISTENING_MODES = MODES.filter((m) => m !== 'inject')

/**
 * The hotpath option that picks a mode's engine, for a suite that builds
 * its app itself.
 * @param {Mode} mode
 * @returns {Record<string, any>}
 */
export function engineOption (mode) {
  if (mode === 'inject') return {}
  return mode === 'h2' ? { http2: true } : { engine: mode }
}

/**
 * describe() once per mode.
 * @param {string} title
 * @param {(mode: Mode) => void} fn
 * @param {readonly Mode[]} [modes]
 */
export function eachMode (title, fn, modes = MODES) {
  for (const mode of modes) describe(`${title} [${mode}]`, () => fn(mode))
}

/**
 * @typedef {object} Response
 * @property {number} statusCode
 * @property {Record<string, any>} headers
 * @property {string} body
 * @property {() => any} json
 */

/**
 * Builds an app, readies it (and listens, in a socket mode), and returns a
 * client that speaks to it the same way in every mode.
 * @param {Mode} mode
 * @param {(app: any) => void | Promise<void>} build
 * @param {Record<string, any>} [options]  hotpath options
 */
export async function setup (mode, build, options = {}) {
  const app = hotpath({ ...options, ...engineOption(mode) })
  await build(app)
  await app.ready()
  /** @type {string | null} */
  let base = null
  if (mode !== 'inject') base = await app.listen({ port: 0, host: '127.0.0.1' })
  const port = base === null ? 0 : Number(new URL(base).port)
  const h2 = mode === 'h2' ? new H2Client(port) : null
  return {
    app,
    mode,
    port,
    /**
     * @param {{ method?: string, url?: string, headers?: Record<string, any>, payload?: any } | string} opts
     * @returns {Promise<Response>}
     */
    request (opts) {
      const o = typeof opts === 'string' ? { url: opts } : opts
      if (base === null) return app.inject(o)
      if (h2 !== null) return h2.request(o)
      return httpRequest(port, o)
    },
    /** the HTTP/2 client of the h2 mode, null in the others */
    h2,
    async close () {
      // the client closes its session first, so close() finds none to wait
      // for (an open one is closed after its answer to the GOAWAY's PING,
      // or after a second without one)
      if (h2 !== null) await h2.close()
      return app.close()
    }
  }
}

/**
 * @param {number} port
 * @param {{ method?: string, url?: string, headers?: Record<string, any>, payload?: any }} o
 * @returns {Promise<Response>}
 */
export function httpRequest (port, o) {
  /** @type {Record<string, any>} */
  const headers = { ...o.headers }
  let body = null
  if (o.payload !== undefined) {
    if (typeof o.payload === 'string' || Buffer.isBuffer(o.payload)) body = o.payload
    else {
      body = JSON.stringify(o.payload)
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
    }
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.url ?? '/', headers, agent: false }, (res) => {
      /** @type {Buffer[]} */
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ statusCode: /** @type {number} */ (res.statusCode), statusMessage: res.statusMessage, headers: res.headers, body: text, json: () => JSON.parse(text) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}

/**
 * An HTTP/2 client on one session (opened on the first request, again after
 * the server ended it), answering in httpRequest's shape: the pseudo-header
 * fields are left out of `headers`.
 */
export class H2Client {
  /** @param {number} port */
  constructor (port) {
    this.port = port
    /** @type {import('node:http2').ClientHttp2Session | null} */
    this.session = null
  }

  /** @returns {import('node:http2').ClientHttp2Session} */
  open () {
    const current = this.session
    if (current !== null && !current.closed && !current.destroyed) return current
    const session = http2.connect(`http://127.0.0.1:${this.port}`)
    // a session the server ends fails the streams on it, which reject
    session.on('error', () => {})
    this.session = session
    return session
  }

  /**
   * @param {{ method?: string, url?: string, headers?: Record<string, any>, payload?: any }} o
   * @returns {Promise<Response & { bytes: Buffer, parts: number, trailers: Record<string, any> }>}
   */
  request (o) {
    /** @type {Record<string, any>} */
    const headers = {}
    for (const [name, value] of Object.entries(o.headers ?? {})) {
      // RFC 9113 §8.3.1: the authority goes in :authority, not Host
      if (name.toLowerCase() === 'host') headers[':authority'] = value
      else headers[name.toLowerCase()] = value
    }
    /** @type {string | Buffer | null} */
    let body = null
    if (o.payload !== undefined) {
      if (typeof o.payload === 'string' || Buffer.isBuffer(o.payload)) body = o.payload
      else {
        body = JSON.stringify(o.payload)
        if (headers['content-type'] === undefined) headers['content-type'] = 'application/json'
      }
      // node:http's client sends the length of a body given whole; so does this one
      if (headers['content-length'] === undefined) headers['content-length'] = Buffer.byteLength(body)
    }
    headers[':method'] = o.method ?? 'GET'
    headers[':path'] = o.url ?? '/'
    return new Promise((resolve, reject) => {
      let stream
      try {
        stream = this.open().request(headers, { endStream: body === null })
      } catch (err) {
        return reject(err)
      }
      /** @type {Record<string, any> | null} */
      let head = null
      /** @type {Buffer[]} */
      const chunks = []
      /** @type {Record<string, any>} */
      const trailers = {}
      stream.on('response', (h) => { head = h })
      // the fields alone, not node:http2's sensitiveHeaders symbol
      stream.on('trailers', (t) => { for (const [name, value] of Object.entries(t)) trailers[name] = value })
      stream.on('data', (c) => chunks.push(c))
      stream.on('error', (err) => reject(Object.assign(err, { rstCode: stream.rstCode })))
      // 'close' comes last, also after a reset with NO_ERROR that follows a whole answer
      stream.on('close', () => {
        if (head === null) return reject(Object.assign(new Error(`stream closed without a response (code ${stream.rstCode})`), { rstCode: stream.rstCode }))
        /** @type {Record<string, any>} */
        const fields = {}
        for (const [name, value] of Object.entries(head)) if (!name.startsWith(':')) fields[name] = value
        const bytes = Buffer.concat(chunks)
        const text = bytes.toString('utf8')
        resolve({ statusCode: Number(head[':status']), headers: fields, body: text, bytes, parts: chunks.length, trailers, json: () => JSON.parse(text) })
      })
      if (body !== null) stream.end(body)
    })
  }

  /** @returns {Promise<void>} once the session has ended */
  /**
   * A request whose stream the caller keeps: `leave()` resets it with
   * CANCEL, as a client that gives up on a request does on HTTP/2 (RFC 9113
   * §8.7: an aborted fetch), while the session goes on.
   * @param {{ method?: string, url?: string, headers?: Record<string, any>, body?: string }} o
   *   body: sent, with the stream left open after it
   */
  start (o) {
    const stream = this.open().request({ ...o.headers, ':method': o.method ?? 'GET', ':path': o.url ?? '/' })
    stream.on('error', () => {})
    if (o.body !== undefined) stream.write(o.body)
    return {
      stream,
      /** resolves with the first body bytes of the answer */
      firstData: /** @type {Promise<void>} */ (new Promise((resolve) => stream.once('data', () => resolve()))),
      leave () { stream.close(http2.constants.NGHTTP2_CANCEL) }
    }
  }

  close () {
    const session = this.session
    if (session === null || session.destroyed) return Promise.resolve()
    return new Promise((resolve) => session.close(() => resolve()))
  }
}

/**
 * Sends raw bytes and collects everything until the server closes the
 * connection or `ms` passes.
 * @param {number} port
 * @param {string | Buffer} bytes
 * @param {number} [ms]
 * @returns {Promise<string>}
 */
export function rawRequest (port, bytes, ms = 2000) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    /** @type {Buffer[]} */
    const chunks = []
    const timer = setTimeout(() => socket.destroy(), ms)
    socket.on('data', (c) => chunks.push(c))
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString('latin1'))
    })
    socket.on('error', (err) => {
      if (/** @type {any} */ (err).code === 'ECONNRESET') return
      reject(err)
    })
    socket.write(bytes)
  })
}
