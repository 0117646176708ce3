// Validators (ajv) and serializers (fast-json-stringify), compiled once per
// route through the compilers of the route's plugin scope
// (./schema-controller.js): at ready(), or with hotpath's own compilers on
// the route's first request when ./schema-check.js finds nothing a compile
// would refuse. Params, query and headers arrive as strings, so hotpath's
// validator coerces their types; a body's it does not.
import { createError } from '../errors.js'
// ajv, ajv-formats and fast-json-stringify are loaded by the first route
// that has a schema: an app without schemas does not carry them.
import { loadModule as load } from '../require.js'
import { mediaType } from '../lifecycle/parsers/content-type.js'
import { deferrable } from './schema-check.js'

/**
 * On a compile function of hotpath's own (ajv's, fast-json-stringify's):
 * `(schema, httpPart?) => (() => compiled) | null`, the compile to run on
 * the schema's first use, or null when it must compile at ready()
 * (./schema-check.js). Custom compilers do not have it: theirs run at
 * ready(), as Fastify runs them.
 */
export const kDeferrable = Symbol('hotpath.deferrable')
/** on a serializer whose compile waits for its first call: compiles it (once) and answers it */
const kResolve = Symbol('hotpath.resolveSerializer')

/**
 * @typedef {(data: unknown, dataCxt?: any) => any} ValidateFn  ajv answers a boolean, a custom compiler's validator more (runValidator)
 * @typedef {{ validate: ValidateFn & { errors?: any[] | null }, part: string, key: string, withParent: boolean, pending: (() => ValidateFn) | null }} Validator
 *   `key`: the request property the part is read from and written back to;
 *   `withParent`: ajv is given the request as the data's parent, so that a
 *   root value it coerces (a body `"10"` for `{ type: 'integer' }`) is
 *   written back (only for schemas whose root is not an object: an object
 *   is coerced in place, and the parent costs an object per call);
 *   `pending`: the compile of a validator compiled on first use, which
 *   replaces `validate` (see compiledValidator), null once done
 * @typedef {(data: unknown, contentType?: string) => string} SerializeFn
 *   the content type matters only to a status whose schema is given per
 *   content type (`{ content: { 'application/json': { schema } } }`)
 */

/** why a response schema's key is refused, in Fastify's words */
const RESPONSE_KEYS = 'response schemas should be nested under a valid status code, e.g { 2xx: { type: "object" } }'

export class SchemaCompiler {
  /** @param {{ customOptions?: Record<string, any>, plugins?: any[], onCreate?: (ajv: any) => void } | null} [options]  Fastify's `ajv` option */
  constructor (options = null) {
    this.options = options
    /** @type {any} params, querystring, headers: strings coerced to the schema's types */
    this._coercing = null
    /** @type {any} bodies: no coercion */
    this._plain = null
    /** @type {Record<string, any>} the shared schemas ($id → schema) its validators may $ref */
    this.shared = {}
    /** shared schemas walked by canDefer: $id → nothing found that only a compile refuses @type {Map<string, boolean>} */
    this.sharedChecked = new Map()
    /** per ajv instance, the keywords its plugins (and onCreate) added @type {Map<any, Set<string>>} */
    this.pluginKeywords = new Map()
    /** the ajv instances that have compiled a schema at ready() @type {Set<any>} */
    this.warmed = new Set()
    /** validators of deferred schemas by their JSON text, one map per ajv instance @type {Map<string, any>} */
    this._coercingByText = new Map()
    /** @type {Map<string, any>} */
    this._plainByText = new Map()
  }

