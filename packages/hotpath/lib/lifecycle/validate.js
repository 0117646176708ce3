// The validation stage: preValidation hooks, then the route's compiled
// validators (params, headers, query, body, in that order; the first
// failure answers 400). Then the handler stage. A validator that answers a
// thenable (an ajv schema with $async, a custom compiler's async function)
// parks the request; the next part is validated when it settles.
import { runHooks, park, isThenable } from './kernel.js'
import { runValidator } from '../routing/run-validator.js'
import { handleError, stageFailed } from './handle-error.js'
import { handlerStage } from './handler.js'
import { mediaType } from './parsers/content-type.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */
/** @typedef {import('../routing/schema.js').Validator} Validator */

/** @param {Reply} reply */
export function validationStage (reply) {
  const route = reply.route
  if (route.preValidation === null) validate(reply)
  else runHooks(reply, route.preValidation, 0, validate, stageFailed)
}

/** @param {Reply} reply */
function validate (reply) {
  if (reply.route.hasValidation) validateFrom(reply, 0)
  else handlerStage(reply)
}

/**
 * The route's validator for step 0 (params) to 3 (body), or null.
 * @param {import('../routing/route.js').Route} route
 * @param {any} req
 * @param {number} step
 * @returns {Validator | null}
 */
function validatorAt (route, req, step) {
  switch (step) {
    case 0: return route.validateParams
    case 1: return route.validateHeaders
    case 2: return route.validateQuery
    default: return route.validateBody ?? (route.validateBodyByType === null ? null : bodyValidatorByType(route.validateBodyByType, req))
  }
}

/**
 * Validates the parts from `step` on, then runs the handler stage.
 * @param {Reply} reply
 * @param {number} step
 */
function validateFrom (reply, step) {
  const route = reply.route
  const req = reply.request
  const how = route.validationErrors
  for (; step < 4; step++) {
    const v = validatorAt(route, req, step)
    if (v === null) continue
    let outcome
    try {
      outcome = runValidator(v, req, how)
    } catch (e) {
      // a schemaErrorFormatter that throws: its error fails the request
      outcome = e
    }
    if (outcome === null) continue
    if (isThenable(outcome)) {
      park(reply, outcome, RESUME[step], failed)
      return
    }
    failed(reply, outcome)
    return
  }
  handlerStage(reply)
}

/**
 * After a validator's thenable: its outcome (null, or the error to answer
 * with), then the next part.
 * @type {((reply: Reply, outcome: unknown) => void)[]}
 */
const RESUME = [0, 1, 2, 3].map((step) => (/** @type {Reply} */ reply, /** @type {unknown} */ outcome) => {
  if (outcome === null || outcome === undefined) validateFrom(reply, step + 1)
  else failed(reply, outcome)
})

/**
 * A failed validation: the error path, or with attachValidation the
 * handler, which sees the error as request.validationError and answers
 * itself.
 * @param {Reply} reply
 * @param {unknown} err
 */
function failed (reply, err) {
  if (!reply.route.attachValidation) {
    handleError(reply, err)
    return
  }
  /** @type {any} */ (reply.request).validationError = err
  handlerStage(reply)
}

/**
 * A body schema by content type: the validator of the request's media type
 * (the parser table's canonical media type of the Content-Type); a type the
 * schema does not name is not validated, as in Fastify.
 * @param {Map<string, Validator>} byType
 * @param {any} req
 * @returns {Validator | null}
 */
function bodyValidatorByType (byType, req) {
  const header = req.headers['content-type']
  if (typeof header !== 'string') return null
  // the one canonical media type the parser table chose the parser by
  const type = mediaType(header)
  return type === null ? null : byType.get(type) ?? null
}
