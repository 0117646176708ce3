// Where a plugin scope keeps its shared schemas (addSchema) and finds the
// compilers its routes' schemas go through: Fastify's schemaController.
// Each context has one; a child's starts from its parent's schemas and
// compilers when the child's plugin loads. The default compilers (ajv and
// fast-json-stringify) are built at ready(), once for every set of shared
// schemas, so plugin scopes that add none share one.
import { SchemaCompiler, kDeferrable } from './schema.js'
import { deferrable } from './schema-check.js'
import { loadModule as load } from '../require.js'

/**
 * What stores a scope's shared schemas: `bucket(parentSchemas?)` makes one.
 * @typedef {{ add: (schema: any) => void, getSchema: (id: string) => any, getSchemas: () => any }} SchemaBucket
 * @typedef {(init?: any) => SchemaBucket} BucketFactory
 * @typedef {(schemas: any, options?: any) => Function} CompilerBuilder
 * @typedef {{ bucket: BucketFactory, compilersFactory: { buildValidator: CompilerBuilder | null, buildSerializer: CompilerBuilder | null }, isCustomValidatorCompiler: boolean, isCustomSerializerCompiler: boolean }} ControllerOptions
 */

/** marks the validator compiler built by hotpath (ajv), whose validators may be given the request as their data's parent */
export const kDefaultCompiler = Symbol('hotpath.defaultCompiler')

export class SchemaController {
  /**
   * @param {SchemaController | null} parent
   * @param {ControllerOptions} opts
   */
  constructor (parent, opts) {
    this.opts = opts
    this.parent = parent
    /** @type {SchemaBucket} */
    this.bucket = /** @type {any} */ (null)
    /**
     * the builders: the root's, setSchemaController's, or for a child made
     * with its parent's options none of its own (the parent's, looked up
     * when needed)
     */
    this.compilersFactory = parent !== null && opts === parent.opts ? { buildValidator: null, buildSerializer: null } : opts.compilersFactory
    /**
     * schemas added here: this scope's compilers must be built for its own
     * schemas, once for each time some were added (`validatorBuiltAt`)
     */
    this.added = 0
    this.validatorBuiltAt = 0
    this.serializerBuiltAt = 0
    /** @type {Function | undefined} */
    this.validatorCompiler = undefined
    /** @type {Function | undefined} */
    this.serializerCompiler = undefined
    /** the validator compiler is not hotpath's: header schemas go to it as written @type {boolean} */
    this.isCustomValidatorCompiler = false
    /** @type {boolean} */
    this.isCustomSerializerCompiler = false
    if (parent !== null) {
      this.bucket = opts.bucket(parent.getSchemas())
      this.validatorCompiler = parent.getValidatorCompiler()
      this.serializerCompiler = parent.getSerializerCompiler()
      const from = /** @type {{ isCustomValidatorCompiler: boolean, isCustomSerializerCompiler: boolean }} */ (parent)
      this.isCustomValidatorCompiler = from.isCustomValidatorCompiler
      this.isCustomSerializerCompiler = from.isCustomSerializerCompiler
    } else {
      this.bucket = opts.bucket()
      this.isCustomValidatorCompiler = opts.isCustomValidatorCompiler
      this.isCustomSerializerCompiler = opts.isCustomSerializerCompiler
    }
  }

  /** @param {any} schema */
  add (schema) {
    this.added++
    return this.bucket.add(schema)
  }

  /** @param {string} id */
  getSchema (id) {
    return this.bucket.getSchema(id)
  }

  getSchemas () {
    return this.bucket.getSchemas()
  }

  /** @param {Function} compiler */
  setValidatorCompiler (compiler) {
    // as a builder that always answers this compiler, so that a scope that
    // adds schemas afterwards keeps it
    this.compilersFactory = { ...this.compilersFactory, buildValidator: () => compiler }
    this.validatorCompiler = compiler
    this.isCustomValidatorCompiler = true
  }

  /** @param {Function} compiler */
  setSerializerCompiler (compiler) {
    this.compilersFactory = { ...this.compilersFactory, buildSerializer: () => compiler }
    this.serializerCompiler = compiler
    this.isCustomSerializerCompiler = true
  }

