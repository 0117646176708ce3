// The validation stage: preValidation hooks, then the route's compiled
// validators (params, headers, query, body, in that order; the first
// failure answers 400). Then the handler stage.
import { runHooks } from './kernel.js'
import { runValidator } from '../routing/schema.js'
import { handleError, stageFailed } from './handle-error.js'
import { handlerStage } from './handler.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */

/** @param {Reply} reply */
export function validationStage (reply) {
  const route = reply.route
  if (route.preValidation === null) validate(reply)
  else runHooks(reply, route.preValidation, 0, validate, stageFailed)
}

/** @param {Reply} reply */
function validate (reply) {
  const route = reply.route
  if (route.hasValidation) {
    const req = reply.request
    const how = route.validationErrors
    let err = null
    try {
      if (route.validateParams !== null) err = runValidator(route.validateParams, req, how)
      if (err === null && route.validateHeaders !== null) err = runValidator(route.validateHeaders, req, how)
      if (err === null && route.validateQuery !== null) err = runValidator(route.validateQuery, req, how)
      if (err === null && route.validateBody !== null) err = runValidator(route.validateBody, req, how)
      else if (err === null && route.validateBodyByType !== null) err = validateBodyByType(route.validateBodyByType, req, how)
    } catch (e) {
      // a schemaErrorFormatter that throws: its error fails the request
      err = e
    }
    if (err !== null) {
      // attachValidation: the handler sees the error as
      // request.validationError and answers itself
      if (!route.attachValidation) {
        handleError(reply, err)
        return
      }
      /** @type {any} */ (req).validationError = err
    }
  }
  handlerStage(reply)
}

/**
 * A body schema by content type: the validator of the request's media type
 * (the Content-Type without its parameters, in lower case); a type the
 * schema does not name is not validated, as in Fastify.
 * @param {Map<string, import('../routing/schema.js').Validator>} byType
 * @param {any} req
 * @param {import('../routing/schema.js').ValidationErrors} how
 */
function validateBodyByType (byType, req, how) {
  const type = req.headers['content-type']
  if (typeof type !== 'string') return null
  const semi = type.indexOf(';')
  const v = byType.get((semi === -1 ? type : type.slice(0, semi)).trim().toLowerCase())
  return v === undefined ? null : runValidator(v, req, how)
}
