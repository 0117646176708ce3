// The contract suite runs every behaviour in each mode: through inject, and
// over a real socket on every engine. The wire engine joins automatically
// once lib/engines/wire/index.js exists.
import { existsSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { describe } from 'node:test'
import hotpath from '../../lib/index.js'

const wireIndex = new URL('../../lib/engines/wire/index.js', import.meta.url)

/** @type {('inject' | 'node' | 'wire')[]} */
export const MODES = ['inject', 'node', ...(existsSync(wireIndex) ? /** @type {const} */ (['wire']) : [])]
export const SOCKET_MODES = MODES.filter((m) => m !== 'inject')

/**
 * describe() once per mode.
 * @param {string} title
 * @param {(mode: 'inject' | 'node' | 'wire') => void} fn
 * @param {readonly ('inject' | 'node' | 'wire')[]} [modes]
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
 * @param {'inject' | 'node' | 'wire'} mode
 * @param {(app: any) => void | Promise<void>} build
 * @param {Record<string, any>} [options]  hotpath options
 */
export async function setup (mode, build, options = {}) {
  const app = hotpath({ ...options, ...(mode === 'inject' ? {} : { engine: mode }) })
  await build(app)
  await app.ready()
  /** @type {string | null} */
  let base = null
  if (mode !== 'inject') base = await app.listen({ port: 0, host: '127.0.0.1' })
  const port = base === null ? 0 : Number(new URL(base).port)
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
      return httpRequest(port, o)
    },
    close () {
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
        resolve({ statusCode: /** @type {number} */ (res.statusCode), headers: res.headers, body: text, json: () => JSON.parse(text) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body ?? undefined)
  })
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
