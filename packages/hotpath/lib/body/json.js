// application/json: secure-json-parse rejects __proto__ and
// constructor.prototype keys (prototype poisoning) instead of building an
// object that carries them.
import { createError } from '../errors.js'
import { loadModule } from '../require.js'

/** @type {typeof import('secure-json-parse')} */
const sjson = loadModule('secure-json-parse')

const OPTIONS = { protoAction: /** @type {'error'} */ ('error'), constructorAction: /** @type {'error'} */ ('error') }

/**
 * @param {unknown} _req
 * @param {string} body
 */
export function parseJson (_req, body) {
  if (body.length === 0) throw createError('HP_ERR_EMPTY_JSON_BODY')
  try {
    return sjson.parse(body, null, OPTIONS)
  } catch (err) {
    if (err instanceof SyntaxError && /forbidden prototype property/.test(err.message)) {
      throw createError('HP_ERR_PROTO_POISONING')
    }
    throw createError('HP_ERR_INVALID_JSON')
  }
}
