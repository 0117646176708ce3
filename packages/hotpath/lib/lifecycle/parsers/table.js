// The content-type parser table of one context. A child context copies its
// parent's table when it first adds a parser (copy on write), so routes
// resolve their table once at ready().
import { createError } from '../../errors.js'
import { mediaType } from './content-type.js'
import { parseJson } from './json.js'
import { parseUrlencoded } from './urlencoded.js'
import { adaptParser } from '../callback-hooks.js'

/**
 * @typedef {object} Parser
 * @property {string} type          canonical media type, or '*' for any
 * @property {'string' | 'buffer' | 'stream'} parseAs  'stream': the parser gets req.raw and reads it itself
 * @property {number | null} bodyLimit  null: the route's limit
 * @property {(req: any, body: any) => unknown} fn
 */

export class ParserTable {
  /** @param {ParserTable | null} parent */
  constructor (parent) {
    const p = /** @type {any} */ (parent)
    /** @type {Map<string, Parser>} */
    this.byType = p === null ? defaultParsers() : new Map(/** @type {Map<string, Parser>} */ (p.byType))
    /** @type {Parser | null} */
    this.any = p === null ? null : p.any
    /** types added by this context itself @type {Set<string>} */
    this.own = new Set()
  }

  /**
   * @param {string | readonly string[]} type
   * @param {{ parseAs?: 'string' | 'buffer' | 'stream', bodyLimit?: number }} opts
   * @param {(req: any, body: any) => unknown} fn
   */
  add (type, opts, fn) {
    if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'addContentTypeParser', 'the parser must be a function')
    // A parser written as Fastify's (req, payload, done) gets what Fastify
    // gives it: without parseAs, the body as a stream (req.raw) to read
    // itself. hotpath's own parsers default to the body as a string.
    const callback = fn.length >= 3 && fn.constructor?.name !== 'AsyncFunction'
    const parseAs = opts?.parseAs ?? (callback ? 'stream' : 'string')
    if (parseAs !== 'string' && parseAs !== 'buffer' && parseAs !== 'stream') throw createError('HP_ERR_INVALID_OPTION', 'parseAs', "expected 'string', 'buffer' or 'stream'")
    fn = /** @type {(req: any, body: any) => unknown} */ (adaptParser(fn))
    const bodyLimit = opts?.bodyLimit ?? null
    if (bodyLimit !== null && !(Number.isInteger(bodyLimit) && bodyLimit >= 0)) throw createError('HP_ERR_INVALID_OPTION', 'bodyLimit', 'expected a non-negative integer')
    for (const t of typeof type === 'string' ? [type] : type) {
      const key = t === '*' ? '*' : mediaType(t) ?? t
      if (this.own.has(key)) throw createError('HP_ERR_PARSER_ALREADY_PRESENT', t)
      this.own.add(key)
      if (t === '*') {
        this.any = { type: '*', parseAs, bodyLimit, fn }
        continue
      }
      const canonical = mediaType(t)
      if (canonical === null) throw createError('HP_ERR_INVALID_OPTION', 'content type', `'${t}' is not a media type`)
      this.byType.set(canonical, { type: canonical, parseAs, bodyLimit, fn })
    }
  }

  /**
   * @param {string} header  the request's Content-Type
   * @returns {Parser | null}
   */
  find (header) {
    const type = mediaType(header)
    if (type === null) return null
    return this.byType.get(type) ?? this.any
  }
}

function defaultParsers () {
  /** @type {Map<string, Parser>} */
  const map = new Map()
  map.set('application/json', { type: 'application/json', parseAs: 'string', bodyLimit: null, fn: parseJson })
  map.set('text/plain', { type: 'text/plain', parseAs: 'string', bodyLimit: null, fn: parseText })
  map.set('application/x-www-form-urlencoded', { type: 'application/x-www-form-urlencoded', parseAs: 'string', bodyLimit: null, fn: parseUrlencoded })
  return map
}

/**
 * @param {unknown} _req
 * @param {string} body
 */
function parseText (_req, body) {
  return body
}
