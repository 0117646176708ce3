// The content-type parser table of one context. A child context copies its
// parent's table when it first changes it (copy on write), so routes
// resolve their table once at ready().
//
// A request's Content-Type finds its parser as Fastify's does: a parser
// registered with parameters ('application/json; charset=utf-8') by the
// whole normalized value, then one by the media type alone, then the
// RegExp parsers (newest first) tested against the normalized value, then
// the catch-all '*' (which also takes a request with no Content-Type or a
// malformed one). The steps after the media type cost nothing to a table
// without parameters or RegExps.
import { createError } from '../../errors.js'
import { mediaType, normalizedType } from './content-type.js'
import { parseJson } from './json.js'
import { parseUrlencoded } from './urlencoded.js'
import { adaptParser } from '../callback-hooks.js'

/**
 * @typedef {object} Parser
 * @property {string} type          canonical media type, '*' for any, or the RegExp's source
 * @property {'string' | 'buffer' | 'stream'} parseAs  'stream': the parser gets req.raw and reads it itself
 * @property {number | null} bodyLimit  null: the route's limit
 * @property {(req: any, body: any) => unknown} fn
 */

/**
 * What builds the table's errors: the app's core (its error(), in Fastify's
 * words with errorFormat 'fastify'), or hotpath's own table.
 * @typedef {{ error: (code: string, ...args: (string | number)[]) => Error }} ErrorSource
 */

/** @type {ErrorSource} */
const OWN_ERRORS = { error: createError }

/** RegExp matches remembered per table (header → parser), at most this many. */
const MATCHED_MAX = 100

export class ParserTable {
  /** @param {ParserTable | null} parent */
  constructor (parent) {
    const p = /** @type {any} */ (parent)
    /** media type, or normalized type with parameters → parser @type {Map<string, Parser>} */
    this.byType = p === null ? defaultParsers() : new Map(/** @type {Map<string, Parser>} */ (p.byType))
    /** whether a key of byType has parameters */
    this.withParams = p === null ? false : /** @type {boolean} */ (p.withParams)
    /** newest first @type {{ re: RegExp, parser: Parser }[]} */
    this.regexps = p === null ? [] : /** @type {{ re: RegExp, parser: Parser }[]} */ (p.regexps).slice()
    /** @type {Parser | null} */
    this.any = p === null ? null : p.any
    /** keys (a RegExp's as its toString()) added by this context itself @type {Set<string>} */
    this.own = new Set()
    /** header → what the RegExps gave it (null: none matched) @type {Map<string, Parser | null>} */
    this.matched = new Map()
  }

  /**
   * @param {unknown} type  a media type, '*', a RegExp, or an array of them
   * @param {{ parseAs?: 'string' | 'buffer' | 'stream', bodyLimit?: number }} opts
   * @param {(req: any, body: any) => unknown} fn
   * @param {ErrorSource} [errors]
   */
  add (type, opts, fn, errors = OWN_ERRORS) {
    for (const t of Array.isArray(type) ? type : [type]) this.addOne(t, opts, fn, errors)
  }

  /**
   * @param {unknown} type
   * @param {{ parseAs?: 'string' | 'buffer' | 'stream', bodyLimit?: number }} opts
   * @param {(req: any, body: any) => unknown} fn
   * @param {ErrorSource} errors
   */
  addOne (type, opts, fn, errors) {
    if (typeof type === 'string') {
      if (type.trim() === '') throw errors.error('HP_ERR_PARSER_EMPTY_TYPE')
    } else if (!(type instanceof RegExp)) {
      throw errors.error('HP_ERR_PARSER_INVALID_TYPE', typeName(type))
    }
    if (typeof fn !== 'function') throw errors.error('HP_ERR_PARSER_INVALID_HANDLER', String(type))
    const key = keyOf(type)
    if (key !== null && key !== '*' && this.own.has(key)) throw errors.error('HP_ERR_PARSER_ALREADY_PRESENT', key)
    // A parser written as Fastify's (req, payload, done) gets what Fastify
    // gives it: without parseAs, the body as a stream (req.raw) to read
    // itself. hotpath's own parsers default to the body as a string.
    const callback = fn.length >= 3 && fn.constructor?.name !== 'AsyncFunction'
    const parseAs = opts?.parseAs ?? (callback ? 'stream' : 'string')
    if (parseAs !== 'string' && parseAs !== 'buffer' && parseAs !== 'stream') throw errors.error('HP_ERR_PARSER_INVALID_PARSE_AS', String(parseAs))
    const bodyLimit = opts?.bodyLimit ?? null
    if (bodyLimit !== null && !(Number.isInteger(bodyLimit) && bodyLimit >= 0)) throw createError('HP_ERR_INVALID_OPTION', 'bodyLimit', 'expected a non-negative integer')
    if (key === null) throw errors.error('HP_ERR_PARSER_INVALID_TYPE', `'${String(type)}', which is not a media type`)
    const parser = { type: key, parseAs, bodyLimit, fn: /** @type {(req: any, body: any) => unknown} */ (adaptParser(fn)) }
    this.own.add(key)
    if (type instanceof RegExp) {
      this.regexps.unshift({ re: type, parser })
    } else if (key === '*') {
      this.any = parser
    } else {
      this.byType.set(key, parser)
      if (key.indexOf(';') !== -1) this.withParams = true
    }
  }