  /**
   * The shared schemas (app.addSchema) of the plugin scopes this compiler
   * serves, given once, before the first compile.
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
    const ownKeywords = new Set(Object.keys(ajv.RULES.keywords))
    // an ajv plugin is a function, or [function, its options] (as Fastify
    // takes them); ajv-formats comes after them unless one of them is it
    let formats = true
    for (const plugin of o?.plugins ?? []) {
      const fn = Array.isArray(plugin) ? plugin[0] : plugin
      if (fn.name === 'formatsPlugin') formats = false
      if (Array.isArray(plugin)) fn(ajv, plugin[1])
      else fn(ajv)
    }
    if (formats) load('ajv-formats')(ajv)
    o?.onCreate?.(ajv)
    // the keywords plugins added check their values only as they compile:
    // a schema that uses one compiles at ready() (canDefer)
    /** @type {Set<string>} */
    const added = new Set()
    for (const keyword of Object.keys(ajv.RULES.keywords)) if (!ownKeywords.has(keyword)) added.add(keyword)
    this.pluginKeywords.set(ajv, added)
    addShared(ajv, this.shared)
    if (coerce) this._coercing = ajv
    else this._plain = ajv
    return ajv
  }

  /**
   * An ajv validator for one part of a request: params, querystring and
   * headers coerce strings to the schema's types, a body does not (unless
   * the app's ajv options say so). Throws what ajv throws.
   * @param {string} part
   * @param {any} schema
   */
  compile (part, schema) {
    const ajv = this.ajv(part !== 'body')
    // ajv compiles an $id once: a schema it already has is reused
    const known = schema !== null && typeof schema === 'object' && typeof schema.$id === 'string' ? ajv.getSchema(schema.$id) : undefined
    return known ?? ajv.compile(schema)
  }

  /**
   * compile() for a schema canDefer() accepted, which is plain JSON: routes
   * whose schemas have the same text (the same params on every route of a
   * generated app) share one validator, compiled once.
   * @param {string} part
   * @param {any} schema
   */
  compileDeferred (part, schema) {
    const coerce = part !== 'body'
    const cache = coerce ? this._coercingByText : this._plainByText
    const text = JSON.stringify(schema)
    let validate = cache.get(text)
    if (validate === undefined) {
      validate = this.ajv(coerce).compile(schema)
      cache.set(text, validate)
    }
    return validate
  }

  /**
   * The compile to run on this schema's first use, or null when it must
   * compile at ready() (canDefer). The first such schema of each ajv
   * instance compiles now all the same, so that ajv's own code first runs
   * at ready() rather than on a request: a route's first request took
   * 16-21 ms when it was the process's first compile, 3-4 ms after (1,000
   * routes of lab/targets/startup.js). Should that compile throw, null:
   * the compile at ready() reports it.
   * @param {string} part
   * @param {any} schema
   * @returns {(() => any) | null}
   */
  deferral (part, schema) {
    if (!this.canDefer(part, schema)) return null
    const later = () => this.compileDeferred(part, schema)
    const ajv = this.ajv(part !== 'body')
    if (!this.warmed.has(ajv)) {
      this.warmed.add(ajv)
      try {
        later()
      } catch {
        return null
      }
    }
    return later
  }

  /**
   * Whether this schema's compile can wait for its first use: its ajv is
   * not strict (strict mode finds its faults only by compiling), the
   * schema passes the meta-schema, and schema-check.js finds nothing that
   * only a compile would refuse. Builds the ajv instance, so that the
   * app's ajv options and shared schemas are still checked at ready().
   * @param {string} part
   * @param {any} schema
   */
  canDefer (part, schema) {
    if (schema === null || typeof schema !== 'object') return false
    const ajv = this.ajv(part !== 'body')
    const o = ajv.opts
    if (o.strictSchema === true || o.strictNumbers === true || o.strictTypes === true || o.strictTuples === true || o.strictRequired === true) return false
    if (!ajv.validateSchema(schema)) return false
    return deferrable(schema, (id) => this.lookup(ajv, id), false, this.pluginKeywords.get(ajv))
  }

  /**
   * A schema an ajv instance knows by id: a shared one (walked once, so
   * that a fault in it is found at ready() too), or one ajv registered
   * when a schema with an $id compiled.
   * @param {any} ajv
   * @param {string} id
   */
  lookup (ajv, id) {
    if (Object.hasOwn(this.shared, id)) {
      let ok = this.sharedChecked.get(id)
      if (ok === undefined) {
        this.sharedChecked.set(id, false)
        ok = deferrable(this.shared[id], (other) => this.lookup(ajv, other), true, this.pluginKeywords.get(ajv))
        this.sharedChecked.set(id, ok)
      }
      return ok ? this.shared[id] : undefined
    }
    const env = ajv.schemas[id] ?? ajv.refs[id]
    if (env === undefined) return undefined
    return env !== null && typeof env === 'object' && env.schema !== null && typeof env.schema === 'object' ? env.schema : null
  }

  /**
   * @param {Record<string, any>} responses  status / 'Nxx' / 'default' → schema
   * @param {{ compile: Function, method: string, url: string, error: (code: string, ...args: any[]) => Error, swap?: (lazy: SerializeFn, built: SerializeFn) => void, later?: (compile: () => unknown) => void }} custom
   *   the serializer compiler that applies; `swap` puts a serializer
   *   compiled on first use in the lazy one's place; `later` is handed
   *   each such serializer's compile, to run in the background after listen()
   * @returns {Map<string, SerializeFn>}
   */
  static serializers (responses, custom) {
    /** @type {((schema: any) => (() => SerializeFn) | null) | undefined} */
    const deferred = /** @type {any} */ (custom.compile)[kDeferrable]
    /** @type {Map<string, SerializeFn>} */
    const map = new Map()
    for (const key of Object.keys(responses)) {
      const k = key.toLowerCase()
      if (!/^([1-5](\d\d|xx)|default)$/.test(k)) throw custom.error('HP_ERR_SCHEMA_SERIALIZATION_BUILD', custom.method, custom.url, RESPONSE_KEYS)
      const schema = responses[key]
      /** @param {any} one @param {string | undefined} contentType */
      const compile = (one, contentType) => {
        const later = deferred === undefined ? null : deferred(one)
        /** @returns {SerializeFn} */
        const build = () => {
          try {
            return later === null ? custom.compile({ schema: one, method: custom.method, url: custom.url, httpStatus: key, ...(contentType === undefined ? {} : { contentType }) }) : later()
          } catch (err) {
            throw custom.error('HP_ERR_SCHEMA_SERIALIZATION_BUILD', custom.method, custom.url, /** @type {Error} */ (err).message)
          }
        }
        if (later === null) return build()
        const lazy = lazySerializer(build, custom.swap)
        custom.later?.(() => compiledSerializer(lazy))
        return lazy
      }
      const content = hasContent(schema) ? schema.content : null
      if (content === null) {
        map.set(k, compile(schema, undefined))
        continue
      }
      // one schema per content type: the reply's Content-Type picks it
      /** @type {Map<string, SerializeFn>} */
      const byType = new Map()
      for (const type of Object.keys(content)) byType.set(type.toLowerCase(), compile(content[type].schema, type))
      map.set(k, byContentType(byType))
    }
    return map
  }
}

