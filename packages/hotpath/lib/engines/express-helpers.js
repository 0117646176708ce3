// The members Express adds to req and res that Express middleware calls
// (express-rate-limit answers through res.status().send() and keys on
// req.ip; passport redirects with res.redirect()), put on the prototypes of
// the objects hotpath gives middleware and `req.raw`/`reply.raw` on every
// engine: the compat pair (wire, inject) and node's subclasses of
// IncomingMessage/ServerResponse. Nothing here runs for a request that does
// not call it. They follow Express 5's definitions; the request's address,
// host and protocol come from hotpath's own request (its trustProxy setting)
// when the object belongs to one (`_hotpath`).

import { STATUS_CODES } from '../node-http.js'
import { parseQuery } from '../lifecycle/parsers/urlencoded.js'
import { shadowing } from './assignable.js'

/**
 * @typedef {object} OwnedRequest
 * @property {import('../lifecycle/request.js').Request} [_hotpath]
 * @property {Record<string, any>} headers
 * @property {string} url
 * @property {any} socket
 */

/**
 * @param {object} proto
 * @param {Record<string, PropertyDescriptor>} members
 */
function define (proto, members) {
  for (const name of Object.keys(members)) {
    if (!(name in proto)) Object.defineProperty(proto, name, { ...members[name], configurable: true, enumerable: false })
  }
}