  /**
   * Whether a parser is registered for this exact type (a media type,
   * '*', or a RegExp with the same source and flags).
   * @param {unknown} type
   * @param {ErrorSource} [errors]
   */
  has (type, errors = OWN_ERRORS) {
    const key = checkedKey(type, errors)
    if (key === '*') return this.any !== null
    if (type instanceof RegExp) return this.regexps.some((r) => r.re.toString() === key)
    return key !== null && this.byType.has(key)
  }

  /**
   * Removes the parser registered for this exact type; true if there was one.
   * @param {unknown} type
   * @param {ErrorSource} [errors]
   */
  remove (type, errors = OWN_ERRORS) {
    const key = checkedKey(type, errors)
    if (key === null) return false
    this.own.delete(key)
    if (key === '*') {
      const had = this.any !== null
      this.any = null
      return had
    }
    if (type instanceof RegExp) {
      const i = this.regexps.findIndex((r) => r.re.toString() === key)
      if (i !== -1) this.regexps.splice(i, 1)
      return i !== -1
    }
    return this.byType.delete(key)
  }

  /**
   * Replaces the built-in JSON parser (the app's onProtoPoisoning and
   * onConstructorPoisoning), at construction.
   * @param {(req: any, body: any) => unknown} fn
   */
  setDefaultJson (fn) {
    this.byType.set('application/json', { type: 'application/json', parseAs: 'string', bodyLimit: null, fn })
  }

  /** Removes every parser, the built-in ones too. */
  removeAll () {
    this.byType.clear()
    this.withParams = false
    this.regexps = []
    this.any = null
    this.own.clear()
  }

  /**
   * @param {string | undefined} header  the request's Content-Type
   * @returns {Parser | null}
   */
  find (header) {
    const type = header === undefined ? null : mediaType(header)
    if (type === null) return this.any
    if (this.withParams) {
      const exact = this.byType.get(/** @type {string} */ (normalizedType(/** @type {string} */ (header))))
      if (exact !== undefined) return exact
    }
    const parser = this.byType.get(type)
    if (parser !== undefined) return parser
    if (this.regexps.length === 0) return this.any
    return this.matchRegExp(/** @type {string} */ (header)) ?? this.any
  }

  /**
   * The first RegExp parser matching the normalized header; remembered.
   * @param {string} header  a valid Content-Type
   * @returns {Parser | null}
   */
  matchRegExp (header) {
    const hit = this.matched.get(header)
    if (hit !== undefined) return hit
    const normalized = /** @type {string} */ (normalizedType(header))
    /** @type {Parser | null} */
    let found = null
    for (const { re, parser } of this.regexps) {
      // a /g or /y RegExp keeps lastIndex between calls
      re.lastIndex = 0
      if (re.test(normalized)) {
        found = parser
        break
      }
    }
    if (this.matched.size >= MATCHED_MAX) this.matched.clear()
    this.matched.set(header, found)
    return found
  }
}

/**
 * The table key of a type: '*', a RegExp's toString(), or the normalized
 * media type (with its parameters, if any); null when the string is not a
 * media type.
 * @param {string | RegExp} type
 * @returns {string | null}
 */
function keyOf (type) {
  if (type instanceof RegExp) return type.toString()
  const t = type.trim()
  if (t === '*') return '*'
  return normalizedType(t)
}

/**
 * keyOf for has() and remove(), which take a string or a RegExp.
 * @param {unknown} type
 * @param {ErrorSource} errors
 */
function checkedKey (type, errors) {
  if (typeof type !== 'string' && !(type instanceof RegExp)) throw errors.error('HP_ERR_PARSER_INVALID_TYPE', typeName(type))
  return keyOf(type)
}

/**
 * What a content type that is neither a string nor a RegExp is, for the
 * error's message.
 * @param {unknown} type
 */
function typeName (type) {
  return type === null ? 'null' : Array.isArray(type) ? 'an array' : typeof type
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
 * The built-in text/plain parser: the body as it is.
 * @param {unknown} _req
 * @param {string} body
 */
export function parseText (_req, body) {
  return body
}

/**
 * A built-in parser as the app hands it out (getDefaultJsonParser(),
 * defaultTextParser): Fastify's are (req, body, done), and code written for
 * Fastify calls them so, from a parser of its own (@nestjs/platform-fastify
 * parses JSON that way); the table calls them as (req, body) and takes the
 * value. `done` has a default, so the function's length stays 2 and the
 * table sees a parser of its own kind. With `text`, a Buffer body (parseAs
 * 'buffer') is read as UTF-8, as Fastify's JSON parser reads it.
 * @param {(req: any, body: any) => unknown} parse
 * @param {boolean} text
 * @returns {(req: any, body: any, done?: (err: unknown, value?: unknown) => void) => unknown}
 */
export function withDone (parse, text) {
  return function parser (req, body, done = undefined) {
    if (done === undefined) return parse(req, body)
    let value
    try {
      value = parse(req, text && typeof body !== 'string' ? String(body) : body)
    } catch (err) {
      done(err, undefined)
      return
    }
    done(null, value)
  }
}