/**
 * A serializer compiled on its first call; `swap` then puts the compiled
 * one in its place in the route's tables, so that later answers call it
 * directly.
 * @param {() => SerializeFn} build
 * @param {((lazy: SerializeFn, built: SerializeFn) => void) | undefined} swap
 * @returns {SerializeFn}
 */
function lazySerializer (build, swap) {
  /** @type {SerializeFn | null} */
  let built = null
  const resolve = () => {
    if (built === null) {
      built = build()
      swap?.(lazy, built)
    }
    return built
  }
  /** @type {SerializeFn & { [kResolve]?: () => SerializeFn }} */
  const lazy = (data, contentType) => resolve()(data, contentType)
  lazy[kResolve] = resolve
  return lazy
}

/**
 * A serializer as its compiler made it: a lazy one compiled now (what
 * reply.getSerializationFunction() hands out is the compiled function).
 * @template T
 * @param {T} fn
 * @returns {T}
 */
export function compiledSerializer (fn) {
  const resolve = /** @type {any} */ (fn)?.[kResolve]
  return typeof resolve === 'function' ? resolve() : fn
}

/**
 * A validator as its compiler made it: one compiled on first use is
 * compiled now, and put in place of the stand-in on the Validator.
 * @param {Validator} v
 */
export function compiledValidator (v) {
  const pending = v.pending
  if (pending !== null) {
    // (pending stays set until the compile succeeds: a compile that throws
    // throws again on the next call, not a call to the stand-in forever)
    v.validate = /** @type {any} */ (pending())
    v.pending = null
  }
  return v.validate
}

/**
 * True for a response schema given per content type, as OpenAPI writes it.
 * @param {any} schema
 * @returns {schema is { content: Record<string, { schema: any }> }}
 */
export function hasContent (schema) {
  return schema !== null && typeof schema === 'object' && schema.content !== null && typeof schema.content === 'object' && !Array.isArray(schema.content)
}

/**
 * The serializer of a status whose schema is given per content type: the
 * reply's media type picks one, else the one declared for every type,
 * else JSON.stringify.
 * @param {Map<string, SerializeFn>} byType
 * @returns {SerializeFn}
 */
function byContentType (byType) {
  const any = byType.get('*/*') ?? null
  /** @type {SerializeFn & { byType?: Map<string, SerializeFn> }} */
  const pick = (data, contentType) => {
    const type = contentType === undefined ? null : mediaType(contentType)
    const fn = (type === null ? undefined : byType.get(type)) ?? any
    return fn === null ? /** @type {string} */ (JSON.stringify(data)) : fn(data)
  }
  // each one, for reply.getSerializationFunction(status, contentType)
  pick.byType = byType
  return pick
}

/**
 * One part's validator, from the compiler that applies to the route
 * (hotpath's ajv, setValidatorCompiler's, the route's validatorCompiler or
 * a schemaController's): the part's schema made ready as Fastify does it
 * (shorthand objects, header names in lower case unless the compiler is a
 * custom one), compiled once. A compiler that answers no function leaves
 * the part unvalidated, as in Fastify.
 * @param {'params' | 'querystring' | 'headers' | 'body'} part
 * @param {any} schema
 * @param {{ compile: Function, method: string, url: string, custom: boolean, contentType?: string, error: (code: string, ...args: any[]) => Error, later?: (compile: () => unknown) => void }} how
 *   `later` is handed the compile of a validator that waits for its first
 *   use, to run in the background after listen()
 * @returns {Validator | null}
 */
