// The one table of hotpath's error codes. Every error hotpath raises itself
// carries one of these codes; docs/errors.md documents each one and
// test/errors.test.js keeps the two in sync.
import { statusText } from './status.js'

/**
 * code → [status, message]. `%s` in a message is replaced by the arguments
 * given to createError, in order.
 * @type {Record<string, { status: number, message: string }>}
 */
export const ERRORS = {
  // Request errors (answered to the client)
  HP_ERR_NOT_FOUND: { status: 404, message: 'Route %s:%s not found' },
  HP_ERR_BAD_URL: { status: 400, message: 'Malformed URL path' },
  HP_ERR_URL_TOO_LONG: { status: 414, message: 'The request-target is longer than %s characters' },
  HP_ERR_VALIDATION: { status: 400, message: '%s' },
  HP_ERR_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  HP_ERR_REQUEST_ABORTED: { status: 400, message: 'Request aborted by the client' },
  HP_ERR_INVALID_JSON: { status: 400, message: 'Body is not valid JSON' },
  HP_ERR_EMPTY_JSON_BODY: { status: 400, message: 'Body cannot be empty when content-type is set to application/json' },
  HP_ERR_PROTO_POISONING: { status: 400, message: 'Body contains a forbidden prototype property' },
  HP_ERR_JSON_TOO_DEEP: { status: 400, message: 'JSON body is nested deeper than %s levels' },
  HP_ERR_INVALID_BODY: { status: 400, message: 'Body could not be parsed' },
  HP_ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Media Type: %s' },
  HP_ERR_TOO_MANY_KEYS: { status: 413, message: 'More than %s keys in %s' },
  HP_ERR_HANDLER_TIMEOUT: { status: 503, message: 'The request was not answered within %s ms' },
  HP_ERR_SERVER_CLOSING: { status: 503, message: 'The server is shutting down' },
  HP_ERR_SERVER_OVERLOADED: { status: 503, message: 'The server is overloaded; retry later' },
  HP_ERR_PROMISE_NOT_FULFILLED: { status: 500, message: 'The handler resolved undefined without sending a reply' },
  HP_ERR_INTERNAL: { status: 500, message: 'Internal Server Error' },
  HP_ERR_SERIALIZATION: { status: 500, message: 'The response could not be serialized' },
  // Protocol errors answered by an engine before the core sees a request
  // (node:http answers these itself with an empty body)
  HP_ERR_BAD_REQUEST: { status: 400, message: 'Malformed request: %s' },
  HP_ERR_HEADERS_TOO_LARGE: { status: 431, message: 'Request header fields too large' },
  HP_ERR_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received within the timeout' },
  HP_ERR_EXPECTATION_FAILED: { status: 417, message: 'Unsupported expectation' },
  HP_ERR_HTTP_VERSION: { status: 505, message: 'HTTP version not supported' },
  HP_ERR_NOT_READY: { status: 503, message: 'The server is not ready' },
  HP_ERR_BODY_CONSUMED: { status: 500, message: 'The request body was already consumed' },
  // Programming errors (thrown at once to the caller, at start-up)
  HP_ERR_DEC_ALREADY_PRESENT: { status: 500, message: "The decorator '%s' has already been added" },
  HP_ERR_DEC_AFTER_READY: { status: 500, message: "The decorator '%s' was added after ready()" },
  HP_ERR_DEC_MISSING_DEPENDENCY: { status: 500, message: "The decorator '%s' is missing, and '%s' depends on it" },
  HP_ERR_DEC_UNDECLARED: { status: 500, message: "No decorator '%s' is declared on this %s" },
  HP_ERR_ROUTE_AFTER_READY: { status: 500, message: 'Route %s:%s was added after ready()' },
  HP_ERR_HOOK_AFTER_READY: { status: 500, message: "Hook '%s' was added after ready()" },
  HP_ERR_REGISTER_AFTER_READY: { status: 500, message: 'A plugin was registered after ready()' },
  HP_ERR_DUPLICATE_ROUTE: { status: 500, message: 'Route %s:%s is already declared' },
  HP_ERR_NOT_FOUND_HANDLER_SET: { status: 500, message: "A not-found handler is already set for the prefix '%s'" },
  HP_ERR_INVALID_ROUTE: { status: 500, message: 'Invalid route: %s' },
  HP_ERR_INVALID_HOOK: { status: 500, message: "Invalid hook '%s': %s" },
  HP_ERR_INVALID_OPTION: { status: 500, message: 'Invalid option %s: %s' },
  HP_ERR_UNSUPPORTED_OPTION: { status: 500, message: 'Option %s is not supported: %s' },
  HP_ERR_INVALID_SCHEMA: { status: 500, message: 'Invalid schema for %s: %s' },
  HP_ERR_SCHEMA_ERROR_FORMATTER: { status: 500, message: "schemaErrorFormatter must be a function that is not async, got '%s'" },
  HP_ERR_PARSER_ALREADY_PRESENT: { status: 500, message: "A content-type parser for '%s' already exists" },
  HP_ERR_UNKNOWN_ENGINE: { status: 500, message: "Unknown engine '%s'" },
  HP_ERR_ALREADY_LISTENING: { status: 500, message: 'The server is already listening' },
  HP_ERR_CLOSED: { status: 500, message: 'The app has been closed and cannot be reopened' },
  HP_ERR_PLUGIN_TIMEOUT: { status: 500, message: "Plugin did not start in time: '%s'. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_HOOK_TIMEOUT: { status: 500, message: "A callback for '%s' hook%s timed out. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_INVALID_LOGGER: { status: 500, message: 'Invalid logger: it lacks the method(s) %s' },
  HP_ERR_PLUGIN_DECORATOR_MISSING: { status: 500, message: "The decorator '%s'%s is not present in %s" },
  HP_ERR_PLUGIN_DEPENDENCY: { status: 500, message: "The dependency '%s' of plugin '%s' is not registered" },
  HP_ERR_ROUTE_LOG_LEVEL: { status: 500, message: "Route %s:%s has an unknown logLevel '%s'" },
  HP_ERR_LOGGER_CONFLICT: { status: 500, message: 'Both logger and loggerInstance were given; give one' },
  HP_ERR_INVALID_LOGGER_INSTANCE: { status: 500, message: 'loggerInstance takes a logger (pino options go in logger)' },
  HP_ERR_LOGGER_NOT_OPTIONS: { status: 500, message: 'logger takes options; a logger made elsewhere goes in loggerInstance' },
  HP_ERR_PLUGIN_VERSION_MISMATCH: { status: 500, message: "Plugin '%s' expects Fastify '%s'; hotpath follows Fastify %s" }
}

/**
 * Fastify's code and message for those of the table it has its own words
 * for: what an app made by hotpath/fastify (errorFormat 'fastify') raises
 * instead. `%s` takes the same arguments as hotpath's message.
 * @type {Record<string, { code: string, message: string }>}
 */
export const FASTIFY_ERRORS = {
  HP_ERR_PLUGIN_VERSION_MISMATCH: { code: 'FST_ERR_PLUGIN_VERSION_MISMATCH', message: "fastify-plugin: %s - expected '%s' fastify version, '%s' is installed" },
  HP_ERR_LOGGER_CONFLICT: { code: 'FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED', message: 'You cannot provide both logger and loggerInstance. Please provide only one.' },
  HP_ERR_INVALID_LOGGER_INSTANCE: { code: 'FST_ERR_LOG_INVALID_LOGGER_INSTANCE', message: 'loggerInstance only accepts a logger instance.' },
  HP_ERR_LOGGER_NOT_OPTIONS: { code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG', message: 'logger options only accepts a configuration object.' },
  HP_ERR_ROUTE_LOG_LEVEL: { code: 'FST_ERR_ROUTE_LOG_LEVEL_INVALID', message: "Log level for '%s:%s' route must be a valid logger level. Received: '%s'" },
  HP_ERR_PLUGIN_DECORATOR_MISSING: { code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', message: "The decorator '%s'%s is not present in %s" },
  HP_ERR_PLUGIN_DEPENDENCY: { code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', message: "The dependency '%s' of plugin '%s' is not registered" },
  HP_ERR_INVALID_LOGGER: { code: 'FST_ERR_LOG_INVALID_LOGGER', message: "Invalid logger object provided. The logger instance should have these functions(s): '%s'." },
  HP_ERR_HOOK_TIMEOUT: { code: 'FST_ERR_HOOK_TIMEOUT', message: "A callback for '%s' hook%s timed out. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_PLUGIN_TIMEOUT: { code: 'FST_ERR_PLUGIN_TIMEOUT', message: "fastify-plugin: Plugin did not start in time: '%s'. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_BAD_URL: { code: 'FST_ERR_BAD_URL', message: "'%s' is not a valid url component" },
  HP_ERR_DUPLICATE_ROUTE: { code: 'FST_ERR_DUPLICATED_ROUTE', message: "Method '%s' already declared for route '%s'" },
  HP_ERR_DEC_ALREADY_PRESENT: { code: 'FST_ERR_DEC_ALREADY_PRESENT', message: "The decorator '%s' has already been added!" },
  HP_ERR_DEC_MISSING_DEPENDENCY: { code: 'FST_ERR_DEC_MISSING_DEPENDENCY', message: "The decorator is missing dependency '%s'." },
  HP_ERR_DEC_UNDECLARED: { code: 'FST_ERR_DEC_UNDECLARED', message: "No decorator '%s' has been declared on %s." },
  HP_ERR_NOT_FOUND_HANDLER_SET: { code: 'FST_ERR_NOT_FOUND_HANDLER_ALREADY_SET', message: "Not found handler already set for Fastify instance with prefix: '%s'" },
  HP_ERR_SCHEMA_ERROR_FORMATTER: { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', message: "schemaErrorFormatter option should be a non async function. Instead got '%s'." }
}

/**
 * An error that answers with its status code and message. Throw it (or
 * return it rejected) from a hook, handler or parser.
 */
export class HttpError extends Error {
  /**
   * @param {number} statusCode
   * @param {string} [message]  defaults to the status's reason phrase
   * @param {{ code?: string, cause?: unknown }} [options]
   */
  constructor (statusCode, message, options) {
    const status = Number.isInteger(statusCode) && statusCode >= 400 && statusCode <= 599 ? statusCode : 500
    super(message ?? statusText(status), options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'HttpError'
    /** @type {number} */
    this.statusCode = status
    /** @type {string | undefined} */
    this.code = options?.code
    /** Extra fields merged into the JSON body (e.g. `validation`). @type {Record<string, unknown> | undefined} */
    this.details = undefined
  }

  /** the reason phrase of the status */
  get error () {
    return statusText(this.statusCode)
  }
}

/**
 * Builds an HttpError for one of the table's codes.
 * @param {string} code
 * @param {...(string | number)} args  replace the %s in the message, in order
 * @returns {HttpError}
 */
export function createError (code, ...args) {
  const entry = ERRORS[code]
  if (entry === undefined) throw new TypeError(`unknown error code ${code}`)
  return new HttpError(entry.status, format(entry.message, args), { code })
}

/**
 * createError, in Fastify's words where FASTIFY_ERRORS has them (its code
 * and message; the status stays the table's).
 * @param {string} code
 * @param {...(string | number)} args
 * @returns {HttpError}
 */
export function createFastifyError (code, ...args) {
  const fastify = FASTIFY_ERRORS[code]
  if (fastify === undefined) return createError(code, ...args)
  return new HttpError(ERRORS[code].status, format(fastify.message, args), { code: fastify.code })
}

/**
 * @param {string} message
 * @param {(string | number)[]} args  replace the %s in the message, in order
 */
function format (message, args) {
  let i = 0
  return message.replace(/%s/g, () => String(args[i++]))
}