  /** @returns {Function | undefined} */
  getValidatorCompiler () {
    return this.validatorCompiler ?? this.parent?.getValidatorCompiler()
  }

  /** @returns {Function | undefined} */
  getSerializerCompiler () {
    return this.serializerCompiler ?? this.parent?.getSerializerCompiler()
  }

  /** @returns {CompilerBuilder} */
  getValidatorBuilder () {
    return /** @type {CompilerBuilder} */ (this.compilersFactory.buildValidator ?? this.parent?.getValidatorBuilder())
  }

  /** @returns {CompilerBuilder} */
  getSerializerBuilder () {
    return /** @type {CompilerBuilder} */ (this.compilersFactory.buildSerializer ?? this.parent?.getSerializerBuilder())
  }

  /**
   * Builds this scope's validator compiler, at ready(), unless it has one
   * that saw every schema added here (so once per scope, not per route).
   * @param {any} ajvOptions  the app's `ajv` option
   */
  setupValidator (ajvOptions) {
    if (this.validatorCompiler !== undefined && this.validatorBuiltAt === this.added) return this.validatorCompiler
    this.validatorCompiler = this.getValidatorBuilder()(this.bucket.getSchemas(), ajvOptions)
    this.validatorBuiltAt = this.added
    return this.validatorCompiler
  }

  /**
   * @param {any} serializerOptions
   */
  setupSerializer (serializerOptions) {
    if (this.serializerCompiler !== undefined && this.serializerBuiltAt === this.added) return this.serializerCompiler
    this.serializerCompiler = this.getSerializerBuilder()(this.bucket.getSchemas(), serializerOptions)
    this.serializerBuiltAt = this.added
    return this.serializerCompiler
  }
}

/**
 * The root scope's controller, from the `schemaController` option
 * ({ bucket, compilersFactory: { buildValidator, buildSerializer } }), or
 * a scope's new one from setSchemaController() (`parent` set).
 * @param {SchemaController | null} parent
 * @param {Record<string, any> | undefined} options
 * @param {(code: string, ...args: any[]) => Error} error  the app's error maker
 */
export function buildSchemaController (parent, options, error) {
  const bucket = options?.bucket
  if (bucket !== undefined && bucket !== null && typeof bucket !== 'function') throw error('HP_ERR_SCHEMA_CONTROLLER', typeof bucket)
  const custom = options?.compilersFactory ?? {}
  if (parent !== null) {
    return new SchemaController(parent, {
      ...parent.opts,
      bucket: bucket ?? parent.opts.bucket,
      compilersFactory: options?.compilersFactory === undefined ? parent.compilersFactory : { buildValidator: custom.buildValidator ?? null, buildSerializer: custom.buildSerializer ?? null }
    })
  }
  return new SchemaController(null, {
    bucket: bucket ?? defaultBucket(error),
    compilersFactory: {
      buildValidator: typeof custom.buildValidator === 'function' ? custom.buildValidator : defaultValidatorBuilder(),
      buildSerializer: typeof custom.buildSerializer === 'function' ? custom.buildSerializer : defaultSerializerBuilder()
    },
    isCustomValidatorCompiler: typeof custom.buildValidator === 'function',
    isCustomSerializerCompiler: typeof custom.buildSerializer === 'function'
  })
}

/**
 * hotpath's store of shared schemas: $id → schema, a child's starting with
 * its parent's; an $id is added once.
 * @param {(code: string, ...args: any[]) => Error} error
 * @returns {BucketFactory}
 */
function defaultBucket (error) {
  return (init) => {
    /** @type {Record<string, any>} */
    const store = { ...init }
    return {
      add (schema) {
        const id = schema?.$id
        if (typeof id !== 'string' || id === '') throw error('HP_ERR_SCHEMA_MISSING_ID')
        if (store[id] !== undefined) throw error('HP_ERR_SCHEMA_ALREADY_PRESENT', id)
        store[id] = schema
      },
      getSchema (id) { return store[id] },
      getSchemas () { return { ...store } }
    }
  }
}

/**
 * A bucket's getSchemas() as $id → schema (a custom bucket may answer a Map).
 * @param {any} schemas
 * @returns {Record<string, any>}
 */
function asRecord (schemas) {
  if (schemas === null || typeof schemas !== 'object') return {}
  if (schemas instanceof Map) return Object.fromEntries(schemas)
  return schemas
}

