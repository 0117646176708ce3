// Validators (ajv) and serializers (fast-json-stringify), compiled once per
// route at ready(). Params, query and headers arrive as strings, so their
// validator coerces types; the body validator does not.
import { createError } from '../errors.js'
// ajv, ajv-formats and fast-json-stringify are loaded by the first route
// that has a schema: an app without schemas does not carry them.
import { loadModule as load } from '../require.js'

/**
 * @typedef {(data: unknown) => boolean} ValidateFn
 * @typedef {{ validate: ValidateFn & { errors?: any[] | null }, part: string }} Validator
 * @typedef {(data: unknown) => string} SerializeFn
 */

export class SchemaCompiler {
  /** @param {{ customOptions?: Record<string, any>, plugins?: any[], onCreate?: (ajv: any) => void } | null} [options]  Fastify's `ajv` option */
  constructor (options = null) {
    this.options = options
    /** @type {any} params, querystring, headers: strings coerced to the schema's types */
    this._coercing = null
    /** @type {any} bodies: no coercion */
    this._plain = null
    /** @type {Record<string, any>} the shared schemas ($id → schema) the route being compiled sees */
    this.shared = {}
  }

  /**
   * The shared schemas (app.addSchema) the next route's schemas may $ref:
   * those of its context and its parents. Each validator instance learns a
   * $id once; the first schema added under an $id is the one it keeps.
   * @param {Record<string, any>} shared
   */
  useShared (shared) {
    this.shared = shared
    for (const ajv of [this._coercing, this._plain]) if (ajv !== null) addShared(ajv, shared)
  }

  /** @param {boolean} coerce */
  ajv (coerce) {
    if (coerce ? this._coercing !== null : this._plain !== null) return coerce ? this._coercing : this._plain
    const Ajv = load('ajv')
    const o = this.options
    const ajv = new Ajv({ allErrors: false, useDefaults: true, removeAdditional: true, strict: false, coerceTypes: coerce ? 'array' : false, ...o?.customOptions })
    load('ajv-formats')(ajv)
    // an ajv plugin is a function, or [function, its options] (as Fastify takes them)
    for (const plugin of o?.plugins ?? []) {
      if (Array.isArray(plugin)) plugin[0](ajv, plugin[1])
      else plugin(ajv)
    }
    o?.onCreate?.(ajv)
    addShared(ajv, this.shared)
    if (coerce) this._coercing = ajv
    else this._plain = ajv
    return ajv
  }

  /**
   * @param {'params' | 'querystring' | 'headers' | 'body'} part
   * @param {any} schema
   * @param {string} where  route, for error messages
   * @param {{ compile: Function, method: string, url: string } | null} [custom]  setValidatorCompiler's compiler
   * @returns {Validator}
   */
  validator (part, schema, where, custom = null) {
    let s = part === 'body' ? schema : objectShorthand(schema)
    if (part === 'headers') s = lowerCaseHeaders(s)
    if (custom !== null) return { validate: customValidator(custom.compile({ schema: s, method: custom.method, url: custom.url, httpPart: part })), part }
    try {
      const validate = this.ajv(part !== 'body').compile(s)
      return { validate, part }
    } catch (err) {
      throw createError('HP_ERR_INVALID_SCHEMA', `${where} ${part}`, /** @type {Error} */ (err).message)
    }
  }

  /**
   * @param {Record<string, any>} responses  status / 'Nxx' / 'default' → schema
   * @param {string} where
   * @param {{ compile: Function, method: string, url: string } | null} [custom]  setSerializerCompiler's compiler
   * @returns {Map<string, SerializeFn>}
   */
  serializers (responses, where, custom = null) {
    /** @type {Map<string, SerializeFn>} */
    const map = new Map()
    const fastJson = custom === null ? load('fast-json-stringify') : null
    for (const key of Object.keys(responses)) {
      const k = key.toLowerCase()
      if (!/^([1-5](\d\d|xx)|default)$/.test(k)) throw createError('HP_ERR_INVALID_SCHEMA', `${where} response`, `'${key}' is not a status code, a class like '2xx', or 'default'`)
      let schema = responses[key]
      // { content: { 'application/json': { schema } } } is not supported; a
      // plain schema is.
      try {
        map.set(k, custom !== null ? custom.compile({ schema, method: custom.method, url: custom.url, httpStatus: key }) : fastJson(schema, { schema: this.shared }))
      } catch (err) {
        throw createError('HP_ERR_INVALID_SCHEMA', `${where} response ${key}`, /** @type {Error} */ (err).message)
      }
    }
    return map
  }
}

/**
 * A validator from setValidatorCompiler, as Fastify takes it: it answers
 * true/false (its `errors` then say why), or `{ error }` when the data is
 * invalid. Made to look like ajv's for runValidator. A `{ value }` answer
 * does not replace the data.
 * @param {(data: unknown) => any} fn
 * @returns {ValidateFn & { errors?: any[] | null }}
 */
function customValidator (fn) {
  if (typeof fn !== 'function') throw createError('HP_ERR_INVALID_SCHEMA', 'setValidatorCompiler', 'the compiler must return a function')
  /** @type {ValidateFn & { errors?: any[] | null }} */
  const validate = (data) => {
    const r = fn(data)
    if (r === false) {
      validate.errors = /** @type {any} */ (fn).errors ?? null
      return false
    }
    if (r !== null && typeof r === 'object' && r.error) {
      const e = r.error
      validate.errors = Array.isArray(e.validation) ? e.validation : [{ instancePath: '', schemaPath: '', keyword: 'custom', params: {}, message: e.message ?? String(e) }]
      return false
    }
    validate.errors = null
    return true
  }
  return validate
}

