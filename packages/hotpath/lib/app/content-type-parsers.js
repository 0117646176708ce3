// A context's content-type parsers: added, looked up and removed (the
// parser table is ../lifecycle/parsers/table.js), and the built-in JSON
// and text parsers, to register for other content types.
import { jsonParser } from '../lifecycle/parsers/json.js'
import { parseText, withDone } from '../lifecycle/parsers/table.js'
import { warnUnanchoredType } from '../fastify-warnings.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

// as Fastify's: callable with (req, body, done) too
export const defaultTextParser = withDone(parseText, false)

/**
 * @param {Hotpath} app
 * @param {string | RegExp | readonly (string | RegExp)[]} type
 * @param {any} opts
 * @param {Function} [fn]
 */
export function addContentTypeParser (app, type, opts, fn) {
  if (app._core.locked) throw app._core.error('HP_ERR_PARSER_AFTER_READY', 'addContentTypeParser')
  if (typeof opts === 'function') {
    fn = opts
    opts = {}
  }
  app._ctx.ownParsers().add(type, opts, /** @type {any} */ (fn), app._core)
  for (const t of Array.isArray(type) ? type : [type]) warnUnanchoredType(app._core, t)
  return app
}

/**
 * Whether this context has a parser for exactly this type (a media type,
 * '*', or a RegExp with the same source and flags).
 * @param {Hotpath} app
 * @param {string | RegExp} type
 */
export function hasContentTypeParser (app, type) {
  return app._ctx.findParsers().has(type, app._core)
}

/**
 * Removes this context's parser for each type given (the built-in ones
 * too); the parent context keeps its own.
 * @param {Hotpath} app
 * @param {string | RegExp | readonly (string | RegExp)[]} type
 */
export function removeContentTypeParser (app, type) {
  if (app._core.locked) throw app._core.error('HP_ERR_PARSER_AFTER_READY', 'removeContentTypeParser')
  const table = app._ctx.ownParsers()
  for (const t of Array.isArray(type) ? type : [type]) table.remove(t, app._core)
  return app
}

/**
 * Removes every parser of this context, the built-in ones too.
 * @param {Hotpath} app
 */
export function removeAllContentTypeParsers (app) {
  if (app._core.locked) throw app._core.error('HP_ERR_PARSER_AFTER_READY', 'removeAllContentTypeParsers')
  app._ctx.ownParsers().removeAll()
  return app
}

/**
 * The built-in JSON parser with its own answer to prototype poisoning,
 * to register for another content type: 'error' (400), 'remove' or
 * 'ignore' for a `__proto__` key and for a `constructor.prototype` key.
 * @param {'error' | 'remove' | 'ignore'} onProtoPoisoning
 * @param {'error' | 'remove' | 'ignore'} onConstructorPoisoning
 */
export function getDefaultJsonParser (onProtoPoisoning, onConstructorPoisoning) {
  return withDone(jsonParser(onProtoPoisoning, onConstructorPoisoning), true)
}