/**
 * The key under which compilers built for the same shared schemas are shared.
 * @param {Record<string, any>} schemas
 */
function poolKey (schemas) {
  try {
    return JSON.stringify(schemas)
  } catch {
    return null
  }
}

/**
 * hotpath's validator builder: `(schemas, ajvOptions) => compile`, where
 * compile({ schema, httpPart }) answers an ajv validator. Scopes with the
 * same shared schemas get the same compiler (and so the same ajv instances).
 * @returns {CompilerBuilder}
 */
function defaultValidatorBuilder () {
  /** @type {Map<string, Function>} */
  const pool = new Map()
  return (schemas, ajvOptions) => {
    const shared = asRecord(schemas)
    const key = poolKey(shared)
    const known = key === null ? undefined : pool.get(key)
    if (known !== undefined) return known
    const compiler = new SchemaCompiler(ajvOptions ?? null)
    compiler.useShared(shared)
    /** @type {any} */
    const compile = (/** @type {{ schema: any, httpPart?: string }} */ { schema, httpPart }) => compiler.compile(httpPart ?? 'body', schema)
    compile[kDefaultCompiler] = true
    compile[kDeferrable] = (/** @type {any} */ schema, /** @type {string} */ httpPart) => compiler.deferral(httpPart, schema)
    if (key !== null) pool.set(key, compile)
    return compile
  }
}

/**
 * hotpath's serializer builder: compile({ schema }) answers a
 * fast-json-stringify function that can $ref the shared schemas, made with
 * the app's serializerOpts (the same for every scope of an app).
 * @returns {CompilerBuilder}
 */
function defaultSerializerBuilder () {
  /** @type {Map<string, Function>} */
  const pool = new Map()
  return (schemas, options) => {
    const shared = asRecord(schemas)
    const key = poolKey(shared)
    const known = key === null ? undefined : pool.get(key)
    if (known !== undefined) return known
    let built = false
    /** @param {any} schema */
    const build = (schema) => load('fast-json-stringify')(schema, { ...options, schema: shared })
    /** @type {any} */
    const compile = (/** @type {{ schema: any }} */ { schema }) => {
      built = true
      return build(schema)
    }
    // The first schema compiles at ready(), so that serializerOpts
    // fast-json-stringify refuses are refused there; the others wait for
    // their first use when the check finds nothing a build would refuse.
    // A deferred schema is plain JSON (schema-check.js): routes whose
    // schemas have the same text share one serializer.
    const check = serializerCheck(shared)
    /** @type {Map<string, Function>} */
    const byText = new Map()
    compile[kDeferrable] = (/** @type {any} */ schema) => built && check(schema)
      ? () => {
          const text = JSON.stringify(schema)
          const known = byText.get(text)
          if (known !== undefined) return known
          const fn = build(schema)
          byText.set(text, fn)
          return fn
        }
      : null
    if (key !== null) pool.set(key, compile)
    return compile
  }
}

/**
 * Whether a response schema's build can wait for its first use: it passes
 * the meta-schema fast-json-stringify checks every schema against (its own
 * compiled validator, which it runs on each build; when it cannot be
 * loaded, every schema is built at ready()), and schema-check.js finds
 * nothing a build would refuse, in it or in the shared schemas it $refs.
 * @param {Record<string, any>} shared
 * @returns {(schema: any) => boolean}
 */
function serializerCheck (shared) {
  /** @type {((schema: any) => boolean) | null} */
  let validSchema = null
  try {
    validSchema = load('fast-json-stringify/lib/schema-validator')
  } catch {}
  /** @type {Map<string, boolean>} */
  const checked = new Map()
  /** @param {string} id @returns {any} */
  const lookup = (id) => {
    if (!Object.hasOwn(shared, id)) return undefined
    let ok = checked.get(id)
    if (ok === undefined) {
      checked.set(id, false)
      ok = /** @type {(schema: any) => boolean} */ (validSchema)(shared[id]) === true && deferrable(shared[id], lookup, true)
      checked.set(id, ok)
    }
    return ok ? shared[id] : undefined
  }
  return (schema) => validSchema !== null && schema !== null && typeof schema === 'object' && validSchema(schema) === true && deferrable(schema, lookup)
}
