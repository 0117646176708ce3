// The request object handed to hooks and handlers. Every field is assigned
// in the constructor, in one order, so all requests share one hidden class;
// anything that costs work (query, ip, hostname, id, log, signal) is
// computed on first read.
import { parseQuery } from './parsers/urlencoded.js'
import { ensureFinishListener } from './finish.js'
import { proxyAddress, proxyAddresses } from './proxy.js'
import { NOOP_LOGGER } from '../logger.js'
import { mediaType } from './parsers/content-type.js'
import { compiledValidator } from '../routing/schema.js'
import { kRouteContext } from '../fastify-internals/symbols.js'

export class Request {
  /**
   * @param {import('../engines/engine.js').RawRequest} raw
   * @param {Record<string, string>} params
   * @param {import('../routing/route.js').Route} route
   */
  constructor (raw, params, route) {
    /** the engine's request record (../engines/engine.js, RawRequest) */
    this._incoming = raw
    this.params = params
    /** @type {unknown} */
    this.body = undefined
    this.method = raw.method
    this.url = raw.url
    /** @type {import('../routing/route.js').Route} */
    this.route = route
    /** @type {import('../reply/reply.js').Reply} */
    this.reply = /** @type {any} */ (null)
    /** @type {string | undefined} */
    this._id = undefined
    /** the request's number under Fastify's default ids (0: the route's ids come from elsewhere); the string is made on first read */
    this._seq = route !== null && route.countsIds ? ++route.app.requestCount : 0
    /** @type {Record<string, string | string[]> | undefined} */
    this._query = undefined
    /** @type {import('pino').Logger | undefined} */
    this._log = undefined
    /** @type {AbortController | undefined} */
    this._controller = undefined
  }

  /**
   * node:http's IncomingMessage for this request: itself on the node
   * engine; on wire and under inject a compatible object built on this
   * first read (../engines/compat/request.js), so a route that never reads it
   * allocates nothing for it.
   * @returns {import('node:http').IncomingMessage}
   */
  get raw () {
    return this.reply.raw.req
  }

  /**
   * A plain field on Fastify's request: a plugin may put another object
   * in its place (@fastify/express a Proxy of it), which user code then
   * reads; the core keeps reading the engine's record.
   * @param {import('node:http').IncomingMessage} value
   */
  set raw (value) {
    Object.defineProperty(this, 'raw', { value, writable: true, configurable: true, enumerable: true })
  }

  /**
   * node:http builds IncomingMessage.headers from rawHeaders on first read;
   * a route that never looks at headers never pays for it.
   */
  get headers () {
    return this._incoming.headers
  }

  set headers (value) {
    this._incoming.headers = value
  }

  /** The URL as received: before rewriteUrl, when the app sets it (Fastify's originalUrl). */
  get originalUrl () {
    return this._incoming.originalUrl ?? this.url
  }

  /** The path without the query string. */
  get path () {
    const url = this.url
    const q = url.indexOf('?')
    return q === -1 ? url : url.slice(0, q)
  }

  /** The query string after '?', '' when there is none. */
  get querystring () {
    const url = this.url
    const q = url.indexOf('?')
    return q === -1 ? '' : url.slice(q + 1)
  }

  get query () {
    if (this._query === undefined) this._query = parseQuery(this.querystring)
    return this._query
  }

  set query (value) {
    this._query = value
  }

  get id () {
    if (this._id === undefined) {
      const route = this.route
      // an application's genReqId gets node:http's IncomingMessage, as in
      // Fastify (built on wire and inject for the purpose); hotpath's own
      // needs nothing from the request but the id header
      this._id = this._seq !== 0 ? 'req-' + this._seq.toString(36) : route.genReqId(route.idFromRaw && this.reply !== null ? this.raw : this._incoming)
    }
    return this._id
  }

  set id (value) {
    this._id = value
  }

  /** @returns {import('pino').Logger} */
  get log () {
    if (this._log === undefined) {
      const route = this.route
      const logger = route.logger
      const made = route.childLoggerFactory === null ? null : route.childLogger(this)
      if (made === null || made instanceof Error) this._log = logger === null ? NOOP_LOGGER : logger.child({ [route.app.requestIdLogLabel]: this.id })
      else this._log = /** @type {import('pino').Logger} */ (made)
      // what the factory returned is not a logger: the request fails, and
      // its error is logged through the logger it would have had
      if (made instanceof Error) throw made
    }
    return this._log
  }

  set log (value) {
    this._log = value
  }

  /** The connection's socket (Fastify's request.socket). */
  get socket () {
    return this._incoming.socket
  }

  /** The client address, honouring trustProxy. */
  get ip () {
    const app = this.route.app
    const socketAddress = this._incoming.socket.remoteAddress
    if (app.trustProxy === null) return socketAddress
    return proxyAddress(socketAddress, this.headers['x-forwarded-for'], app.trustProxy)
  }

