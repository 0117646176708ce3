// hotpath/fastify's declarations are Fastify 5's own (the `fastify` package,
// a peer dependency for its .d.ts files only): the runtime (lib/fastify.js)
// is held to them by types/test/fastify. hotpath's own entry keeps its types
// (index.d.ts).
//
// Fastify declares its entry on a CommonJS namespace (`export =`), which an
// ES module cannot re-export with `export *`: the names the namespace itself
// declares, or takes from other packages, are listed here; those of Fastify's
// types/*.d.ts modules (which are ES modules) are re-exported whole, the
// names Fastify's entry exports and the ones its type tests import from them.
// The specifiers are 'fastify/…' paths, never 'fastify' itself, so that a
// program whose 'fastify' is hotpath (a tsconfig paths mapping to
// hotpath/fastify) still reaches Fastify's declarations, not this file.
export { default, fastify, errorCodes, LogController } from 'fastify/fastify.js'
export type {
  FastifyServerOptions, FastifyHttpOptions, FastifyHttpsOptions, FastifyHttp2Options, FastifyHttp2SecureOptions,
  FastifyRouterOptions, ConnectionError, ValidationResult,
  LightMyRequestChain, InjectOptions, LightMyRequestResponse, LightMyRequestCallback,
  FastifyError
} from 'fastify/fastify.js'
export type * from 'fastify/types/content-type-parser.js'
export type * from 'fastify/types/context.js'
export type * from 'fastify/types/errors.js'
export type * from 'fastify/types/hooks.js'
export type * from 'fastify/types/instance.js'
export type * from 'fastify/types/logger.js'
export type * from 'fastify/types/plugin.js'
export type * from 'fastify/types/register.js'
export type * from 'fastify/types/reply.js'
export type * from 'fastify/types/request.js'
export type * from 'fastify/types/route.js'
export type * from 'fastify/types/schema.js'
export type * from 'fastify/types/server-factory.js'
export type * from 'fastify/types/type-provider.js'
export type * from 'fastify/types/utils.js'

// hotpath/fastify's listen() takes node:net's `fd` too (a socket inherited
// from systemd's socket activation or a parent process), which Fastify's
// FastifyListenOptions does not list.
declare module 'fastify/types/instance.js' {
  interface FastifyListenOptions {
    /** A listening socket already open in this process: listens on it, whatever `port`, `host` and `path` say. A Unix socket's address is then `fd:<n>`. */
    fd?: number
  }
}
