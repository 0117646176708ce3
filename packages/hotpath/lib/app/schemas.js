// What a plugin scope sets for its routes' schemas: the validator and
// serializer compilers, the schema controller, the error a failed
// validation answers with, the reply serializer, and its shared schemas.
import { createError } from '../errors.js'
import { checkSchemaErrorFormatter } from '../routing/route.js'
import { plainSchema } from '../routing/schema.js'
import { buildSchemaController } from '../routing/schema-controller.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

/**
 * Validators for this context's route schemas come from `compile({ schema,
 * method, url, httpPart })` instead of ajv, as in Fastify.
 * @param {Hotpath} app
 * @param {Function} compile
 */
export function setValidatorCompiler (app, compile) {
  if (typeof compile !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setValidatorCompiler', 'expected a function')
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setValidatorCompiler', '')
  app._ctx.schemaController.setValidatorCompiler(compile)
  return app
}

/**
 * Response serializers for this context's routes come from `compile({
 * schema, method, url, httpStatus })` instead of fast-json-stringify.
 * @param {Hotpath} app
 * @param {Function} compile
 */
export function setSerializerCompiler (app, compile) {
  if (typeof compile !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setSerializerCompiler', 'expected a function')
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setSerializerCompiler', '')
  app._ctx.schemaController.setSerializerCompiler(compile)
  return app
}

/**
 * Where this scope keeps its shared schemas and how its compilers are
 * built, as Fastify's schemaController option: `{ bucket(parentSchemas),
 * compilersFactory: { buildValidator(schemas, ajvOptions),
 * buildSerializer(schemas) } }`, each falling back to the parent's.
 * @param {Hotpath} app
 * @param {{ bucket?: Function, compilersFactory?: { buildValidator?: Function, buildSerializer?: Function } }} options
 */
export function setSchemaController (app, options) {
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setSchemaController', '')
  const ctx = app._ctx
  ctx.schemaController = buildSchemaController(ctx.schemaController, options, app._core.error.bind(app._core))
  return app
}

/**
 * The error a failed validation answers with, for this context's routes
 * that set none of their own: `formatter(errors, part)` with ajv's errors
 * and 'params', 'querystring', 'headers' or 'body', called with this
 * instance as `this`; its error is given status 400 and the validation
 * code unless it has its own (Fastify's setSchemaErrorFormatter).
 * @param {Hotpath} app
 * @param {(errors: any[], part: string) => Error} formatter
 */
export function setSchemaErrorFormatter (app, formatter) {
  checkSchemaErrorFormatter(app._core, formatter)
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setSchemaErrorFormatter', '')
  app._ctx.schemaErrorFormatter = formatter
  return app
}

/**
 * The serializer of the JSON payloads of this context's routes (and its
 * children's): `fn(payload, statusCode)`, in place of their response
 * schemas and JSON.stringify; errors are answered as before.
 * @param {Hotpath} app
 * @param {(payload: any, statusCode: number) => string} fn
 */
export function setReplySerializer (app, fn) {
  if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_OPTION', 'setReplySerializer', 'expected a function')
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'setReplySerializer', '')
  app._ctx.replySerializer = fn
  return app
}

/**
 * A schema routes can $ref by its $id (`{ $ref: 'user#' }`), seen by this
 * context and its children, as Fastify's addSchema.
 * @param {Hotpath} app
 * @param {any} schema
 */
export function addSchema (app, schema) {
  if (app._core.locked) throw app._core.error('HP_ERR_HOOK_AFTER_READY', 'addSchema', '')
  addSchemaTo(app._core, app._ctx, plainSchema(schema))
  return app
}

/**
 * Adds a shared schema to a scope and, as Fastify does, to the scopes of
 * the plugins it has already loaded (each started from a copy of its
 * parent's schemas).
 * @param {import('./core.js').Core} core
 * @param {import('./context.js').Context} ctx
 * @param {any} schema
 */
function addSchemaTo (core, ctx, schema) {
  ctx.schemaController.add(schema)
  for (const child of core.allContexts) if (child.parent === ctx) addSchemaTo(core, child, schema)
}