  /** The socket peer, then the forwarded hops trustProxy vouches for, closest first. */
  get ips () {
    return proxyAddresses(this._incoming.socket.remoteAddress, this.headers['x-forwarded-for'], this.route.app.trustProxy)
  }

  /**
   * The host the client asked for, port included, honouring trustProxy
   * (Fastify 5's request.host); '' when the request names none (HTTP/1.0
   * without Host, an empty Host, a headers schema that removed it).
   */
  get host () {
    // HTTP/2 names it in :authority (RFC 9113 §8.3.1)
    let host = this.headers.host ?? this.headers[':authority']
    if (this.route.app.trustProxy !== null) {
      const fwd = this.headers['x-forwarded-host']
      if (typeof fwd === 'string' && isTrustedPeer(this)) host = lastEntry(fwd)
    }
    return typeof host === 'string' ? host : ''
  }

  /** The host the client asked for, without the port, honouring trustProxy ('' when none). */
  get hostname () {
    const host = this.host
    if (host.charCodeAt(0) === 91) { // '[': IPv6 literal
      const end = host.indexOf(']')
      return end === -1 ? host : host.slice(0, end + 1)
    }
    const colon = host.indexOf(':')
    return colon === -1 ? host : host.slice(0, colon)
  }

  /**
   * The port `host` names; null when it names none (a forwarded host
   * without a port is not given the Host header's, the port of the hop
   * before this server), as in Fastify.
   */
  get port () {
    return portOf(this.host)
  }

  get protocol () {
    // a trusted proxy's word first, as in Fastify: the scheme the client
    // used with it, TLS or not between it and this server
    if (this.route.app.trustProxy !== null && isTrustedPeer(this)) {
      const proto = this.headers['x-forwarded-proto']
      if (typeof proto === 'string') return lastEntry(proto).toLowerCase()
    }
    return this._incoming.socket.encrypted === true ? 'https' : 'http'
  }

  /**
   * The request's Content-Type without its parameters, lower case
   * ('application/json'); undefined when it has none or it is not a
   * media type (RFC 9110 §8.3.1).
   */
  get mediaType () {
    const header = this.headers['content-type']
    return typeof header === 'string' ? mediaType(header) ?? undefined : undefined
  }

  /** Aborted when the client goes away or the request times out. */
  get signal () {
    let controller = this._controller
    if (controller === undefined) {
      controller = this._controller = new AbortController()
      ensureFinishListener(this.reply)
    }
    return controller.signal
  }

  /**
   * The route's options as declared (url, method, schema…), with the body
   * limit that applies and `config` (always an object, with the route's
   * url and method added, as in Fastify).
   */
  get routeOptions () {
    const options = this.route.requestOptions
    // the version asked for, as Fastify reports it, once a route is
    // constrained by version (a copy then; the route's object otherwise)
    return this.route.app.routes.versioned ? { ...options, version: this.headers['accept-version'] } : options
  }

  /**
   * Fastify's route context (request[kRouteContext], its symbol from
   * hotpath/fastify/lib/symbols): the route's record, whose hook arrays
   * (null when empty), handler and config are Fastify's context's.
   */
  get [kRouteContext] () {
    return this.route
  }

  /** No route matched: the request is the not-found handler's (Fastify's request.is404). */
  get is404 () {
    return this.route.notFound
  }

  /** The instance of the plugin that declared the route (Fastify's request.server). */
  get server () {
    return this.route.instance
  }

  /**
   * The validator the route compiled for a part of the request ('params',
   * 'querystring' or 'query', 'headers', 'body'), or the one
   * compileValidationSchema() made for a schema; undefined when there is
   * none.
   * @param {string | object} partOrSchema
   */
  getValidationFunction (partOrSchema) {
    const route = this.route
    if (typeof partOrSchema === 'string') return partValidator(route, partOrSchema)
    if (partOrSchema !== null && typeof partOrSchema === 'object') return route.validatorCache?.get(partOrSchema)
    return undefined
  }

  /**
   * A validator for `schema` from the route's validator compiler (its own,
   * its plugin scope's, else hotpath's), compiled on first use and kept by
   * the route for the next request that asks.
   * @param {object} schema
   * @param {string | null} [httpPart]
   */
  compileValidationSchema (schema, httpPart = null) {
    const route = this.route
    const known = route.validatorCache?.get(schema)
    if (known !== undefined) return known
    const compiler = route.validatorCompiler ?? route.context.schemaController.setupValidator(route.app.ajvOptions)
    const validate = compiler({ schema, method: this.method, url: this.url, httpPart })
    ;(route.validatorCache ??= new WeakMap()).set(schema, validate)
    return validate
  }

