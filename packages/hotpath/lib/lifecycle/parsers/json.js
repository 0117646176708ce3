// application/json: secure-json-parse rejects __proto__ and
// constructor.prototype keys (prototype poisoning) instead of building an
// object that carries them (unless the app asks otherwise), and a body nested deeper than the app's
// jsonDepthLimit is refused before it is parsed: JSON.parse builds a
// 100,000-deep array happily, and every recursive consumer after it (the
// validator, JSON.stringify, a serializer) overflows the stack on it.
import { createError } from '../../errors.js'
import { loadModule } from '../../require.js'

/** @type {typeof import('secure-json-parse')} */
const sjson = loadModule('secure-json-parse')

/** @typedef {'error' | 'remove' | 'ignore'} PoisonAction */

/**
 * A JSON parser with its own answer to prototype poisoning (Fastify's
 * onProtoPoisoning and onConstructorPoisoning): 'error' refuses the body
 * (400), 'remove' drops the key, 'ignore' keeps it (JSON.parse's own
 * behaviour: a "__proto__" key becomes an own property, not the prototype).
 * @param {PoisonAction} protoAction
 * @param {PoisonAction} constructorAction
 * @returns {(req: import('../request.js').Request, body: string) => unknown}
 */
export function jsonParser (protoAction, constructorAction) {
  checkAction('onProtoPoisoning', protoAction)
  checkAction('onConstructorPoisoning', constructorAction)
  if (protoAction === 'error' && constructorAction === 'error') return parseJson
  const options = { protoAction, constructorAction }
  return function parseJsonWith (req, body) {
    return parse(req, body, options)
  }
}

/**
 * @param {string} name
 * @param {unknown} action
 */
function checkAction (name, action) {
  if (action !== 'error' && action !== 'remove' && action !== 'ignore') throw createError('HP_ERR_INVALID_OPTION', name, "expected 'error', 'remove' or 'ignore'")
}

const REFUSE = { protoAction: /** @type {PoisonAction} */ ('error'), constructorAction: /** @type {PoisonAction} */ ('error') }

/**
 * The built-in application/json parser.
 * @param {import('../request.js').Request} req
 * @param {string} body
 */
export function parseJson (req, body) {
  return parse(req, body, REFUSE)
}

/**
 * @param {import('../request.js').Request} req
 * @param {string} body
 * @param {{ protoAction: PoisonAction, constructorAction: PoisonAction }} options
 */
function parse (req, body, options) {
  if (body.length === 0) throw req.route.app.error('HP_ERR_EMPTY_JSON_BODY')
  const limit = req.route.app.jsonDepthLimit
  if (tooDeep(body, limit)) throw createError('HP_ERR_JSON_TOO_DEEP', limit)
  try {
    return sjson.parse(body, null, options)
  } catch (err) {
    if (err instanceof SyntaxError && /forbidden prototype property/.test(err.message)) {
      throw req.route.app.error('HP_ERR_PROTO_POISONING')
    }
    throw req.route.app.error('HP_ERR_INVALID_JSON')
  }
}

/**
 * Whether `text` opens more than `limit` arrays or objects inside each
 * other. The depth can never exceed the number of '[' and '{' in the text,
 * and counting those with indexOf (a native search) is cheaper than
 * walking the text in JavaScript: most bodies have few openers and stop
 * here (the 1 KiB json-post body has 11: the check costs it 0.1-0.2 µs next
 * to 3-4 µs for the parse; a 1 KiB body of 100 small objects, walked, about
 * 2.5 µs next to 12 µs; see bench/json-depth.js).
 * @param {string} text
 * @param {number} limit
 */
function tooDeep (text, limit) {
  let n = 0
  let i = text.indexOf('[')
  while (i !== -1) {
    if (++n > limit) return depthOver(text, limit)
    i = text.indexOf('[', i + 1)
  }
  i = text.indexOf('{')
  while (i !== -1) {
    if (++n > limit) return depthOver(text, limit)
    i = text.indexOf('{', i + 1)
  }
  return false
}

/**
 * The exact walk, for texts with more openers than the limit: brackets
 * inside strings do not count (RFC 8259 §7: a string ends at an unescaped
 * quotation mark). Invalid JSON may be measured wrongly here; it fails to
 * parse either way, and the answer is a 400 both ways.
 * @param {string} text
 * @param {number} limit
 */
function depthOver (text, limit) {
  const len = text.length
  let depth = 0
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) { // '"': skip the string
      for (i++; i < len; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x5c) i++ // '\\' escapes the next character
        else if (d === 0x22) break
      }
    } else if (c === 0x5b || c === 0x7b) { // '[' '{'
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) { // ']' '}'
      depth--
    }
  }
  return false
}