/**
 * @param {any} ajv
 * @param {Record<string, any>} shared
 */
function addShared (ajv, shared) {
  for (const id of Object.keys(shared)) if (ajv.getSchema(id) === undefined) ajv.addSchema(shared[id], id)
}

/**
 * Validates `data` in place (coercion and defaults mutate it). Returns null
 * or the error to answer with, whose message names the failing field.
 * @param {Validator} v
 * @param {unknown} data
 */
export function runValidator (v, data) {
  if (v.validate(data)) return null
  const errors = v.validate.errors ?? []
  // every error, as Fastify's message lists them (one unless ajv's allErrors)
  const message = errors.length === 0 ? `${v.part} is invalid` : errors.map((/** @type {any} */ e) => `${v.part}${e.instancePath} ${e.message}`).join(', ')
  const err = createError('HP_ERR_VALIDATION', message)
  const validation = errors.map((/** @type {any} */ e) => ({ instancePath: e.instancePath, schemaPath: e.schemaPath, keyword: e.keyword, params: e.params, message: e.message }))
  // On the error itself as Fastify users expect (error.validation,
  // error.validationContext), and in `details`, the fields merged into the
  // default 400 body; both share the one array.
  const e = /** @type {any} */ (err)
  e.validation = validation
  e.validationContext = v.part
  err.details = { validation, validationContext: v.part }
  return err
}

/**
 * `{ id: { type: 'integer' } }` is accepted as shorthand for an object
 * schema with those properties, as in Fastify.
 * @param {any} schema
 */
function objectShorthand (schema) {
  if (schema === null || typeof schema !== 'object') return schema
  if ('type' in schema || 'properties' in schema || '$ref' in schema || 'anyOf' in schema || 'oneOf' in schema || 'allOf' in schema) return schema
  const values = Object.values(schema)
  if (values.length > 0 && values.every((v) => v !== null && typeof v === 'object')) {
    return { type: 'object', properties: schema }
  }
  return schema
}

/**
 * Header names arrive in lower case; make the schema match.
 * @param {any} schema
 */
function lowerCaseHeaders (schema) {
  if (schema === null || typeof schema !== 'object' || schema.properties === undefined) return schema
  /** @type {Record<string, unknown>} */
  const properties = {}
  for (const [k, v] of Object.entries(schema.properties)) properties[k.toLowerCase()] = v
  const out = { ...schema, properties }
  if (Array.isArray(schema.required)) out.required = schema.required.map((/** @type {string} */ r) => r.toLowerCase())
  return out
}

/**
 * The serializer for a status: exact code, then its class, then default.
 * @param {Map<string, SerializeFn>} map
 * @param {number} status
 */
export function pickSerializer (map, status) {
  return map.get(String(status)) ?? map.get(`${Math.floor(status / 100)}xx`) ?? map.get('default') ?? null
}

/**
 * pickSerializer's answer for every status, precomputed at ready(): exact
 * codes by number, and each class ('4xx', else 'default') by its first
 * digit, so a request looks one up with no string built (~15-30 ns instead
 * of ~35-150 ns for String(status) and a template, in a micro-benchmark).
 * @param {Map<string, SerializeFn>} map
 * @returns {{ exact: Map<number, SerializeFn>, byClass: (SerializeFn | null)[] }}
 */
export function serializerTable (map) {
  /** @type {Map<number, SerializeFn>} */
  const exact = new Map()
  for (const [key, fn] of map) if (/^\d{3}$/.test(key)) exact.set(Number(key), fn)
  const fallback = map.get('default') ?? null
  /** @type {(SerializeFn | null)[]} */
  const byClass = []
  for (let d = 0; d <= 9; d++) byClass.push(map.get(`${d}xx`) ?? fallback)
  return { exact, byClass }
}

/** fluent-json-schema's mark on its builder objects */
const kFluentSchema = Symbol.for('fluent-schema-object')

/**
 * A schema written with a builder (fluent-json-schema) as the JSON Schema
 * object it stands for; any other schema as it is.
 * @param {any} schema
 */
export function plainSchema (schema) {
  if (schema !== null && typeof schema === 'object' && (schema.isFluentSchema === true || schema.isFluentJSONSchema === true || schema[kFluentSchema] !== undefined)) return schema.valueOf()
  return schema
}

const normalized = new WeakSet()

/**
 * A route's schema made plain in place, once, as Fastify does it before
 * compiling: `query` is another name for `querystring` (both is an error),
 * and builder objects become JSON Schema objects, so that what onRoute
 * hooks and plugins read back after ready() (an API description) is what
 * was compiled.
 * @param {Record<string, any>} schema
 * @param {string} where  'GET:/url', for the error
 */
export function normalizeRouteSchema (schema, where) {
  if (normalized.has(schema)) return schema
  if (schema.query !== undefined) {
    if (schema.querystring !== undefined) throw createError('HP_ERR_INVALID_SCHEMA', where, 'both querystring and query (its other name) are set')
    schema.querystring = schema.query
  }
  for (const key of ['params', 'querystring', 'query', 'headers', 'body']) {
    if (schema[key] !== undefined) schema[key] = plainSchema(schema[key])
  }
  if (schema.response !== null && typeof schema.response === 'object') {
    for (const code of Object.keys(schema.response)) schema.response[code] = plainSchema(schema.response[code])
  }
  normalized.add(schema)
  return schema
}
