// Running a route's compiled validator on a part of the request, and the
// error a failed validation is answered with: hotpath's, the app's
// schemaErrorFormatter's, or Fastify's (errorFormat 'fastify'). Per request,
// for the routes with a schema (../lifecycle/validate.js).
import { createError } from '../errors.js'

/** @typedef {import('./schema.js').Validator} Validator */

/**
 * Validates one part of the request in place (coercion and defaults mutate
 * it; a custom validator's `{ value }` replaces it). An absent part is
 * validated as null, as Fastify does. Returns null, or the error to answer
 * with (see validationError).
 * @param {Validator} v
 * @param {any} req
 * @param {ValidationErrors} how  the route's, chosen at ready()
 */
export function runValidator (v, req, how) {
  const key = v.key
  const value = req[key]
  const data = value === undefined ? null : value
  let r
  try {
    r = v.withParent ? v.validate(data, /** @type {any} */ ({ parentData: req, parentDataProperty: key })) : v.validate(data)
  } catch (e) {
    // a validator that throws is the server's fault: 500, as in Fastify
    const err = /** @type {any} */ (e)
    if (!how.fastify || err === null || typeof err !== 'object') return err
    err.statusCode = 500
    return wrapResultError(err, v.part, how)
  }
  if (r === true) return null
  if (r !== null && typeof r === 'object' && typeof r.then === 'function') {
    // an async validator: its answer, or its rejection (an ajv $async
    // schema rejects with the errors), is the outcome
    return r.then((/** @type {any} */ answer) => validatorAnswer(v, req, how, answer), (/** @type {any} */ e) => rejected(e, v.part, how))
  }
  return validatorAnswer(v, req, how, r)
}

/**
 * What a validator answered: false (its `errors` say why), `{ error }`,
 * `{ value }` to replace the part, anything else for valid.
 * @param {Validator} v
 * @param {any} req
 * @param {ValidationErrors} how
 * @param {any} r
 */
function validatorAnswer (v, req, how, r) {
  if (r === true) return null
  if (r === false) return validationError(v.validate.errors ?? [], v.part, how)
  if (r !== null && typeof r === 'object') {
    if (r.error) return resultError(r.error, v.part, how)
    if ('value' in r) req[v.key] = r.value
  }
  return null
}

/**
 * An async validator's rejection: a failed validation (400), with the
 * validator's errors when it gives them (ajv's ValidationError).
 * @param {any} e
 * @param {string} part
 * @param {ValidationErrors} how
 */
function rejected (e, part, how) {
  if (e === null || typeof e !== 'object') return validationError([], part, how)
  if (how.fastify && e instanceof Error) return wrapResultError(e, part, how)
  if (Array.isArray(e.errors)) return validationError(e.errors, part, how)
  return resultError(e, part, how)
}

/**
 * How a route's failed validations become errors, decided at ready():
 * `formatter` is the schemaErrorFormatter that applies (the route's, else
 * its plugin's, else the app's; null for the default message), `fastify`
 * gives Fastify's error (FST_ERR_VALIDATION, a plain Error) instead of
 * hotpath's (an HttpError carrying `details`).
 * @typedef {{ formatter: ((errors: any[], part: string) => any) | null, fastify: boolean }} ValidationErrors
 */

/**
 * The error for a failed validation, as Fastify builds it: the formatter's
 * error (by default, each error as `${part}${instancePath} ${message}`,
 * joined by ', '), given status 400 and the validation code unless it has
 * its own, with the errors as `validation` and the part as
 * `validationContext`. A formatter that throws fails the request with its
 * error (500).
 * @param {any[]} errors
 * @param {string} part
 * @param {ValidationErrors} how
 */
export function validationError (errors, part, how) {
  if (how.formatter === null && !how.fastify) {
    const err = createError('HP_ERR_VALIDATION', validationMessage(errors, part))
    const validation = errors.map((/** @type {any} */ e) => ({ instancePath: e.instancePath, schemaPath: e.schemaPath, keyword: e.keyword, params: e.params, message: e.message }))
    // On the error itself as Fastify users expect (error.validation,
    // error.validationContext), and in `details`, the fields merged into the
    // default 400 body; both share the one array.
    const e = /** @type {any} */ (err)
    e.validation = validation
    e.validationContext = part
    err.details = { validation, validationContext: part }
    return err
  }
  const err = how.formatter === null ? new Error(validationMessage(errors, part)) : how.formatter(errors, part)
  if (!err.statusCode) err.statusCode = 400
  if (!err.code) err.code = how.fastify ? 'FST_ERR_VALIDATION' : 'HP_ERR_VALIDATION'
  err.validation = errors
  err.validationContext = part
  return err
}

/**
 * A custom validator's `{ error }`: with Fastify's errors, an Error is
 * answered as it is (400 and the validation code unless it has its own);
 * otherwise it becomes the validation's one entry.
 * @param {any} e
 * @param {string} part
 * @param {ValidationErrors} how
 */
function resultError (e, part, how) {
  if (how.fastify) return e instanceof Error ? wrapResultError(e, part, how) : validationError(e, part, how)
  const errors = Array.isArray(e.validation) ? e.validation : [{ instancePath: '', schemaPath: '', keyword: 'custom', params: {}, message: e.message ?? String(e) }]
  return validationError(errors, part, how)
}

/**
 * @param {any} e
 * @param {string} part
 * @param {ValidationErrors} how
 */
function wrapResultError (e, part, how) {
  if (!e.statusCode) e.statusCode = 400
  if (!e.code) e.code = how.fastify ? 'FST_ERR_VALIDATION' : 'HP_ERR_VALIDATION'
  if (!e.validationContext) e.validationContext = part
  return e
}

/**
 * @param {any[]} errors
 * @param {string} part
 */
function validationMessage (errors, part) {
  // every error, as Fastify's message lists them (one unless ajv's allErrors)
  return errors.length === 0 ? `${part} is invalid` : errors.map((/** @type {any} */ e) => `${part}${e.instancePath ?? ''} ${e.message}`).join(', ')
}
