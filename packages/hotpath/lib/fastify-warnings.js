// The process warnings Fastify 5 emits for its own API (its
// lib/warnings.js): under errorFormat 'fastify' hotpath emits the same
// ones, name, code and words, where Fastify emits them, so that a process
// that watches for them (a test listening for 'warning', a log shipper)
// sees what it saw on Fastify. Each is emitted every time, as Fastify's
// (`unlimited`). None is on the request path.
import { format } from 'node:util'

/** @type {Record<string, { name: string, message: string }>} */
const WARNINGS = {
  FSTWRN001: { name: 'FastifyWarning', message: 'The %s schema for %s: %s is missing. This may indicate the schema is not well specified.' },
  FSTWRN003: { name: 'FastifyWarning', message: 'The %s mixes async and callback styles that may lead to unhandled rejections. Please use only one of them.' },
  FSTWRN004: { name: 'FastifyWarning', message: 'It seems that you are overriding an errorHandler in the same scope, which can lead to subtle bugs. To disable this behavior, set \'allowErrorHandlerOverride\' to false. For more information, visit: https://fastify.dev/docs/latest/Reference/Server/#allowerrorhandleroverride' },
  FSTSEC001: { name: 'FastifySecurity', message: 'You are using /%s/ Content-Type which may be vulnerable to CORS attack. Please make sure your RegExp start with "^" or include ";?" to proper detection of the essence MIME type.' },
  FSTDEP022: { name: 'FastifyWarning', message: 'The router options for %s property access is deprecated. Please use "options.routerOptions" instead for accessing router options. The router options will be removed in `fastify@6`.' },
  FSTDEP023: { name: 'FastifyDeprecation', message: 'disableRequestLogging option is deprecated. Use the logController option with disableRequestLogging or isLogDisabled override instead. The disableRequestLogging top-level option will be removed in `fastify@6`.' },
  FSTDEP024: { name: 'FastifyDeprecation', message: 'requestIdLogLabel option is deprecated. Use the logController option with requestIdLogLabel instead. The requestIdLogLabel top-level option will be removed in `fastify@6`.' },
  FSTDEP025: { name: 'FastifyDeprecation', message: 'Calling addHttpMethod for existing method "%s" without { overrideExisting: true } is deprecated. In Fastify v6, this will throw an error.' }
}

/** The router's options Fastify 5 takes at the top level too, deprecated there (FSTDEP022). */
export const TOP_LEVEL_ROUTER_OPTIONS = ['allowUnsafeRegex', 'buildPrettyMeta', 'caseSensitive', 'constraints', 'defaultRoute', 'ignoreDuplicateSlashes', 'ignoreTrailingSlash', 'maxParamLength', 'onBadUrl', 'onMaxParamLength', 'querystringParser', 'useSemicolonDelimiter']

/**
 * Emits Fastify's warning `code` when the app speaks Fastify.
 * @param {{ fastifyErrors: boolean }} core
 * @param {keyof typeof WARNINGS} code
 * @param {...unknown} args  the message's %s values
 */
export function warnAsFastify (core, code, ...args) {
  if (!core.fastifyErrors) return
  const warning = WARNINGS[code]
  process.emitWarning(args.length === 0 ? warning.message : format(warning.message, ...args), { type: warning.name, code })
}

/**
 * Fastify's warning for a content type matched by a RegExp that does not
 * anchor the essence of the media type (FSTSEC001).
 * @param {{ fastifyErrors: boolean }} core
 * @param {unknown} type
 */
export function warnUnanchoredType (core, type) {
  if (type instanceof RegExp && type.source[0] !== '^' && !type.source.includes(';?')) warnAsFastify(core, 'FSTSEC001', type.source)
}