/** @param {object} proto */
export function installExpressRequest (proto) {
  /** @type {Record<string, PropertyDescriptor>} */
  const members = {
    /** req.get(name): a header, case-insensitively; Referer and Referrer are one */
    get: {
      value: /** @this {OwnedRequest} @param {string} name */ function get (name) {
        const key = String(name).toLowerCase()
        if (key === 'referer' || key === 'referrer') return this.headers.referrer ?? this.headers.referer
        return this.headers[key]
      },
      writable: true
    },
    path: settable('path', function () {
      const url = /** @type {string} */ (this.url)
      const q = url.indexOf('?')
      return q === -1 ? url : url.slice(0, q)
    }),
    query: settable('query', function () {
      const url = /** @type {string} */ (this.url)
      const q = url.indexOf('?')
      return parseQuery(q === -1 ? '' : url.slice(q + 1))
    }),
    ip: settable('ip', function () {
      return this._hotpath !== undefined ? this._hotpath.ip : this.socket?.remoteAddress
    }),
    ips: settable('ips', function () {
      return this._hotpath !== undefined ? this._hotpath.ips.slice(1) : []
    }),
    hostname: settable('hostname', function () {
      if (this._hotpath !== undefined) return this._hotpath.hostname || undefined
      const host = this.headers.host
      return typeof host === 'string' ? host.replace(/:\d+$/, '') : undefined
    }),
    protocol: settable('protocol', function () {
      if (this._hotpath !== undefined) return this._hotpath.protocol
      return this.socket?.encrypted === true ? 'https' : 'http'
    }),
    secure: settable('secure', function () {
      return this.protocol === 'https'
    }),
    xhr: settable('xhr', function () {
      return String(this.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest'
    }),
    /** req.app: the Express application's settings, read from the hotpath app's options */
    app: settable('app', function () {
      return expressApp(this._hotpath?.route.app ?? null)
    })
  }
  members.header = members.get
  define(proto, members)
}

/** @param {object} proto */
export function installExpressResponse (proto) {
  define(proto, {
    /** res.app: the same settings as req.app */
    app: settable('app', function () {
      return this.req?.app ?? expressApp(null)
    }),
    status: method(function status (/** @type {number} */ code) {
      this.statusCode = code
      return this
    }),
    /** res.set(name, value) or res.set({ name: value }) */
    set: method(function set (/** @type {any} */ field, /** @type {any} */ value) {
      if (typeof field === 'object' && field !== null) {
        for (const k of Object.keys(field)) this.set(k, field[k])
        return this
      }
      const v = Array.isArray(value) ? value.map(String) : String(value)
      if (String(field).toLowerCase() === 'content-type' && typeof v === 'string' && !v.includes('charset') && /^text\//.test(v)) {
        this.setHeader(field, v + '; charset=utf-8')
      } else {
        this.setHeader(field, v)
      }
      return this
    }),
    header: method(function header (/** @type {any} */ field, /** @type {any} */ value) { return this.set(field, value) }),
    get: method(function get (/** @type {string} */ field) { return this.getHeader(field) }),
    append: method(function append (/** @type {string} */ field, /** @type {string | string[]} */ value) {
      const had = this.getHeader(field)
      if (had === undefined) return this.set(field, value)
      return this.set(field, [had, value].flat().map(String))
    }),
    type: method(function type (/** @type {string} */ value) {
      return this.set('content-type', value.includes('/') ? value : TYPES[value] ?? 'application/octet-stream')
    }),
    location: method(function location (/** @type {string} */ url) {
      return this.set('location', encodeURI(url).replace(/%25([0-9a-fA-F]{2})/g, '%$1'))
    }),
    vary: method(function vary (/** @type {string} */ field) {
      const had = String(this.getHeader('vary') ?? '')
      const list = had.split(',').map((s) => s.trim()).filter(Boolean)
      if (!list.includes('*') && !list.some((f) => f.toLowerCase() === field.toLowerCase())) list.push(field)
      return this.set('vary', list.join(', '))
    }),
    json: method(function json (/** @type {unknown} */ value) {
      if (!this.hasHeader('content-type')) this.setHeader('content-type', 'application/json; charset=utf-8')
      return this.send(JSON.stringify(value) ?? '')
    }),
    /** Express 5's res.send: a string as HTML unless typed, a Buffer as bytes, anything else as JSON */
    send: method(function send (/** @type {unknown} */ body) {
      /** @type {string | Buffer} */
      let data
      if (typeof body === 'string') {
        if (!this.hasHeader('content-type')) this.setHeader('content-type', 'text/html; charset=utf-8')
        data = body
      } else if (Buffer.isBuffer(body) || body instanceof Uint8Array) {
        if (!this.hasHeader('content-type')) this.setHeader('content-type', 'application/octet-stream')
        data = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
      } else if (body === null || body === undefined) {
        data = ''
      } else {
        return this.json(body)
      }
      const status = this.statusCode
      if (status === 204 || status === 304) {
        this.removeHeader('content-type')
        data = ''
      } else {
        this.setHeader('content-length', Buffer.byteLength(data))
      }
      if (this.req?.method === 'HEAD' || data.length === 0) this.end()
      else this.end(data)
      return this
    }),
    sendStatus: method(function sendStatus (/** @type {number} */ code) {
      this.statusCode = code
      this.type('txt')
      return this.send(STATUS_CODES[code] ?? String(code))
    }),
    /** res.redirect(url) or res.redirect(status, url); 302 by default */
    redirect: method(function redirect (/** @type {any} */ a, /** @type {any} */ b) {
      const url = typeof a === 'number' ? b : a
      const status = typeof a === 'number' ? a : 302
      this.location(url)
      this.statusCode = status
      const text = `${STATUS_CODES[status] ?? 'Redirecting'}. Redirecting to ${encodeURI(url)}`
      this.set('content-type', 'text/plain; charset=utf-8')
      return this.send(text)
    })
  })
}

/** @type {WeakMap<object, ExpressApp>} one settings object per hotpath app */
const apps = new WeakMap()
/** @type {ExpressApp | null} for objects that belong to no hotpath request */
let detached = null

/**
 * The object Express middleware reads as `req.app`: Express 5's settings
 * (app.get(name), enabled(), disabled(), set(), locals) with the values
 * the hotpath app's options give them. 'trust proxy' is hotpath's
 * `trustProxy`, as given (express-rate-limit refuses `true` and warns
 * when X-Forwarded-For arrives with `false`); the rest are Express 5's
 * defaults for what hotpath does too.
 * @param {{ initialConfig: Record<string, any>, routes: { routerOptions: { caseSensitive?: boolean, ignoreTrailingSlash?: boolean } } } | null} core
 */
function expressApp (core) {
  if (core === null) return (detached ??= new ExpressApp(false, true, false))
  let app = apps.get(core)
  if (app === undefined) {
    // the router's options as they apply (routerOptions' included, which
    // Fastify's initialConfig keeps apart from the top-level ones)
    const router = core.routes.routerOptions
    app = new ExpressApp(core.initialConfig.trustProxy, router.caseSensitive !== false, router.ignoreTrailingSlash === true)
    apps.set(core, app)
  }
  return app
}

class ExpressApp {
  /**
   * @param {unknown} trustProxy
   * @param {boolean} caseSensitive
   * @param {boolean} ignoreTrailingSlash
   */
  constructor (trustProxy, caseSensitive, ignoreTrailingSlash) {
    /** @type {Record<string, unknown>} */
    this.settings = {
      'trust proxy': trustProxy,
      env: process.env.NODE_ENV ?? 'development',
      'x-powered-by': false,
      etag: 'weak',
      'query parser': 'simple',
      'subdomain offset': 2,
      'case sensitive routing': caseSensitive,
      'strict routing': !ignoreTrailingSlash,
      'jsonp callback name': 'callback'
    }
    /** @type {Record<string, unknown>} */
    this.locals = { settings: this.settings }
    this.mountpath = '/'
  }

  /** @param {string} name */
  get (name) { return this.settings[name] }
  /** @param {string} name @param {unknown} value */
  set (name, value) { this.settings[name] = value; return this }
  /** @param {string} name */
  enabled (name) { return Boolean(this.settings[name]) }
  /** @param {string} name */
  disabled (name) { return !this.settings[name] }
  /** @param {string} name */
  enable (name) { return this.set(name, true) }
  /** @param {string} name */
  disable (name) { return this.set(name, false) }
}

const TYPES = /** @type {Record<string, string>} */ ({
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  xml: 'application/xml',
  bin: 'application/octet-stream'
})

/**
 * @param {(this: any, ...args: any[]) => any} fn
 * @returns {PropertyDescriptor}
 */
function method (fn) {
  return { value: fn, writable: true }
}

/**
 * A getter whose value a middleware may replace (Express 4 middleware
 * assigns req.query): the assignment becomes an own property of that
 * request.
 * @param {string} name
 * @param {(this: any) => unknown} get
 * @returns {PropertyDescriptor}
 */
function settable (name, get) {
  return { get, set: shadowing(name) }
}