export function buildValidator (part, schema, how) {
  // a custom compiler gets the schema as written, as in Fastify
  let s = schema
  if (!how.custom) {
    if (part !== 'body') s = objectShorthand(s)
    if (part === 'headers' && !hasCustomPrototype(schema)) s = lowerCaseHeaders(s)
  }
  /** @type {((schema: any, httpPart: string) => (() => ValidateFn) | null) | undefined} */
  const deferred = how.custom ? undefined : /** @type {any} */ (how.compile)[kDeferrable]
  const later = deferred === undefined ? null : deferred(s, part)
  const compile = () => {
    try {
      if (later !== null) return later()
      return how.compile(how.contentType === undefined ? { schema: s, method: how.method, url: how.url, httpPart: part } : { schema: s, method: how.method, url: how.url, httpPart: part, contentType: how.contentType })
    } catch (err) {
      throw how.error('HP_ERR_INVALID_SCHEMA', how.method, how.url, /** @type {Error} */ (err).message)
    }
  }
  const key = part === 'querystring' ? 'query' : part
  // ajv writes a coerced root value back only through the parent
  const rootNotObject = s === null || typeof s !== 'object' || s.type !== 'object'
  if (later !== null) {
    // compiled by the first request that reaches it (hotpath's ajv always
    // answers a function, and one with a schemaEnv), then called directly
    /** @type {Validator} */
    const v = { validate: (data, dataCxt) => compiledValidator(v)(data, dataCxt), part, key, withParent: rootNotObject, pending: compile }
    how.later?.(() => compiledValidator(v))
    return v
  }
  const validate = compile()
  if (typeof validate !== 'function') return null
  return { validate: /** @type {any} */ (validate), part, key, withParent: validate.schemaEnv !== undefined && rootNotObject, pending: null }
}

/**
 * A schema object made by a class (TypeBox, Joi…), which Fastify hands to
 * the compiler untouched.
 * @param {any} schema
 */
function hasCustomPrototype (schema) {
  return schema !== null && typeof schema === 'object' && Object.getPrototypeOf(schema) !== Object.prototype
}

/**
 * @param {any} ajv
 * @param {Record<string, any>} shared
 */
function addShared (ajv, shared) {
  for (const id of Object.keys(shared)) if (ajv.getSchema(id) === undefined) ajv.addSchema(shared[id], id)
}

/**
 * `{ id: { type: 'integer' } }` is accepted as shorthand for an object
 * schema with those properties, as in Fastify.
 * @param {any} schema
 */
function objectShorthand (schema) {
  if (schema === null || typeof schema !== 'object') return schema
  if ('type' in schema || 'properties' in schema || '$ref' in schema || 'anyOf' in schema || 'oneOf' in schema || 'allOf' in schema) return schema
  // a key that starts with '$' is a keyword ($ref, $merge, $patch…), not a property
  if (Object.keys(schema).some((k) => k.startsWith('$'))) return schema
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
 * builder objects become JSON Schema objects, so that what onRoute hooks
 * and plugins read back after ready() (an API description) is what was
 * compiled, and a body by content type names a schema for each type.
 * @param {Record<string, any>} schema
 * @param {(code: string, ...args: any[]) => Error} error  the app's error maker
 */
export function normalizeRouteSchema (schema, error) {
  if (normalized.has(schema)) return schema
  if (schema.query !== undefined) {
    if (schema.querystring !== undefined) throw error('HP_ERR_SCHEMA_DUPLICATE', 'querystring')
    schema.querystring = schema.query
  }
  for (const key of ['params', 'querystring', 'query', 'headers', 'body']) {
    if (schema[key] !== undefined) schema[key] = plainSchema(schema[key])
  }
  const content = bodyContent(schema.body)
  if (content !== null) {
    for (const type of Object.keys(content)) if (!content[type]?.schema) throw error('HP_ERR_SCHEMA_CONTENT_MISSING', type)
  }
  if (schema.response !== null && typeof schema.response === 'object') {
    for (const code of Object.keys(schema.response)) schema.response[code] = plainSchema(schema.response[code])
  }
  normalized.add(schema)
  return schema
}

/**
 * A body schema by content type (`{ content: { 'application/json': {
 * schema } } }`): its `content`, else null.
 * @param {any} body
 * @returns {Record<string, { schema: any }> | null}
 */
export function bodyContent (body) {
  if (body === null || typeof body !== 'object' || hasCustomPrototype(body)) return null
  const content = body.content
  return content !== null && typeof content === 'object' && !Array.isArray(content) && body.type === undefined && body.properties === undefined ? content : null
}
