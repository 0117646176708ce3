// Runs each test in the three modes the hotpath contract suite uses
// (packages/hotpath/test/helpers/engines.js): through inject (no socket),
// and over a socket on the node and wire engines. Every client call here is
// bounded by a timeout, so a request the server never answers fails the
// test instead of hanging it.
import http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe } from 'node:test'
import { buildApp } from '../app.js'

/** @typedef {'inject' | 'node' | 'wire'} Mode */

/** @type {Mode[]} */
export const MODES = ['inject', 'node', 'wire']
/** @type {Mode[]} */
export const SOCKET_MODES = ['node', 'wire']

/** ms a single request may take before the test gives up on it */
export const REQUEST_TIMEOUT = 5000

/**
 * describe() once per mode, each bounded as a whole.
 * @param {string} title
 * @param {(mode: Mode) => void} fn
 * @param {readonly Mode[]} [modes]
 */
export function eachMode (title, fn, modes = MODES) {
  for (const mode of modes) describe(`${title} [${mode}]`, { timeout: 30_000 }, () => fn(mode))
}

/**
 * @typedef {object} Response
 * @property {number} statusCode
 * @property {Record<string, any>} headers
 * @property {string[]} rawHeaders  names and values as received (inject: from its headers)
 * @property {string} body
 * @property {Buffer} bytes  the body as received (still compressed, say)
 * @property {() => any} json
 */

/**
 * @typedef {object} RequestOptions
 * @property {string} [method]
 * @property {string} [url]
 * @property {Record<string, any>} [headers]
 * @property {string | Buffer | object} [payload]  an object is sent as JSON
 * @property {string} [remoteAddress]  inject only: the client address the app sees
 * @property {number} [timeout]
 */

/**
 * Builds the example app for a mode, readies it (and listens on
 * 127.0.0.1, port 0, in a socket mode), and returns a client that speaks to
 * it the same way in every mode.
 * @param {Mode} mode
 * @param {import('../app.js').Settings} [settings]
 * @param {Record<string, any>} [options]  hotpath options
 */
export async function setup (mode, settings = {}, options = {}) {
  // multer creates its folder when the app is built: one of the test's
  // own, removed at close(), unless the test brings one
  const uploadDir = settings.uploadDir === undefined ? mkdtempSync(join(tmpdir(), 'hotpath-mw-')) : null
  const app = buildApp({ ...options, ...(mode === 'inject' ? {} : { engine: mode }) }, { logStream: { write () {} }, ...(uploadDir === null ? {} : { uploadDir }), ...settings })
  await app.ready()
  let port = 0
  if (mode !== 'inject') port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port)
  return {
    app,
    mode,
    port,
    /** @param {RequestOptions | string} opts */
    request (opts) {
      const o = typeof opts === 'string' ? { url: opts } : opts
      return mode === 'inject' ? injectRequest(app, o) : httpRequest(port, o)
    },
    async close () {
      await app.close()
      if (uploadDir !== null) rmSync(uploadDir, { recursive: true, force: true })
    }
  }
}

/**
 * @param {any} app
 * @param {RequestOptions} o
 * @returns {Promise<Response>}
 */
async function injectRequest (app, o) {
  const ms = o.timeout ?? REQUEST_TIMEOUT
  /** @type {NodeJS.Timeout | undefined} */
  let timer
  const timedOut = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`inject ${o.method ?? 'GET'} ${o.url} got no answer in ${ms} ms`)), ms)
  })
  try {
    const r = await Promise.race([app.inject({ method: o.method, url: o.url, headers: o.headers, payload: o.payload, remoteAddress: o.remoteAddress }), timedOut])
    /** @type {string[]} */
    const rawHeaders = []
    for (const [name, value] of Object.entries(r.headers)) for (const v of [value].flat()) rawHeaders.push(name, String(v))
    return { statusCode: r.statusCode, headers: r.headers, rawHeaders, body: r.body, bytes: r.rawPayload, json: () => JSON.parse(r.body) }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * @param {number} port
 * @param {RequestOptions} o
 * @returns {Promise<Response>}
 */
export function httpRequest (port, o) {
  /** @type {Record<string, any>} */
  const headers = { ...o.headers }
  /** @type {string | Buffer | null} */
  let body = null
  if (o.payload !== undefined) {
    if (typeof o.payload === 'string' || Buffer.isBuffer(o.payload)) body = o.payload
    else {
      body = JSON.stringify(o.payload)
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
    }
  }
  const ms = o.timeout ?? REQUEST_TIMEOUT
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.url ?? '/', headers, agent: false }, (res) => {
      /** @type {Buffer[]} */
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        clearTimeout(timer)
        const bytes = Buffer.concat(chunks)
        const text = bytes.toString('utf8')
        resolve({ statusCode: /** @type {number} */ (res.statusCode), headers: res.headers, rawHeaders: res.rawHeaders, body: text, bytes, json: () => JSON.parse(text) })
      })
      res.on('error', fail)
    })
    const timer = setTimeout(() => fail(new Error(`${o.method ?? 'GET'} ${o.url} got no complete answer in ${ms} ms`)), ms)
    /** @param {Error} err */
    function fail (err) {
      clearTimeout(timer)
      req.destroy()
      reject(err)
    }
    req.on('error', fail)
    req.end(body ?? undefined)
  })
}

/**
 * How many times a field came in the response head (node's client keeps
 * only the first of some, such as Date, in `headers`).
 * @param {Response} res
 * @param {string} name
 */
export function fieldCount (res, name) {
  let n = 0
  for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() === name) n++
  return n
}

/**
 * The Cookie header a browser would send back, from Set-Cookie values.
 * @param {string | string[] | undefined} setCookie
 */
export function cookieHeader (setCookie) {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]
  return list.map((c) => c.split(';')[0]).join('; ')
}

/**
 * A multipart/form-data body.
 * @param {Record<string, string>} fields
 * @param {{ field: string, name: string, type: string, data: Buffer }[]} files
 */
export function multipart (fields, files) {
  const boundary = '----hotpath-example-' + Math.random().toString(16).slice(2)
  /** @type {Buffer[]} */
  const parts = []
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.data, Buffer.from('\r\n'))
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** @param {number} ms */
export function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Polls until check() is true or `ms` passes; returns the last result.
 * @param {() => boolean | Promise<boolean>} check
 * @param {number} [ms]
 */
export async function eventually (check, ms = 2000) {
  const end = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > end) return false
    await sleep(20)
  }
}