  /**
   * Validates `input` with the route's validator for a part
   * (validateInput(input, 'body')), or with one for `schema`
   * (validateInput(input, schema, part?)), compiled once; answers what the
   * validator answers.
   * @param {unknown} input
   * @param {object | string} [schema]
   * @param {string} [httpPart]
   */
  validateInput (input, schema, httpPart) {
    const part = typeof schema === 'string' ? schema : httpPart
    let validate = typeof part === 'string' ? partValidator(this.route, part) : undefined
    if (validate === undefined) {
      if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw this.route.app.error('HP_ERR_VALIDATION_INVOCATION', String(part))
      validate = this.compileValidationSchema(schema, part ?? null)
    }
    return /** @type {Function} */ (validate)(input)
  }

  /**
   * A request decorator of the route's plugin scope (a function comes bound
   * to this request); an undeclared one throws.
   * @param {string | symbol} name
   */
  getDecorator (name) {
    if (!this.route.instance.hasRequestDecorator(name)) throw this.route.app.error('HP_ERR_DEC_UNDECLARED', String(name), 'request')
    const value = /** @type {any} */ (this)[name]
    return typeof value === 'function' ? value.bind(this) : value
  }

  /**
   * Sets a request decorator of the route's plugin scope on this request;
   * an undeclared one throws rather than adding a field.
   * @param {string | symbol} name
   * @param {unknown} value
   */
  setDecorator (name, value) {
    if (!this.route.instance.hasRequestDecorator(name)) throw this.route.app.error('HP_ERR_DEC_UNDECLARED', String(name), 'request')
    const self = /** @type {any} */ (this)
    self[name] = value
  }
}

// request.validationError: the error of a failed validation, set on the
// request by a route with attachValidation (validate.js); undefined, from
// the prototype, on every other request, which assigns nothing for it.
/** @type {any} */ (Request.prototype).validationError = undefined

/**
 * The route's compiled validator of a part of the request, as
 * request.getValidationFunction() names them.
 * @param {import('../routing/route.js').Route} route
 * @param {string} part
 * @returns {Function | Record<string, Function> | undefined}
 */
function partValidator (route, part) {
  switch (part) {
    case 'params': return compiled(route.validateParams)
    case 'query':
    case 'querystring': return compiled(route.validateQuery)
    case 'headers': return compiled(route.validateHeaders)
    case 'body':
      if (route.validateBodyByType !== null) {
        /** @type {Record<string, Function>} */
        const byType = {}
        for (const [type, v] of route.validateBodyByType) byType[type] = compiledValidator(v)
        return byType
      }
      return compiled(route.validateBody)
  }
  return undefined
}

/**
 * The validator's function as its compiler made it (one compiled on first
 * use is compiled now), or undefined for a part without one.
 * @param {import('../routing/schema.js').Validator | null} v
 */
function compiled (v) {
  return v === null ? undefined : compiledValidator(v)
}

/** @param {Request} req */
function isTrustedPeer (req) {
  const trust = req.route.app.trustProxy
  if (trust === null) return false
  const address = req._incoming.socket.remoteAddress
  return trust(address ?? '', 0)
}

/**
 * The Request class an app's contexts build on: Request itself, or a
 * subclass for Fastify's querystringParser (req.query from the app's own
 * function) and useSemicolonDelimiter (';' ends the path as '?' does),
 * chosen when the app is created, so an app that uses neither pays nothing
 * for them.
 * @param {((querystring: string) => any) | null} parseWith
 * @param {boolean} semicolon
 * @returns {typeof Request}
 */
export function requestClass (parseWith, semicolon) {
  let Base = Request
  if (semicolon) {
    Base = class SemicolonRequest extends Base {
      get path () {
        const url = this.url
        const q = queryStart(url)
        return q === -1 ? url : url.slice(0, q)
      }

      get querystring () {
        const url = this.url
        const q = queryStart(url)
        return q === -1 ? '' : url.slice(q + 1)
      }
    }
  }
  if (parseWith !== null) {
    Base = class ParsedQueryRequest extends Base {
      get query () {
        if (this._query === undefined) this._query = parseWith(this.querystring)
        return /** @type {Record<string, string | string[]>} */ (this._query)
      }

      set query (value) {
        this._query = value
      }
    }
  }
  return Base
}

/**
 * Where the query starts with useSemicolonDelimiter: the first '?' or ';'.
 * @param {string} url
 */
function queryStart (url) {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c === 63 || c === 59) return i
  }
  return -1
}

/**
 * The last member of a forwarded list ("client-claimed, proxy-set"): the
 * value the nearest proxy, the trusted one, added; the first is whatever
 * the client sent, as Fastify reads it too.
 * @param {string} value
 */
function lastEntry (value) {
  const comma = value.lastIndexOf(',')
  return (comma === -1 ? value : value.slice(comma + 1)).trim()
}

/**
 * The port at the end of a Host value (`example.com:8080`, `[::1]:3000`), or null.
 * @param {string} host
 * @returns {number | null}
 */
function portOf (host) {
  const colon = host.lastIndexOf(':')
  if (colon === -1 || host.indexOf(']', colon) !== -1) return null
  const port = Number.parseInt(host.slice(colon + 1), 10)
  return Number.isNaN(port) ? null : port
}
