// The one table of hotpath's error codes. Every error hotpath raises itself
// carries one of these codes; docs/errors.md documents each one and
// test/errors.test.js keeps the two in sync.
import { format as utilFormat } from 'node:util'
import { statusText } from './status.js'
import { FASTIFY_CODES, FASTIFY_TYPE_ERRORS } from './fastify-codes.js'

/**
 * code → [status, message]. `%s` in a message is replaced by the arguments
 * given to createError, in order.
 * @type {Record<string, { status: number, message: string }>}
 */
export const ERRORS = {
  // Request errors (answered to the client)
  HP_ERR_NOT_FOUND: { status: 404, message: 'Route %s:%s not found' },
  HP_ERR_METHOD_UNKNOWN: { status: 404, message: 'Route %s:%s not found' },
  HP_ERR_BAD_URL: { status: 400, message: 'Malformed URL path' },
  HP_ERR_URL_TOO_LONG: { status: 414, message: 'The request-target is longer than %s characters' },
  HP_ERR_MAX_PARAM_LENGTH: { status: 414, message: "A path parameter of '%s' is longer than maxParamLength" },
  HP_ERR_ASYNC_CONSTRAINT: { status: 500, message: 'A constraint strategy failed to derive its value' },
  HP_ERR_VALIDATION: { status: 400, message: '%s' },
  HP_ERR_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  HP_ERR_REQUEST_ABORTED: { status: 400, message: 'Request aborted by the client' },
  HP_ERR_INVALID_JSON: { status: 400, message: 'Body is not valid JSON' },
  HP_ERR_EMPTY_JSON_BODY: { status: 400, message: 'Body cannot be empty when content-type is set to application/json' },
  HP_ERR_PROTO_POISONING: { status: 400, message: 'Body contains a forbidden prototype property' },
  HP_ERR_JSON_TOO_DEEP: { status: 400, message: 'JSON body is nested deeper than %s levels' },
  HP_ERR_INVALID_BODY: { status: 400, message: 'Body could not be parsed' },
  HP_ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Media Type: %s' },
  HP_ERR_INVALID_CONTENT_LENGTH: { status: 400, message: 'Request body size did not match Content-Length' },
  HP_ERR_MISSING_CONTENT_TYPE: { status: 400, message: 'A %s request must have a Content-Type header' },
  HP_ERR_MISSING_CONTENT: { status: 400, message: 'A %s request must have a body' },
  HP_ERR_TOO_MANY_KEYS: { status: 413, message: 'More than %s keys in %s' },
  HP_ERR_HANDLER_TIMEOUT: { status: 503, message: 'The request was not answered within %s ms' },
  HP_ERR_SERVER_CLOSING: { status: 503, message: 'The server is shutting down' },
  HP_ERR_SERVER_OVERLOADED: { status: 503, message: 'The server is overloaded; retry later' },
  HP_ERR_CONNECTION_EXHAUSTED: { status: 503, message: 'This connection has served the most requests it may (maxRequestsPerSocket); open a new one' },
  HP_ERR_PROMISE_NOT_FULFILLED: { status: 500, message: 'The handler resolved undefined without sending a reply' },
  HP_ERR_INTERNAL: { status: 500, message: 'Internal Server Error' },
  HP_ERR_HOOK_REJECTED_EMPTY: { status: 500, message: 'A hook rejected without a reason' },
  HP_ERR_SERIALIZATION: { status: 500, message: 'The response could not be serialized' },
  HP_ERR_ROUTE_REWRITE_NOT_STR: { status: 500, message: 'rewriteUrl returned no string for "%s" (got %s)' },
  HP_ERR_ERROR_SERIALIZATION: { status: 500, message: 'The error answer could not be serialized (%s); the error: %s' },
  HP_ERR_RESPONSE_BODY_USED: { status: 500, message: 'The Response sent has a body that was already read' },
  HP_ERR_STREAM_LOCKED: { status: 500, message: 'The ReadableStream sent is locked by a reader' },
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
  HP_ERR_DEC_DEPENDENCY_INVALID_TYPE: { status: 500, message: "The dependencies of the decorator '%s' must be an array of names" },
  HP_ERR_PLUGIN_ASYNC_DONE: { status: 500, message: "The async plugin '%s' declares a 'done' parameter: an async plugin has finished when its promise settles, without done" },
  HP_ERR_PLUGIN_MISSING_DECORATOR: { status: 500, message: "The decorator '%s'%s is missing from %s" },
  HP_ERR_DEC_REFERENCE_TYPE: { status: 500, message: "The decorator '%s' is a shared %s: every request would share one value; give { getter, setter }, or set it in an onRequest hook" },
  HP_ERR_ROUTE_AFTER_READY: { status: 500, message: 'Route %s:%s was added after ready()' },
  HP_ERR_HOOK_AFTER_READY: { status: 500, message: '%s%s was called after ready()' },
  HP_ERR_CONSTRAINT_AFTER_READY: { status: 500, message: 'addConstraintStrategy was called after ready()' },
  HP_ERR_HOOK_WHILE_READY: { status: 500, message: '%s%s was called by an onReady hook: the routes are already compiled' },
  HP_ERR_PARSER_AFTER_READY: { status: 500, message: '%s was called after ready()' },
  HP_ERR_REGISTER_AFTER_READY: { status: 500, message: 'A plugin was registered after ready()' },
  HP_ERR_DUPLICATE_ROUTE: { status: 500, message: 'Route %s:%s is already declared' },
  HP_ERR_NOT_FOUND_HANDLER_SET: { status: 500, message: "A not-found handler is already set for the prefix '%s'" },
  HP_ERR_INVALID_ROUTE: { status: 500, message: 'Invalid route: %s' },
  HP_ERR_ROUTE_MISSING_HANDLER: { status: 500, message: 'Route %s:%s has no handler function' },
  HP_ERR_ROUTE_METHOD_INVALID: { status: 500, message: 'A route method must be a method name, got %s' },
  HP_ERR_ROUTE_METHOD_NOT_SUPPORTED: { status: 500, message: '%s method is not supported. addHttpMethod() adds it' },
  HP_ERR_ROUTE_BODY_SCHEMA: { status: 500, message: 'Body validation schema for %s:%s route is not supported! The method\'s request bodies are not parsed' },
  HP_ERR_INVALID_HOOK: { status: 500, message: "The %s hook must be a function, got %s" },
  HP_ERR_HOOK_INVALID_TYPE: { status: 500, message: 'A hook name must be a string, got %s' },
  HP_ERR_HOOK_NOT_SUPPORTED: { status: 500, message: "Unknown hook '%s'" },
  HP_ERR_HOOK_ASYNC_DONE: { status: 500, message: "The async %s hook declares a 'done' parameter: an async hook answers with its promise, without done" },
  HP_ERR_ERROR_HANDLER_NOT_FN: { status: 500, message: 'An error handler must be a function, got %s' },
  HP_ERR_HTTP_METHOD_INVALID: { status: 500, message: 'addHttpMethod takes a method Node.js parses, got %s' },
  HP_ERR_BAD_STATUS_CODE: { status: 500, message: 'reply.code() takes a status code from 100 to 599, got %s' },
  HP_ERR_INVALID_URL: { status: 500, message: "A route's path must be a string, got %s" },
  HP_ERR_ROUTE_LOG_LEVEL: { status: 500, message: "Route %s:%s has an invalid logLevel: '%s'" },
  HP_ERR_ROUTE_BODY_LIMIT: { status: 500, message: "A route's bodyLimit must be a positive integer, got '%s'" },
  HP_ERR_QSP_NOT_FN: { status: 500, message: "querystringParser must be a function, got '%s'" },
  HP_ERR_ROUTE_EMPTY_PATH: { status: 500, message: 'The path could not be empty' },
  HP_ERR_ROUTE_ERROR_HANDLER: { status: 500, message: 'The errorHandler of route %s:%s must be a function' },
  HP_ERR_OPTIONS_NOT_OBJ: { status: 500, message: 'The options must be an object, got %s' },
  HP_ERR_REP_INVALID_PAYLOAD_TYPE: { status: 500, message: "A payload of type '%s' cannot be sent with a Content-Type that is not JSON: send a string, a Buffer or a stream" },
  HP_ERR_ROUTE_OPTIONS_NOT_OBJ: { status: 500, message: 'The options of route %s:%s must be an object when a handler follows them' },
  HP_ERR_ROUTE_DUPLICATED_HANDLER: { status: 500, message: 'Route %s:%s has a handler in its options and another after them' },
  HP_ERR_LOGGER_INSTANCE: { status: 500, message: 'loggerInstance must be a logger, got %s' },
  HP_ERR_LOGGER_INVALID: { status: 500, message: "The logger lacks the methods '%s'" },
  HP_ERR_LOGGER_AND_INSTANCE: { status: 500, message: 'logger and loggerInstance were both given; give one' },
  HP_ERR_LOGGER_CONFIG: { status: 500, message: 'logger takes options with errorFormat fastify; give a logger made elsewhere as loggerInstance' },
  HP_ERR_INVALID_HANDLER_TIMEOUT: { status: 500, message: "A route's handlerTimeout must be an integer > 0, got '%s'" },
  HP_ERR_INVALID_OPTION: { status: 500, message: 'Invalid option %s: %s' },
  HP_ERR_ERROR_HANDLER_SET: { status: 500, message: 'An error handler is already set in this context, and allowErrorHandlerOverride is false' },
  HP_ERR_UNSUPPORTED_OPTION: { status: 500, message: 'Option %s is not supported: %s' },
  HP_ERR_INVALID_SCHEMA: { status: 500, message: 'Invalid schema for %s:%s: %s' },
  HP_ERR_SCHEMA_ERROR_FORMATTER: { status: 500, message: "schemaErrorFormatter must be a function that is not async, got '%s'" },
  HP_ERR_SCHEMA_MISSING_ID: { status: 500, message: 'A shared schema needs a string $id' },
  HP_ERR_SCHEMA_ALREADY_PRESENT: { status: 500, message: "A schema with $id '%s' was already added" },
  HP_ERR_SCHEMA_DUPLICATE: { status: 500, message: 'Both %s and query (its other name) are set' },
  HP_ERR_SCHEMA_CONTENT_MISSING: { status: 500, message: "The schema for the content type '%s' is missing" },
  HP_ERR_SCHEMA_SERIALIZATION_BUILD: { status: 500, message: 'Invalid response schema for %s:%s: %s' },
  HP_ERR_SCHEMA_CONTROLLER: { status: 500, message: "schemaController.bucket must be a function, got '%s'" },
  HP_ERR_MISSING_SERIALIZATION_FN: { status: 500, message: 'The route has no response serializer for "%s"' },
  HP_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN: { status: 500, message: 'The route has no response serializer for "%s" and the content type "%s"' },
  HP_ERR_VALIDATION_INVOCATION: { status: 500, message: 'No validation function for the HTTP part "%s", and no schema given to compile one' },
  HP_ERR_PARSER_ALREADY_PRESENT: { status: 500, message: "A content-type parser for '%s' already exists" },
  HP_ERR_PARSER_INVALID_TYPE: { status: 500, message: 'A parser content type must be a media type or a RegExp, got %s' },
  HP_ERR_PARSER_EMPTY_TYPE: { status: 500, message: 'A parser content type cannot be an empty string' },
  HP_ERR_PARSER_INVALID_HANDLER: { status: 500, message: 'The parser for %s must be a function' },
  HP_ERR_PARSER_INVALID_PARSE_AS: { status: 500, message: "parseAs must be 'string', 'buffer' or 'stream', got '%s'" },
  HP_ERR_UNKNOWN_ENGINE: { status: 500, message: "Unknown engine '%s'" },
  HP_ERR_FORCE_CLOSE_IDLE_UNAVAILABLE: { status: 500, message: "forceCloseConnections: 'idle' needs a server with closeIdleConnections(); the one serverFactory made has none" },
  HP_ERR_ALREADY_LISTENING: { status: 500, message: 'The server is already listening' },
  HP_ERR_CLOSED: { status: 500, message: 'The app has been closed and cannot be reopened' },
  HP_ERR_INVALID_LISTEN_OPTION: { status: 500, message: 'Invalid listen option: %s' },
  HP_ERR_PLUGIN_TIMEOUT: { status: 500, message: "Plugin did not start in time: '%s'. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_HOOK_TIMEOUT: { status: 500, message: "A callback for '%s' hook%s timed out. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_BAD_TRAILER_NAME: { status: 500, message: "'%s' may not be sent as a trailer field" },
  HP_ERR_BAD_TRAILER_VALUE: { status: 500, message: "The trailer '%s' takes a function that computes its value, got %s" },
  HP_ERR_REP_ALREADY_SENT: { status: 500, message: "The reply to '%s' (%s) was already sent; a second send() was ignored" },
  HP_ERR_SEND_INSIDE_ONERR: { status: 500, message: 'reply.send() cannot be called in an onError hook: the hook observes the error, the error handler answers it' },
  HP_ERR_PLUGIN_DEPENDENCY: { status: 500, message: "The dependency '%s' of plugin '%s' is not registered" },
  HP_ERR_PLUGIN_VERSION_MISMATCH: { status: 500, message: "Plugin '%s' expects Fastify '%s'; hotpath follows Fastify %s" },
}

/**
 * Fastify's code and message for those of the table it has its own words
 * for: what an app made by hotpath/fastify (errorFormat 'fastify') raises
 * instead. `%s` takes the same arguments as hotpath's message.
 * @type {Record<string, { code: string, message: string }>}
 */
export const FASTIFY_ERRORS = {
  // a method node:http does not know (over HTTP/2): Fastify's not-found
  // router has no route for it, and its fallback answers this error
  HP_ERR_METHOD_UNKNOWN: { code: 'FST_ERR_NOT_FOUND', message: 'Not Found' },
  HP_ERR_ERROR_SERIALIZATION: { code: 'FST_ERR_FAILED_ERROR_SERIALIZATION', message: 'Failed to serialize an error. Error: %s. Original error: %s' },
  HP_ERR_BAD_STATUS_CODE: { code: 'FST_ERR_BAD_STATUS_CODE', message: 'Called reply with an invalid status code: %s' },
  HP_ERR_ERROR_HANDLER_NOT_FN: { code: 'FST_ERR_ERROR_HANDLER_NOT_FN', message: 'Error Handler must be a function' },
  HP_ERR_ERROR_HANDLER_SET: { code: 'FST_ERR_ERROR_HANDLER_ALREADY_SET', message: "Error Handler already set in this scope. Set 'allowErrorHandlerOverride: true' to allow overriding." },
  HP_ERR_ROUTE_ERROR_HANDLER: { code: 'FST_ERR_ROUTE_HANDLER_NOT_FN', message: 'Error Handler for %s:%s route, if defined, must be a function' },
  HP_ERR_PLUGIN_VERSION_MISMATCH: { code: 'FST_ERR_PLUGIN_VERSION_MISMATCH', message: "fastify-plugin: %s - expected '%s' fastify version, '%s' is installed" },
  HP_ERR_PLUGIN_DEPENDENCY: { code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', message: "The dependency '%s' of plugin '%s' is not registered" },
  HP_ERR_HOOK_TIMEOUT: { code: 'FST_ERR_HOOK_TIMEOUT', message: "A callback for '%s' hook%s timed out. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_PLUGIN_TIMEOUT: { code: 'FST_ERR_PLUGIN_TIMEOUT', message: "fastify-plugin: Plugin did not start in time: '%s'. You may have forgotten to call 'done' function or to resolve a Promise" },
  HP_ERR_RESPONSE_BODY_USED: { code: 'FST_ERR_REP_RESPONSE_BODY_CONSUMED', message: 'Response.body is already consumed.' },
  HP_ERR_STREAM_LOCKED: { code: 'FST_ERR_REP_READABLE_STREAM_LOCKED', message: 'ReadableStream was locked. You should call releaseLock() method on reader before sending.' },
  HP_ERR_CLOSED: { code: 'FST_ERR_REOPENED_CLOSE_SERVER', message: 'Fastify has already been closed and cannot be reopened' },
  HP_ERR_ALREADY_LISTENING: { code: 'FST_ERR_REOPENED_SERVER', message: 'Fastify is already listening' },
  HP_ERR_INVALID_LISTEN_OPTION: { code: 'FST_ERR_LISTEN_OPTIONS_INVALID', message: "Invalid listen options: '%s'" },
  HP_ERR_HANDLER_TIMEOUT: { code: 'FST_ERR_HANDLER_TIMEOUT', message: "Request timed out after %s ms on route '%s'" },
  HP_ERR_INVALID_HANDLER_TIMEOUT: { code: 'FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT', message: "'handlerTimeout' option must be an integer > 0. Got '%s'" },
  HP_ERR_FORCE_CLOSE_IDLE_UNAVAILABLE: { code: 'FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE', message: "Cannot set forceCloseConnections to 'idle' as your HTTP server does not support closeIdleConnections method" },
  HP_ERR_BAD_URL: { code: 'FST_ERR_BAD_URL', message: "'%s' is not a valid url component" },
  HP_ERR_MAX_PARAM_LENGTH: { code: 'FST_ERR_MAX_PARAM_LENGTH', message: "'%s' is exceeding the max param length" },
  HP_ERR_ASYNC_CONSTRAINT: { code: 'FST_ERR_ASYNC_CONSTRAINT', message: 'Unexpected error from async constraint' },
  HP_ERR_ROUTE_REWRITE_NOT_STR: { code: 'FST_ERR_ROUTE_REWRITE_NOT_STR', message: 'Rewrite url for "%s" needs to be of type "string" but received "%s"' },
  HP_ERR_DUPLICATE_ROUTE: { code: 'FST_ERR_DUPLICATED_ROUTE', message: "Method '%s' already declared for route '%s'" },
  HP_ERR_DEC_ALREADY_PRESENT: { code: 'FST_ERR_DEC_ALREADY_PRESENT', message: "The decorator '%s' has already been added!" },
  HP_ERR_DEC_MISSING_DEPENDENCY: { code: 'FST_ERR_DEC_MISSING_DEPENDENCY', message: "The decorator is missing dependency '%s'." },
  HP_ERR_DEC_UNDECLARED: { code: 'FST_ERR_DEC_UNDECLARED', message: "No decorator '%s' has been declared on %s." },
  HP_ERR_NOT_FOUND_HANDLER_SET: { code: 'FST_ERR_NOT_FOUND_HANDLER_ALREADY_SET', message: "Not found handler already set for Fastify instance with prefix: '%s'" },
  HP_ERR_SCHEMA_ERROR_FORMATTER: { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', message: "schemaErrorFormatter option should be a non async function. Instead got '%s'." },
  HP_ERR_BODY_TOO_LARGE: { code: 'FST_ERR_CTP_BODY_TOO_LARGE', message: 'Request body is too large' },
  HP_ERR_INVALID_CONTENT_LENGTH: { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', message: 'Request body size did not match Content-Length' },
  HP_ERR_UNSUPPORTED_MEDIA_TYPE: { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: 'Unsupported Media Type' },
  HP_ERR_EMPTY_JSON_BODY: { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', message: "Body cannot be empty when content-type is set to 'application/json'" },
  HP_ERR_INVALID_JSON: { code: 'FST_ERR_CTP_INVALID_JSON_BODY', message: "Body is not valid JSON but content-type is set to 'application/json'" },
  // Fastify's JSON parser refuses a poisoned body as it refuses invalid JSON
  HP_ERR_PROTO_POISONING: { code: 'FST_ERR_CTP_INVALID_JSON_BODY', message: "Body is not valid JSON but content-type is set to 'application/json'" },
  HP_ERR_MISSING_CONTENT_TYPE: { code: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE', message: "Method '%s' must provide a 'Content-Type' header." },
  HP_ERR_MISSING_CONTENT: { code: 'FST_ERR_ROUTE_MISSING_CONTENT', message: "Method '%s' must provide a request body." },
  HP_ERR_PARSER_ALREADY_PRESENT: { code: 'FST_ERR_CTP_ALREADY_PRESENT', message: "Content type parser '%s' already present." },
  HP_ERR_PARSER_INVALID_TYPE: { code: 'FST_ERR_CTP_INVALID_TYPE', message: 'The content type should be a string or a RegExp' },
  HP_ERR_PARSER_EMPTY_TYPE: { code: 'FST_ERR_CTP_EMPTY_TYPE', message: 'The content type cannot be an empty string' },
  HP_ERR_PARSER_INVALID_HANDLER: { code: 'FST_ERR_CTP_INVALID_HANDLER', message: 'The content type handler should be a function' },
  HP_ERR_PARSER_INVALID_PARSE_AS: { code: 'FST_ERR_CTP_INVALID_PARSE_TYPE', message: "The body parser can only parse your data as 'string' or 'buffer', you asked '%s' which is not supported." },
  HP_ERR_INVALID_HOOK: { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: '%s hook should be a function, instead got %s' },
  HP_ERR_HOOK_INVALID_TYPE: { code: 'FST_ERR_HOOK_INVALID_TYPE', message: 'The hook name must be a string' },
  HP_ERR_HOOK_NOT_SUPPORTED: { code: 'FST_ERR_HOOK_NOT_SUPPORTED', message: '%s hook not supported!' },
  HP_ERR_HOOK_ASYNC_DONE: { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER', message: "Async function has too many arguments. Async hooks should not use the 'done' argument." },
  HP_ERR_DEC_AFTER_READY: { code: 'FST_ERR_DEC_AFTER_START', message: "The decorator '%s' has been added after start!" },
  HP_ERR_DEC_DEPENDENCY_INVALID_TYPE: { code: 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', message: "The dependencies of decorator '%s' must be of type Array." },
  HP_ERR_PLUGIN_ASYNC_DONE: { code: 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER', message: 'The %s plugin being registered mixes async and callback styles. Async plugin should not mix async and callback style.' },
  HP_ERR_PLUGIN_MISSING_DECORATOR: { code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', message: "The decorator '%s'%s is not present in %s" },
  HP_ERR_DEC_REFERENCE_TYPE: { code: 'FST_ERR_DEC_REFERENCE_TYPE', message: "The decorator '%s' of type '%s' is a reference type. Use the { getter, setter } interface instead." },
  HP_ERR_HTTP_METHOD_INVALID: { code: 'FST_ERR_ROUTE_METHOD_INVALID', message: 'Provided method is invalid!' },
  HP_ERR_ROUTE_MISSING_HANDLER: { code: 'FST_ERR_ROUTE_MISSING_HANDLER', message: 'Missing handler function for "%s:%s" route.' },
  HP_ERR_ROUTE_METHOD_INVALID: { code: 'FST_ERR_ROUTE_METHOD_INVALID', message: 'Provided method is invalid!' },
  HP_ERR_ROUTE_METHOD_NOT_SUPPORTED: { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED', message: '%s method is not supported.' },
  HP_ERR_ROUTE_BODY_SCHEMA: { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', message: 'Body validation schema for %s:%s route is not supported!' },
  HP_ERR_INVALID_URL: { code: 'FST_ERR_INVALID_URL', message: "URL must be a string. Received '%s'" },
  HP_ERR_ROUTE_LOG_LEVEL: { code: 'FST_ERR_ROUTE_LOG_LEVEL_INVALID', message: "Log level for '%s:%s' route must be a valid logger level. Received: '%s'" },
  HP_ERR_ROUTE_BODY_LIMIT: { code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT', message: "'bodyLimit' option must be an integer > 0. Got '%s'" },
  HP_ERR_QSP_NOT_FN: { code: 'FST_ERR_QSP_NOT_FN', message: "querystringParser option should be a function, instead got '%s'" },
  HP_ERR_SCHEMA_MISSING_ID: { code: 'FST_ERR_SCH_MISSING_ID', message: 'Missing schema $id property' },
  HP_ERR_SCHEMA_ALREADY_PRESENT: { code: 'FST_ERR_SCH_ALREADY_PRESENT', message: "Schema with id '%s' already declared!" },
  HP_ERR_SCHEMA_DUPLICATE: { code: 'FST_ERR_SCH_DUPLICATE', message: "Schema with '%s' already present!" },
  HP_ERR_SCHEMA_CONTENT_MISSING: { code: 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA', message: "Schema is missing for the content type '%s'" },
  HP_ERR_INVALID_SCHEMA: { code: 'FST_ERR_SCH_VALIDATION_BUILD', message: 'Failed building the validation schema for %s: %s, due to error %s' },
  HP_ERR_SCHEMA_SERIALIZATION_BUILD: { code: 'FST_ERR_SCH_SERIALIZATION_BUILD', message: 'Failed building the serialization schema for %s: %s, due to error %s' },
  HP_ERR_SCHEMA_CONTROLLER: { code: 'FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN', message: "schemaController.bucket option should be a function, instead got '%s'" },
  HP_ERR_MISSING_SERIALIZATION_FN: { code: 'FST_ERR_MISSING_SERIALIZATION_FN', message: 'Missing serialization function. Key "%s"' },
  HP_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN: { code: 'FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN', message: 'Missing serialization function. Key "%s:%s"' },
  HP_ERR_VALIDATION_INVOCATION: { code: 'FST_ERR_REQ_INVALID_VALIDATION_INVOCATION', message: 'Invalid validation invocation. Missing validation function for HTTP part "%s" nor schema provided.' },
  HP_ERR_LOGGER_INSTANCE: { code: 'FST_ERR_LOG_INVALID_LOGGER_INSTANCE', message: 'loggerInstance only accepts a logger instance.' },
  HP_ERR_LOGGER_INVALID: { code: 'FST_ERR_LOG_INVALID_LOGGER', message: "Invalid logger object provided. The logger instance should have these functions(s): '%s'." },
  HP_ERR_LOGGER_AND_INSTANCE: { code: 'FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED', message: 'You cannot provide both logger and loggerInstance. Please provide only one.' },
  HP_ERR_ROUTE_AFTER_READY: { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: 'Fastify instance is already listening. Cannot add route!' },
  HP_ERR_HOOK_AFTER_READY: { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: 'Fastify instance is already listening. Cannot call "%s"!' },
  HP_ERR_CONSTRAINT_AFTER_READY: { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: 'Fastify instance is already listening. Cannot add constraint strategy!' },
  HP_ERR_HOOK_WHILE_READY: { code: 'AVV_ERR_ROOT_PLG_BOOTED', message: 'Root plugin has already booted' },
  HP_ERR_REGISTER_AFTER_READY: { code: 'AVV_ERR_ROOT_PLG_BOOTED', message: 'Root plugin has already booted' },
  HP_ERR_HOOK_REJECTED_EMPTY: { code: 'FST_ERR_SEND_UNDEFINED_ERR', message: 'Undefined error has occurred' },
  HP_ERR_PARSER_AFTER_READY: { code: 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED', message: 'Cannot call "%s" when fastify instance is already started!' },
  HP_ERR_LOGGER_CONFIG: { code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG', message: 'logger options only accepts a configuration object.' },
  HP_ERR_BAD_TRAILER_NAME: { code: 'FST_ERR_BAD_TRAILER_NAME', message: 'Called reply.trailer with an invalid header name: %s' },
  HP_ERR_BAD_TRAILER_VALUE: { code: 'FST_ERR_BAD_TRAILER_VALUE', message: "Called reply.trailer('%s', fn) with an invalid type: %s. Expected a function." },
  HP_ERR_REP_INVALID_PAYLOAD_TYPE: { code: 'FST_ERR_REP_INVALID_PAYLOAD_TYPE', message: "Attempted to send payload of invalid type '%s'. Expected a string or Buffer." },
  HP_ERR_OPTIONS_NOT_OBJ: { code: 'FST_ERR_OPTIONS_NOT_OBJ', message: 'Options must be an object' },
  HP_ERR_ROUTE_OPTIONS_NOT_OBJ: { code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ', message: 'Options for "%s:%s" route must be an object' },
  HP_ERR_ROUTE_DUPLICATED_HANDLER: { code: 'FST_ERR_ROUTE_DUPLICATED_HANDLER', message: 'Duplicate handler for "%s:%s" route is not allowed!' },
  HP_ERR_REP_ALREADY_SENT: { code: 'FST_ERR_REP_ALREADY_SENT', message: 'Reply was already sent, did you forget to "return reply" in "%s" (%s)?' },
  HP_ERR_SEND_INSIDE_ONERR: { code: 'FST_ERR_SEND_INSIDE_ONERR', message: 'You cannot use `send` inside the `onError` hook' },
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
  const err = Reflect.construct(HttpError, [ERRORS[code].status, format(fastify.message, args), { code: fastify.code }], fastifyErrorClass(fastify.code))
  err.name = 'FastifyError'
  markFastifyError(err, fastify.code)
  return err
}

/**
 * @fastify/error's classes recognise their instances by these marks, so
 * `err instanceof FST_ERR_BAD_URL` holds for a class taken from Fastify's
 * own modules too, as for the error Fastify raises.
 * @param {Error} err
 * @param {string} code
 */
function markFastifyError (err, code) {
  Object.defineProperty(err, Symbol.for(`fastify-error ${code}`), { value: true })
  Object.defineProperty(err, FASTIFY_ERROR_MARK, { value: true })
}

/**
 * A Fastify error constructor (hotpath/fastify's `errorCodes`): callable
 * with or without `new`, it builds an HttpError with the code, its status,
 * and its message formatted with the arguments (a last argument
 * `{ cause }` becomes the error's cause), as Fastify's own do.
 * @typedef {{ (...args: unknown[]): HttpError, new (...args: unknown[]): HttpError, readonly prototype: HttpError }} FastifyErrorConstructor
 */

/** code → its constructor, made on first use @type {Map<string, FastifyErrorConstructor>} */
const fastifyClasses = new Map()

/**
 * The constructor of one Fastify code: errors of errorFormat 'fastify' with
 * that code are its instances. A code Fastify does not have gets one too
 * (status 500, the message as given).
 * @param {string} code
 * @returns {FastifyErrorConstructor}
 */
export function fastifyErrorClass (code) {
  let cls = fastifyClasses.get(code)
  if (cls !== undefined) return cls
  const [status, message] = FASTIFY_CODES[code] ?? [500, '%s']
  /** @param {unknown[]} args */
  function FastifyError (...args) {
    if (!new.target) return Reflect.construct(FastifyError, args)
    const last = /** @type {any} */ (args[args.length - 1])
    const withCause = last !== null && typeof last === 'object' && 'cause' in last
    const cause = withCause ? last.cause : undefined
    const err = Reflect.construct(HttpError, [status, utilFormat(message, ...(withCause ? args.slice(0, -1) : args)), { code, cause }], new.target)
    err.name = 'FastifyError'
    markFastifyError(err, code)
    return err
  }
  FastifyError.prototype = Object.create(FASTIFY_TYPE_ERRORS.has(code) ? TypeError.prototype : HttpError.prototype, {
    constructor: { value: FastifyError, writable: true, configurable: true },
    toString: { value: fastifyErrorString, writable: true, configurable: true }
  })
  cls = /** @type {FastifyErrorConstructor} */ (/** @type {unknown} */ (FastifyError))
  fastifyClasses.set(code, cls)
  return cls
}

/** @this {HttpError} */
function fastifyErrorString () {
  return `${this.name} [${this.code}]: ${this.message}`
}

/**
 * Every Fastify code's constructor, by code: hotpath/fastify's `errorCodes`.
 * @returns {Record<string, FastifyErrorConstructor>}
 */
export function fastifyErrorCodes () {
  /** @type {Record<string, FastifyErrorConstructor>} */
  const codes = {}
  for (const code of Object.keys(FASTIFY_CODES)) codes[code] = fastifyErrorClass(code)
  return codes
}

const FASTIFY_ERROR_MARK = Symbol.for('fastify-error-generic')

/**
 * @param {string} message
 * @param {(string | number)[]} args  replace the %s in the message, in order
 */
function format (message, args) {
  let i = 0
  return message.replace(/%s/g, () => String(args[i++]))
}
