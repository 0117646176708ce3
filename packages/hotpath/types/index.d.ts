// Public types of hotpath. The runtime is JavaScript with JSDoc
// (lib/index.js); this file describes what users call and what they get back.
//
// Decorators are typed by module augmentation, as in Fastify:
//
//   declare module 'hotpath' {
//     interface HotpathInstance { db: Db }
//     interface HotpathRequest { user?: User }
//   }

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { Server, AddressInfo } from 'node:net'
import type { Readable } from 'node:stream'
import type { SecureContextOptions, TlsOptions } from 'node:tls'
import type { DestinationStream, Logger, LoggerOptions } from 'pino'

// ---------------------------------------------------------------------------
// Route generics

/**
 * What a route declares about its request and its reply. Every key is
 * optional; a key left out keeps the default type.
 *
 *   app.get<{ Params: { id: string }, Reply: Book }>('/books/:id', ...)
 */
export interface RouteGeneric {
  Params?: unknown
  Querystring?: unknown
  Body?: unknown
  Headers?: unknown
  Reply?: unknown
  /**
   * The reply for each status, keyed by code (`200`), class (`'2xx'`) or
   * `'default'`: what a route's `response` schemas give through a type
   * provider. `reply.code(404).send(x)` checks x against 404's; the handler's
   * value against the 2xx ones; a code with none is an error.
   */
  Replies?: Record<number | string, unknown>
}

/** G[K] when the route declared K, else D. */
type Pick_<G, K extends PropertyKey, D> = K extends keyof G ? NonNullable<G[K]> : D

/** G is `any` (AnyRoute, a hook or helper typed for any route). */
type IsAny<G> = 0 extends 1 & G ? true : false

// The request's parts test G itself (`G extends { Params: infer P }`), not
// `keyof G`: tsc then compares two requests member by member, so a request
// typed for any route (AnyRoute) takes every route's request.
// AnyRoute (`any`) gives params and query of any shape, and an unknown body.
// A route typed by its schema (SchemaRoute) has each part computed from the
// schema when it is read.
export type RequestParams<G> = IsAny<G> extends true ? Record<string, any> : G extends { Params: infer P } ? NonNullable<P>
  : G extends SchemaRoute<infer S, infer TP> ? S extends { params: infer X } ? SchemaPartType<X, TP, Record<string, string>> : Record<string, string>
    : Record<string, string>
export type RequestQuerystring<G> = IsAny<G> extends true ? Record<string, any> : G extends { Querystring: infer Q } ? NonNullable<Q>
  : G extends SchemaRoute<infer S, infer TP>
    ? S extends { querystring: infer X } ? SchemaPartType<X, TP, Record<string, string | string[]>> : S extends { query: infer X } ? SchemaPartType<X, TP, Record<string, string | string[]>> : Record<string, string | string[]>
    : Record<string, string | string[]>
export type RequestBody<G> = IsAny<G> extends true ? unknown : G extends { Body: infer B } ? NonNullable<B>
  : G extends SchemaRoute<infer S, infer TP> ? S extends { body: infer X } ? SchemaPartType<X, TP, unknown> : unknown
    : unknown
export type RequestHeaders<G> = IncomingHttpHeaders & (IsAny<G> extends true ? {} : G extends { Headers: infer H } ? NonNullable<H>
  : G extends SchemaRoute<infer S, infer TP> ? S extends { headers: infer X } ? SchemaPartType<X, TP, {}> : {}
    : {})
export type ReplyPayload<G> = Pick_<G, 'Reply', unknown>

/** What reply.send() takes: the declared Reply (or an error, or nothing), else any payload. */
export type SendPayload<G> = IsAny<G> extends true ? Payload : 'Reply' extends keyof G
  ? ReplyPayload<G> | Error | null | undefined
  : Payload

/** G is `any` (AnyRoute): the reply of any route takes any code and any payload. */
type RepliesOf<G> = IsAny<G> extends true ? never : G extends { Replies: infer R } ? R
  : G extends SchemaRoute<infer S, infer TP> ? S extends { response: infer R } ? SchemaReplies<R, TP> : never
    : never
/** '404' → 404; 200 stays; '2xx' and 'default' stay strings. */
type StatusKey<K> = K extends number ? K : K extends `${infer N extends number}` ? N : K
/** The class key of a code: 404 → '4xx'. */
type ClassKey<C> = C extends number ? `${C}` extends `${infer D}${string}` ? `${D}xx` : never : never
/** The payload a route with per-status replies sends for code C. */
type PayloadAt<R, C> =
  C extends keyof R ? R[C]
    : `${C & number}` extends keyof R ? R[`${C & number}` & keyof R]
      : ClassKey<C> extends keyof R ? R[ClassKey<C> & keyof R]
        : 'default' extends keyof R ? R['default' & keyof R]
          : never
/** The 2xx replies of a route, as one union: what its handler returns. */
type SuccessReplies<R> = { [K in keyof R]: `${K & (string | number)}` extends `2${string}` ? R[K] : never }[keyof R]
/** The codes `reply.code()` takes on a route with per-status replies. */
export type ReplyCode<G> = [RepliesOf<G>] extends [never] ? number
  : ('default' extends keyof RepliesOf<G> ? number : never)
  | { [K in keyof RepliesOf<G>]: StatusKey<K> extends number ? StatusKey<K> : StatusKey<K> extends `${infer D extends number}xx` ? number : never }[keyof RepliesOf<G>]

/** What send() takes once `code(C)` was called (C: never when it was not, the 2xx replies). */
export type SendPayloadFor<G, C> = [RepliesOf<G>] extends [never]
  ? SendPayload<G>
  : ([C] extends [never] ? SuccessReplies<RepliesOf<G>> : PayloadAt<RepliesOf<G>, C>) | Error | null | undefined

// ---------------------------------------------------------------------------
// Common names

export type HTTPMethod =
  | 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/** Anything a handler may return or pass to reply.send(). */
export type Payload =
  | string
  | Buffer
  | Uint8Array
  | Readable
  | ReadableStream
  | Response
  | null
  | undefined
  | object
  | number
  | boolean

export type HotpathLogger = Logger

/**
 * Makes a request's logger: `bindings` holds the request id, `options` the
 * route's logLevel and logSerializers; `this` is the route's instance.
 */
export type ChildLoggerFactory = (this: HotpathInstance, logger: HotpathLogger, bindings: Record<string, unknown>, options: { level?: string, serializers?: Record<string, (value: any) => unknown> }, raw: RawNodeRequest) => HotpathLogger

/**
 * The request as the engine received it: on the `node` engine an
 * `http.IncomingMessage`, on `wire` and under inject the engine's own record
 * with these fields (docs/engines.md).
 */
export interface RawRequest {
  method: string
  url: string
  /** The URL as received, when the app has `rewriteUrl`. */
  originalUrl?: string
  headers: IncomingHttpHeaders
  httpVersion: string
}

/**
 * A constraint strategy of find-my-way, routes' `constraints` key `name`
 * (the `constraints` option, `addConstraintStrategy()`): `deriveConstraint`
 * of three arguments derives the value asynchronously.
 */
export interface ConstraintStrategy {
  name: string
  storage(): { get(value: any): unknown, set(value: any, store: unknown): void }
  deriveConstraint(req: RawRequest, ctx?: unknown, done?: (err: Error | null, value?: unknown) => void): unknown
  validate?(value: unknown): void
  mustMatchWhenDerived?: boolean
}

/**
 * `req.raw`: node:http's request. On `node` the `http.IncomingMessage`
 * itself; on `wire` and under inject a Readable with the same members, built
 * on first read (docs/engines.md). What middleware sets on it (`cookies`,
 * `session`, `user`, `file`) is read from here; declare it by augmenting
 * `http.IncomingMessage`.
 */
export type RawNodeRequest = IncomingMessage

/**
 * `reply.raw`: node:http's response. On `node` the `http.ServerResponse`
 * itself; on `wire` and under inject a Writable with the same members, built
 * on first read. Headers set on it are part of the reply.
 */
export type RawResponse = ServerResponse<IncomingMessage> & { req: IncomingMessage }

// ---------------------------------------------------------------------------
// Request and reply

/**
 * What HotpathRequest and HotpathReply written without a generic stand for:
 * any route's request. A hook or helper typed with them is accepted on every
 * route, also one whose schema types its params or body, and sees params,
 * query, headers and body as `any`. (A route declared without a generic or a
 * schema gives its handler string params.)
 */
export type AnyRoute = any

export interface HotpathRequest<G extends RouteGeneric = AnyRoute> {
  /** Path parameters; a `*` wildcard is in `params['*']`. */
  params: RequestParams<G>
  /** The parsed query string (parsed on first read). */
  query: RequestQuerystring<G>
  /** The parsed body; `undefined` when the request has none. */
  body: RequestBody<G>
  /** With the route's `attachValidation`, the error of a failed validation (undefined when it passed). */
  validationError?: Error & { validation?: any[], validationContext?: string }
  headers: RequestHeaders<G>
  method: string
  /** The request-target as received: path and query. */
  url: string
  /** The path, without the query string. */
  readonly path: string
  /** The request id (`genReqId`, else a counter). */
  id: string
  /** The client address (trustProxy-aware, computed on first read). */
  readonly ip: string | undefined
  /** The host the client asked for, without the port (trustProxy-aware, computed on first read); '' when the request names none. */
  readonly hostname: string
  /** The host the client asked for, port included, honouring trustProxy; '' when the request names none. */
  readonly host: string
  /** The port of `host`, else of the Host header; null when neither names one. */
  readonly port: number | null
  /** The URL as received: before `rewriteUrl`, when the app sets it. */
  readonly originalUrl: string
  /** No route matched: the request is the not-found handler's. */
  readonly is404: boolean
  /** The socket peer, then the X-Forwarded-For hops trusted proxies vouch for, closest first (only the peer without trustProxy). */
  readonly ips: Array<string | undefined>
  /** 'https' over TLS; else X-Forwarded-Proto from a trusted proxy, or 'http'. */
  readonly protocol: string
  /** The query string after '?', '' when there is none. */
  readonly querystring: string
  /** A child logger carrying `reqId`, created on first read. */
  log: HotpathLogger
  /** Aborted when the client goes away or the request times out. */
  readonly signal: AbortSignal
  /**
   * The options the route was declared with (url with its prefix), the body
   * limit that applies, and `config` with the route's url and method.
   */
  readonly routeOptions: RouteOptions & { prefix: string, bodyLimit: number, config: RouteConfig & { url: string, method: string | string[] } }
  /** node:http's request (docs/engines.md), built on first read on `wire`. */
  readonly raw: RawNodeRequest
  /** The instance of the plugin that declared the route. */
  readonly server: HotpathInstance
  /** The Content-Type without its parameters, lower case ('application/json'); undefined when there is none or it is not a media type. */
  readonly mediaType: string | undefined
  /** A request decorator of the route's scope (a function bound to this request); throws HP_ERR_DEC_UNDECLARED for another name. */
  getDecorator<T = unknown>(name: string | symbol): T
  /** Sets a request decorator of the route's scope on this request; throws HP_ERR_DEC_UNDECLARED for another name. */
  setDecorator(name: string | symbol, value: unknown): void
  /** The route's validator of a part ('params', 'querystring' or 'query', 'headers', 'body'), or the one compileValidationSchema() made for a schema. */
  getValidationFunction(partOrSchema: string | object): ((data: any) => any) | undefined
  /** A validator for a schema from the route's validator compiler, compiled once per route. */
  compileValidationSchema(schema: object, httpPart?: string | null): (data: any) => any
  /** Validates a value with the route's validator of a part, or with one for a schema; throws HP_ERR_VALIDATION_INVOCATION when there is neither. */
  validateInput(input: unknown, schemaOrPart: object | string, httpPart?: string): any
}

export interface HotpathReply<G extends RouteGeneric = AnyRoute, Code = never> {
  /** The status code to answer with (200 unless set). */
  statusCode: number
  /** Sets the status code (100-599; anything else throws HP_ERR_INVALID_OPTION). */
  code<C extends ReplyCode<G>>(statusCode: C): HotpathReply<G, C>
  /** Same as code(). */
  status<C extends ReplyCode<G>>(statusCode: C): HotpathReply<G, C>
  /**
   * Sets one response header. `set-cookie` adds a line, and `vary` adds its
   * fields to those already listed (once each); other names replace.
   */
  header(name: string, value: string | number | readonly string[]): this
  /** Sets several response headers. */
  headers(headers: Record<string, string | number | readonly string[]>): this
  getHeader(name: string): string | number | string[] | undefined
  hasHeader(name: string): boolean
  removeHeader(name: string): this
  getHeaders(): Record<string, string | number | string[]>
  /** Sets Content-Type. */
  type(contentType: string): this
  /** The Content-Type set so far without its parameters, lower case; undefined when none is set. */
  readonly mediaType: string | undefined
  /**
   * Declares a trailer field, computed once the body has gone through
   * `done(err, value)` or the promise `fn` returns; the response is then
   * chunked, with a Trailer header naming it. Fields that frame, route or
   * describe the message throw HP_ERR_BAD_TRAILER_NAME.
   */
  trailer(name: string, fn: ((reply: HotpathReply<G, Code>, payload: string | Buffer | null | undefined, done: (err: Error | null, value?: string) => void) => void) | ((reply: HotpathReply<G, Code>, payload: string | Buffer | null | undefined) => Promise<string | undefined>)): this
  hasTrailer(name: string): boolean
  removeTrailer(name: string): this
  /**
   * Sends the response. Objects become JSON, strings text/plain, buffers
   * application/octet-stream, streams are piped, a web Response is copied,
   * null is an empty body. Only the first send counts.
   */
  send(payload?: SendPayloadFor<G, Code>): this
  /** The JSON text send() would make of a payload for the current status (reply.serializer()'s, setReplySerializer()'s, the route's response serializer, else JSON.stringify). */
  serialize(payload: unknown): string
  /** This reply's serializer of JSON payloads (and of a string sent with a Content-Type of its own). */
  serializer(fn: (payload: any) => string): this
  /** A serializer compiled from `schema` by the route's serializer compiler, kept for the route's later requests. */
  compileSerializationSchema(schema: object, httpStatus?: string | number | null, contentType?: string | null): (input: any) => string
  /** The route's serializer for a status key (201, '4xx', 'default'; with a content type for a schema given per content type), or the one compiled from a schema. */
  getSerializationFunction(schemaOrStatus: object | string | number, contentType?: string): ((input: any) => string) | undefined
  /** Serializes with the route's serializer for a status (and content type), or with one compiled from a schema. */
  serializeInput(input: unknown, status: string | number, contentType?: string): string
  serializeInput(input: unknown, schema: object, httpStatus?: string | number, contentType?: string): string
  /** Redirects: with the code given, else the status set before (other than 200), else 302. */
  redirect(url: string, statusCode?: number): this
  redirect(statusCode: number, url: string): this
  /** Answers with the not-found handler of the request path's prefix (404 by default). */
  callNotFound(): this
  /** Sends a 103 Early Hints (e.g. `link` preloads) ahead of the response; the callback is called either way. */
  writeEarlyHints(hints: Record<string, string | string[]>, callback?: () => void): this
  /** Takes the response out of hotpath's hands: user code writes it. */
  hijack(): this
  /** A reply is a thenable: `await reply` waits until the answer is handed to the engine (or the client has gone, or the request timed out). */
  then(fulfilled: () => void, rejected?: (err: Error) => void): void
  /** True once a response was sent (or the reply hijacked). */
  readonly sent: boolean
  /** ms since the request started (0 when logging is off). */
  readonly elapsedTime: number
  /** The instance of the plugin that declared the route. */
  readonly server: HotpathInstance
  /** A reply decorator of the route's scope (a function bound to this reply); throws HP_ERR_DEC_UNDECLARED for another name. */
  getDecorator<T = unknown>(name: string | symbol): T
  /** The route's serializer for a status of its response schema, or the one compileSerializationSchema() made for a schema. */
  getSerializationFunction(schemaOrStatus: object | string | number, contentType?: string): ((data: any) => string) | undefined
  /** A serializer for a schema from the route's serializer compiler, compiled once per route. */
  compileSerializationSchema(schema: object, httpStatus?: string | number | null, contentType?: string | null): (data: any) => string
  /** Serializes with the route's serializer for a status (HP_ERR_MISSING_SERIALIZATION_FN when it has none), or with one for a schema. */
  serializeInput(input: unknown, schemaOrStatus: object | string | number, httpStatus?: string | number, contentType?: string): string
  /** The request's logger. */
  readonly log: HotpathLogger
  readonly request: HotpathRequest<G>
  /** The route's options, as `request.routeOptions`. */
  readonly routeOptions: HotpathRequest<G>['routeOptions']
  /** node:http's response (docs/engines.md), built on first read on `wire`; after `hijack()`, answer through it. */
  readonly raw: RawResponse
}

// ---------------------------------------------------------------------------
// Handlers and hooks: a result or a promise of it, or, as in Fastify, a
// `done` callback after the other arguments (told by the hook's arity:
// docs/lifecycle-and-hooks.md)

/**
 * What a handler returns: the payload to send, the reply (it sent, or will
 * send later), or nothing when it sent. With a declared Reply, only that.
 */
export type HandlerResult<G extends RouteGeneric = {}> =
  | SendPayloadFor<G, never>
  | HotpathReply<G, any>
  | void

/**
 * A route's handler. Its result may be a promise or any thenable; the
 * Promise in the union is PromiseLike's own case, listed so that tsc relates
 * an async handler's Promise by Promise's variance rather than comparing its
 * `then` with PromiseLike's (130 of a route's 2,982 instantiations on TS 5.9).
 */
export type RouteHandler<G extends RouteGeneric = {}> = (
  this: HotpathInstance,
  request: HotpathRequest<G>,
  reply: HotpathReply<G>
) => HandlerResult<G> | Promise<HandlerResult<G>> | PromiseLike<HandlerResult<G>>

/** A callback hook's `done`: with an error, the request fails with it. */
export type HookDone = (err?: Error | null) => void

/** A payload hook's `done`: an error, or the replacement payload. */
export type PayloadHookDone = (err?: Error | null, payload?: unknown) => void

/** onRequest, preValidation, preHandler, onResponse, onTimeout, onRequestAbort. */
export type RequestHook<G extends RouteGeneric = {}> = (
  this: HotpathInstance,
  request: HotpathRequest<G>,
  reply: HotpathReply<G>,
  done: HookDone
) => unknown

/** preParsing: may return a replacement body stream. */
export type PreParsingHook<G extends RouteGeneric = {}> = (
  this: HotpathInstance,
  request: HotpathRequest<G>,
  reply: HotpathReply<G>,
  payload: Readable,
  done: (err?: Error | null, payload?: Readable) => void
) => Readable | void | PromiseLike<Readable | void>

/** preSerialization and onSend: may return a replacement payload. */
export type PayloadHook<G extends RouteGeneric = {}> = (
  this: HotpathInstance,
  request: HotpathRequest<G>,
  reply: HotpathReply<G>,
  payload: unknown,
  done: PayloadHookDone
) => unknown

/** onError: runs before the error handler; it observes, it does not answer. */
export type OnErrorHook<G extends RouteGeneric = {}> = (
  this: HotpathInstance,
  request: HotpathRequest<G>,
  reply: HotpathReply<G>,
  error: HotpathError,
  done: () => void
) => unknown

/** Called as each route is declared, with its options (url already prefixed). */
export type OnRouteHook = (this: HotpathInstance, route: RouteOptions & { prefix: string }) => void
export type OnRegisterHook = (instance: HotpathInstance, options: Record<string, unknown>) => unknown
/** onReady, onListen, preClose: a promise, or `done` when the hook declares it. */
export type AppHook = (this: HotpathInstance, done: HookDone) => unknown
/** onClose gets the instance first, as in Fastify. */
export type OnCloseHook = (this: HotpathInstance, instance: HotpathInstance, done: HookDone) => unknown

export type RequestHookName =
  | 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler'
  | 'preSerialization' | 'onSend' | 'onResponse' | 'onError'
  | 'onTimeout' | 'onRequestAbort'
export type AppHookName =
  | 'onRoute' | 'onRegister' | 'onReady' | 'onListen' | 'preClose' | 'onClose'
export type HookName = RequestHookName | AppHookName

/** Errors as the error handler and onError hooks see them. */
export interface HotpathError extends Error {
  statusCode?: number
  /** An HP_ERR_* code for hotpath's own errors (docs/errors.md). */
  code?: string
  /**
   * Fields merged into the default JSON answer. On a validation failure
   * (HP_ERR_VALIDATION): `validation`, the list of issues, and
   * `validationContext`, the part that failed.
   */
  details?: ErrorDetails
  /** On a validation failure (HP_ERR_VALIDATION): the list of issues, as sent in the 400 body. */
  validation?: ValidationIssue[]
  /** On a validation failure (HP_ERR_VALIDATION): the part of the request that failed. */
  validationContext?: ValidationContext
  /** A 4xx error marked `expose` has its message sent to the client. */
  expose?: boolean
}

export type ValidationContext = 'params' | 'querystring' | 'headers' | 'body'

export interface ErrorDetails {
  validation?: ValidationIssue[]
  validationContext?: ValidationContext
  [key: string]: unknown
}

export interface ValidationIssue {
  instancePath: string
  schemaPath?: string
  keyword: string
  params?: Record<string, unknown>
  message?: string
}

export type ErrorHandler = (
  this: HotpathInstance,
  error: HotpathError,
  request: HotpathRequest,
  reply: HotpathReply
) => unknown

export type NotFoundHandler = (
  this: HotpathInstance,
  request: HotpathRequest,
  reply: HotpathReply
) => unknown

/** Connect-style middleware such as `cors()` or `helmet()`. */
export type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void
) => void

/**
 * Express's error middleware, told by its four parameters: it runs when a
 * route or an earlier middleware fails (not for a request no route matched),
 * and may answer; `next()` hands the error on to the next one and then to
 * the error handler.
 */
export type ErrorMiddleware = (
  err: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void
) => void

// ---------------------------------------------------------------------------
// Routes

/**
 * JSON Schema objects (ajv draft-07 / 2019-09 keywords): a plain object, or
 * one a builder made (TypeBox's schemas are JSON Schema objects).
 */
export type JSONSchema = object | boolean

/**
 * A route's schema. Besides what is validated and serialized, the metadata
 * an API description reads; more keys by augmentation:
 *
 *   declare module 'hotpath' { interface RouteSchema { 'x-internal'?: boolean } }
 */
export interface RouteSchema {
  params?: JSONSchema
  querystring?: JSONSchema
  /** `querystring`'s other name. */
  query?: JSONSchema
  headers?: JSONSchema
  body?: JSONSchema
  /** Keyed by status code (`200`), a class (`'2xx'`) or `'default'`. */
  response?: Record<string | number, JSONSchema>
  tags?: readonly string[]
  summary?: string
  description?: string
  operationId?: string
  deprecated?: boolean
  /** OpenAPI security requirements: scheme name → scopes. */
  security?: ReadonlyArray<Record<string, readonly string[]>>
  /** Left out of the API description (@fastify/swagger's `hide`). */
  hide?: boolean
}

/**
 * What `setValidatorCompiler` takes: for one schema of a route, a function
 * that validates a value (true or false, or `{ error }` / `{ value }`).
 */
export type ValidatorCompiler<T = any> = (route: { schema: T, method: string, url: string, httpPart: 'params' | 'querystring' | 'headers' | 'body' }) => (data: any) => boolean | { error?: Error, value?: unknown }

/**
 * Fastify's schemaController: `bucket(parentSchemas)` makes the store of a
 * context's shared schemas; `compilersFactory` builds the compilers from a
 * context's shared schemas (the validator's also gets the `ajv` option).
 */
export interface SchemaControllerOptions {
  bucket?: (parentSchemas?: any) => { add(schema: any): void, getSchema(id: string): any, getSchemas(): any }
  compilersFactory?: {
    buildValidator?: (schemas: any, ajvOptions?: any) => ValidatorCompiler
    buildSerializer?: (schemas: any, options?: any) => (route: { schema: any, method: string, url: string, httpStatus: string }) => (data: any) => string
  }
}

/** Builds the error for a failed validation from ajv's errors and the part that failed. */
export type SchemaErrorFormatter = (errors: any[], part: 'params' | 'querystring' | 'headers' | 'body') => Error

// ---------------------------------------------------------------------------
// Type providers: request types inferred from route schemas

/**
 * A type provider, in Fastify's shape: with `schema` set to one of a route's
 * schemas, `validator` is the type that schema validates to, and `never`
 * when the schema is not of its kind. hotpath ships three (hotpath/typebox,
 * hotpath/sinclair-typebox, hotpath/json-schema-to-ts); importing one adds
 * it to TypeProviders.
 */
export interface TypeProvider {
  readonly schema: unknown
  readonly validator: unknown
  readonly serializer: unknown
}

/** The providers in use, by name; filled by importing a provider's module, or by augmentation. */
export interface TypeProviders {}

type ProvidedType<S> = { [K in keyof TypeProviders]: TypeProviders[K] extends TypeProvider ? (TypeProviders[K] & { readonly schema: S })['validator'] : never }[keyof TypeProviders]

/** The type a schema validates to, by the providers in use; `Fallback` when none knows the schema. */
export type SchemaType<S, Fallback> = KnownOr<ProvidedType<S>, Fallback>

/**
 * T, or Fallback when T is `never`, `unknown` or `any`: no provider knows
 * the schema, or the one that does reads nothing. T is the type a provider
 * computed from a schema (a TypeBox `Static`), and tsc decides
 * `[T] extends [never]` and `unknown extends T` by instantiating T again;
 * asked of T's keys instead, the question costs nothing: a T with keys, none
 * of them `symbol`, is none of the three (keyof never and keyof any are
 * string | number | symbol, keyof unknown is never), and only a T without
 * keys (null, `{}`, unknown) or with symbol keys is asked the long way.
 * Typing a route of bench:types takes 615 instantiations fewer of 2,852 on
 * TS 5.9 than with the long way alone.
 */
type KnownOr<T, Fallback> = [keyof T] extends [never] ? KnownOrLong<T, Fallback>
  : symbol extends keyof T ? KnownOrLong<T, Fallback> : T
type KnownOrLong<T, Fallback> = [T] extends [never] ? Fallback : unknown extends T ? Fallback : T

/** T is `never` (no provider knows the schema); told from T's keys as KnownOr does. */
type IsNever<T> = [keyof T] extends [never] ? false : symbol extends keyof T ? [T] extends [never] ? true : false : false

/**
 * What schema S validates to by P, the provider an app was given with
 * `withTypeProvider<P>()`, where P knows S (its validator is not `never` or
 * `unknown`); else by the imported providers.
 */
type AppProvidedType<S, P> = P extends TypeProvider ? KnownOr<(P & { readonly schema: S })['validator'], ProvidedType<S>> : ProvidedType<S>

/**
 * The route generic of a route typed by its schema S (through TP, the app's
 * own provider, never for none, and the imported providers): the request's
 * parts and the replies are computed from S when the handler or a hook
 * reads them (RequestParams...), not when the route is declared.
 */
export interface SchemaRoute<S, TP = never> {
  readonly '~schema': S
  readonly '~provider': TP
  /** Makes it a RouteGeneric; its replies come from `'~schema'`. */
  Replies?: never
}

// tsc relates two instantiations of an alias through its variance, and for
// an alias over an unresolved TypeBox `Static` that variance costs 1.2
// million instantiations once per program. KnownOr and IsNever take the
// provider's result: a route's schema is inferred before its handler and
// hooks are read (RouteShorthand), so they get a resolved one, and
// scripts/types-cost.test.js catches a return of the cost. (Code generic in
// a route's schema leaves it open, and pays that cost once whatever the
// helpers take.)

/** The type a part's schema X validates to (by TP first), else Default. */
type SchemaPartType<X, TP, Default> = [TP] extends [never] ? SchemaType<X, Default> : KnownOr<AppProvidedType<X, TP>, Default>

/**
 * The replies a route's `response` schemas R give, by status; never when no
 * provider reads any of them. (Asked status by status: the union of the
 * schemas' types, `ProvidedType<R[keyof R]>`, cost 10 % more per route.)
 * The 2xx schemas are asked first, the others only when no provider reads
 * those: a status's type is then computed when the handler sends it, and a
 * 500 schema the handler never sends costs no TypeBox `Static` (310
 * instantiations for `{ message: string }` on TS 5.9).
 */
type SchemaReplies<R, TP> =
  true extends ReadsReply<R, SuccessKey<R>, TP> ? TypedReplies<R, TP>
    : true extends ReadsReply<R, Exclude<keyof R, SuccessKey<R>>, TP> ? TypedReplies<R, TP> : never

/** The replies by status of response schemas R, at least one of which a provider reads. */
type TypedReplies<R, TP> = [TP] extends [never]
  ? { [K in keyof R as StatusKey<K>]: SchemaType<R[K], unknown> }
  : { [K in keyof R as StatusKey<K>]: IsNever<AppProvidedType<R[K], TP>> extends true ? unknown : AppProvidedType<R[K], TP> }

/** true when a provider reads one of the response schemas R[K] (by TP first), else false. */
type ReadsReply<R, K extends keyof R, TP> = { [Q in K]: IsNever<[TP] extends [never] ? ProvidedType<R[Q]> : AppProvidedType<R[Q], TP>> extends true ? false : true }[K]

/** The 2xx keys of a route's response schemas (200, '2xx'). */
type SuccessKey<R> = { [K in keyof R]: `${K & (string | number)}` extends `2${string}` ? K : never }[keyof R]

/** The route's generic: the one written (`app.get<{ Params: ... }>`), else the one its schema gives. */
export type RouteGenericOf<G, S, TP = never> = [keyof G] extends [never] ? SchemaRoute<S, TP> : G

/** The JSON Schema `type` names whose values a TypeScript type can hold (an integer param is a number). */
type JsonTypeNames<T> =
  | (T extends string ? 'string' : never)
  | (T extends number ? 'number' | 'integer' : never)
  | (T extends boolean ? 'boolean' : never)
  | (T extends null ? 'null' : never)
  | (T extends readonly unknown[] ? 'array' : T extends object ? 'object' : never)

/**
 * The schemas whose values a written type T can describe, by JSON type,
 * `const`/`enum`, and recursively through `properties`, `items` and the
 * branches of `anyOf`/`oneOf`/`allOf`: `{ type: 'integer' }` under a
 * `string` is refused, and the error names the field. Other keywords
 * (`required`, formats, limits, `$ref`) pass unchecked, and so does a
 * schema typed only as an object (`JSONSchema`, TypeBox's `TSchema`) or a
 * boolean schema; `any` and `unknown` take any schema. A `type` typed as
 * `string` rather than a literal (a `.json` import) cannot be checked and
 * is refused.
 */
export type SchemaFor<T> = OpenShape<SchemaShape<T>> | boolean | (unknown extends T ? object : never)

/**
 * S, and S with any other key: a schema literal may carry keywords S does
 * not list, and an interface such as TypeBox's TString (which has no index
 * signature) still fits S itself.
 */
type OpenShape<S> = S | (S & { [key: string]: unknown })

interface SchemaShape<T> {
  type?: JsonTypeNames<T> | readonly JsonTypeNames<T>[]
  properties?: [Extract<T, object>] extends [never] ? unknown : OpenShape<{ [K in keyof Extract<T, object>]?: SchemaFor<Extract<T, object>[K]> }>
  items?: T extends readonly (infer E)[] ? SchemaFor<E> : unknown
  const?: T
  enum?: readonly T[]
  anyOf?: readonly SchemaFor<T>[]
  oneOf?: readonly SchemaFor<T>[]
  allOf?: readonly SchemaFor<T>[]
}

/** 2xx codes and class: a written `Reply` is checked against their response schemas. */
type SuccessCode = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226 | '2xx'

/**
 * What a route's schema must fit when its generic is written
 * (`app.get<{ Params: { id: string } }>`): RouteSchema, and each part's
 * schema can describe the written type. Nothing when the generic is left
 * out: S, inferred from the schema, is held to RouteSchema by its bound.
 */
export type WrittenSchemaCheck<G> = [keyof G] extends [never] ? unknown : RouteSchema & {
  params?: 'Params' extends keyof G ? SchemaFor<G['Params']> : unknown
  querystring?: 'Querystring' extends keyof G ? SchemaFor<G['Querystring']> : unknown
  query?: 'Querystring' extends keyof G ? SchemaFor<G['Querystring']> : unknown
  headers?: 'Headers' extends keyof G ? SchemaFor<G['Headers']> : unknown
  body?: 'Body' extends keyof G ? SchemaFor<G['Body']> : unknown
  response?: 'Reply' extends keyof G ? OpenShape<{ [C in SuccessCode]?: SchemaFor<G['Reply']> }> : unknown
}

type OneOrMany<T> = T | T[]

/**
 * A route's `config`, read back as `req.routeOptions.config`. Plugins that
 * read a key of their own declare it by augmentation (Fastify's name for it,
 * `FastifyContextConfig`, is this interface).
 */
export interface RouteConfig {
  [key: string]: unknown
}

export interface RouteShorthandOptions<G extends RouteGeneric = {}> {
  schema?: RouteSchema
  /** Free-form data for hooks, read back as `req.routeOptions.config`. */
  config?: RouteConfig
  /** This route's body limit in bytes (overrides the app's `bodyLimit`). */
  bodyLimit?: number
  /** ms from the request's arrival to its answer before the error path answers 503 (overrides the app's `handlerTimeout`; an integer > 0). */
  handlerTimeout?: number
  /** A GET route answers HEAD through a HEAD route of its own (default: the app's `exposeHeadRoutes`). */
  exposeHeadRoute?: boolean
  /** For a route declared as '/' inside a prefix: answer '/prefix' and '/prefix/' ('both', the default), or only one. */
  prefixTrailingSlash?: 'both' | 'slash' | 'no-slash'
  /** Only requests for this Host (a name or a pattern) or this version (Accept-Version, a semver range) reach the route. */
  constraints?: { host?: string | RegExp, version?: string }
  /** The level this route's requests log at (`req.log`, `reply.log`, the completion line); 'silent' for none. */
  logLevel?: LogLevel | (string & {})
  /** pino serializers for the lines its requests log, merged over its plugins' (Fastify's logSerializers). */
  logSerializers?: Record<string, (value: any) => unknown>
  /** what makes its requests' loggers, in place of its plugin's (setChildLoggerFactory). */
  childLoggerFactory?: ChildLoggerFactory
  /** A failed validation reaches the handler as `req.validationError` instead of answering 400. */
  attachValidation?: boolean
  /** This route's validation error builder (wins over setSchemaErrorFormatter and the app's option). */
  schemaErrorFormatter?: SchemaErrorFormatter
  /** This route's validator compiler (wins over setValidatorCompiler). */
  validatorCompiler?: ValidatorCompiler
  /** This route's serializer compiler (wins over setSerializerCompiler). */
  serializerCompiler?: (route: { schema: any, method: string, url: string, httpStatus: string }) => (data: any) => string
  /** This route's error handler: runs before its plugins' (setErrorHandler), and hands what it throws to them. */
  errorHandler?: ErrorHandler
  onRequest?: OneOrMany<RequestHook<G>>
  preParsing?: OneOrMany<PreParsingHook<G>>
  preValidation?: OneOrMany<RequestHook<G>>
  preHandler?: OneOrMany<RequestHook<G>>
  preSerialization?: OneOrMany<PayloadHook<G>>
  onSend?: OneOrMany<PayloadHook<G>>
  onResponse?: OneOrMany<RequestHook<G>>
  onError?: OneOrMany<OnErrorHook<G>>
  onTimeout?: OneOrMany<RequestHook<G>>
  onRequestAbort?: OneOrMany<RequestHook<G>>
}

export interface RouteOptions<G extends RouteGeneric = {}> extends RouteShorthandOptions<G> {
  method: HTTPMethod | Lowercase<HTTPMethod> | Array<HTTPMethod | Lowercase<HTTPMethod>>
  url: string
  handler: RouteHandler<G>
}

/**
 * `app.get(path, [options], handler)` and its siblings.
 *
 * S, the schema, is inferred from `options.schema` alone: the rest of the
 * options and the handler are NoInfer. Inferring from the handler too made
 * tsc match its request type against the schema's while S was still open,
 * which relates two unresolved TypeBox `Static` types and costs a one-time
 * variance computation of TypeBox's StaticType: 1.2 million instantiations,
 * about 2 s on TypeScript 5.9, in any program with one route whose schema
 * has params or a body and no response (docs/typescript.md, "How it scales").
 * `options.schema` is typed by S alone: the NoInfer part leaves `schema` out
 * (WrittenSchemaCheck brings RouteSchema back for a written generic). In an
 * intersection with RouteSchema, tsc compared each TypeBox schema with
 * `object & TObject<...>` property by property, which computes TypeBox's
 * `required` tuple (a TUnionToTuple) of every object schema: 419 of the
 * 3,509 instantiations of a route of bench:types on TS 5.9.
 * TP: the app's own type provider (`withTypeProvider<TP>()`), never for none.
 */
export interface RouteShorthand<App, TP = never> {
  <G extends RouteGeneric = {}>(path: string, handler: RouteHandler<G>): App
  <G extends RouteGeneric = {}, const S extends RouteSchema = {}>(
    path: string,
    options: NoInfer<Omit<RouteShorthandOptions<RouteGenericOf<G, S, TP>>, 'schema'> & { schema?: WrittenSchemaCheck<G> }> & { schema?: S },
    handler: NoInfer<RouteHandler<RouteGenericOf<G, S, TP>>>
  ): App
}

// ---------------------------------------------------------------------------
// Plugins

export interface RegisterOptions {
  /** Prepended to every route the plugin (and its children) declares. */
  prefix?: string
  /** The level the plugin's routes log at, unless a route sets its own. */
  logLevel?: LogLevel | (string & {})
  /** pino serializers for the lines its plugin's requests log (Fastify's logSerializers). */
  logSerializers?: Record<string, (value: any) => unknown>
}

/** Sync or async; what it returns (or resolves to) is ignored. */
export type Plugin<Options extends Record<string, any> = Record<string, any>> = (
  instance: HotpathInstance,
  options: Options
) => unknown

/** Fastify's callback form: the plugin has loaded when it calls `done` (with an error, loading fails). */
export type PluginCallback<Options extends Record<string, any> = Record<string, any>> = (
  instance: HotpathInstance,
  options: Options,
  done: (err?: Error) => void
) => void

/**
 * What `register` and `plugin` take: a Plugin or a PluginCallback, told apart
 * by their arity when registered. One signature, so an inline plugin's
 * parameters are typed in either form.
 */
export type AnyPlugin<Options extends Record<string, any> = Record<string, any>> = (
  instance: HotpathInstance,
  options: Options,
  done: (err?: Error) => void
) => unknown

/** register()'s options: optional when the plugin's are, required when it has required ones. */
export type RegisterArgs<Options> = {} extends Options
  ? [options?: Options & RegisterOptions]
  : [options: Options & RegisterOptions]

export interface PluginMeta {
  /** Shown in errors and logs about this plugin. */
  name?: string
}

/**
 * Marks a plugin as not encapsulated: its decorators, hooks and handlers
 * apply to the context that registers it.
 */
export declare function plugin<P extends AnyPlugin<any>>(fn: P, meta?: PluginMeta): P

// ---------------------------------------------------------------------------
// Content-type parsers

export interface ContentTypeParserOptions {
  /** How the body is handed to the parser. */
  parseAs?: 'string' | 'buffer'
  /** This parser's body limit in bytes (defaults to the app's). */
  bodyLimit?: number
}

export type ContentTypeParser<Body> = (request: HotpathRequest, body: Body) => unknown

/** A media type ('text/csv'), a RegExp tested against it, a list of them, or '*' for every type without a parser. */
export type ContentTypeName = string | RegExp | readonly (string | RegExp)[]

// ---------------------------------------------------------------------------
// inject

export interface InjectOptions {
  method?: HTTPMethod | Lowercase<HTTPMethod>
  /** A path with an optional query, or a full http(s) URL. */
  url?: string
  /** Same as `url`. */
  path?: string
  /** Added to `url` as a query string. */
  query?: string | Record<string, string | number | boolean | ReadonlyArray<string | number | boolean>>
  headers?: Record<string, string | number | readonly string[]>
  /** Sent in the Cookie header (values URL-encoded), after any Cookie header given. */
  cookies?: Record<string, string>
  /** An object is sent as JSON (with its content type unless one is set); a FormData as multipart/form-data (its Content-Type replaces any given); a stream is read first. */
  payload?: string | Buffer | Uint8Array | FormData | object
  /** Same as `payload`. */
  body?: string | Buffer | Uint8Array | object
  /** The client address the request appears to come from (default '127.0.0.1'). */
  remoteAddress?: string
  /** light-my-request's `simulate`: `error: true` fails the body stream after its bytes (answered 400). */
  simulate?: { error?: boolean }
}

export interface InjectResponse {
  statusCode: number
  /** The reason phrase of the status. */
  statusMessage: string
  headers: Record<string, string | number | string[]>
  /** The body as UTF-8 text. */
  body: string
  /** Same as `body`. */
  payload: string
  /** The body bytes. */
  rawPayload: Buffer
  /** The trailer fields sent after a chunked body (reply.trailer()); empty without. */
  trailers: Record<string, string>
  /** The body parsed as JSON. */
  json<T = any>(): T
}

/** app.inject() with no options: the request built by chained calls, sent by end() or when awaited. */
export interface InjectChain extends PromiseLike<InjectResponse> {
  get(url: string): this
  head(url: string): this
  post(url: string): this
  put(url: string): this
  patch(url: string): this
  delete(url: string): this
  options(url: string): this
  trace(url: string): this
  headers(headers: InjectOptions['headers']): this
  query(query: InjectOptions['query']): this
  cookies(cookies: InjectOptions['cookies']): this
  payload(payload: InjectOptions['payload']): this
  body(body: InjectOptions['body']): this
  end(): Promise<InjectResponse>
  end(callback: (err: Error | null, res?: InjectResponse) => void): void
  catch<T = never>(onRejected?: ((err: any) => T | PromiseLike<T>) | null): Promise<InjectResponse | T>
  finally(onFinally?: (() => void) | null): Promise<InjectResponse>
}

// ---------------------------------------------------------------------------
// The app

export interface ListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number
  /** Defaults to 'localhost'. */
  host?: string
  /** A Unix socket (or Windows pipe) to listen on instead of a port; the path is then the address. Ignored when `port` is given, as in node:net. */
  path?: string
  /** A listening socket already open in this process (inherited from systemd's socket activation or a parent): listens on it, whatever `port`, `host` and `path` say. A Unix socket's address is then `fd:<n>`. */
  fd?: number
  /** The length of the queue of connections not yet accepted (node:net's default 511; the OS may cap it). */
  backlog?: number
  /** In a node:cluster worker: true opens a listening handle of the worker's own instead of sharing the primary's. */
  exclusive?: boolean
  /** With host '::': true takes IPv6 clients only; false (the default) IPv4 ones too (dual-stack). */
  ipv6Only?: boolean
  /** A Unix socket file every user may read. */
  readableAll?: boolean
  /** A Unix socket file every user may write (connect to). */
  writableAll?: boolean
  /** Closes the app when it aborts; aborted before the server listens, listen() resolves undefined and never calls its callback. */
  signal?: AbortSignal
  /** The line logged once listening, from the origin (default `Server listening at ${origin}`). */
  listenTextResolver?: (address: string) => string
}

/**
 * The methods that declare routes, typed by TP, an app's own type provider
 * (`withTypeProvider<TP>()`), besides the imported ones; never for none.
 */
export interface RouteMethods<TP = never> {
  get: RouteShorthand<this, TP>
  post: RouteShorthand<this, TP>
  put: RouteShorthand<this, TP>
  patch: RouteShorthand<this, TP>
  delete: RouteShorthand<this, TP>
  head: RouteShorthand<this, TP>
  options: RouteShorthand<this, TP>
  trace: RouteShorthand<this, TP>
  query: RouteShorthand<this, TP>
  /** Every method in `supportedMethods`. */
  all: RouteShorthand<this, TP>
  /** S is inferred from `options.schema` alone, as in RouteShorthand. */
  route<G extends RouteGeneric = {}, const S extends RouteSchema = {}>(options: NoInfer<Omit<RouteOptions<RouteGenericOf<G, S, TP>>, 'schema'> & { schema?: WrittenSchemaCheck<G> }> & { schema?: S }): this
  /**
   * Options typed elsewhere (`const options: RouteOptions<G> = ...`). Both
   * type parameters are inferred, never written, so a generic written on
   * `route<G>()` gets the overload above, which checks it against the schema.
   */
  route<G extends RouteGeneric, O extends RouteOptions<G>>(options: O & RouteOptions<G>): this
}

/**
 * What `app.withTypeProvider<TP>()` returns: the app, its route methods
 * typed by TP. The other methods return the app as it was.
 */

export type WithTypeProvider<App, TP> = Omit<App, keyof RouteMethods> & RouteMethods<TP>

/** P's validator is `unknown` whatever the schema, as Fastify's default provider's is. */
type ReadsNothing<P extends TypeProvider> = unknown extends (P & { readonly schema: never })['validator'] ? true : false

export interface HotpathInstance extends RouteMethods {
  addHook<G extends RouteGeneric = {}>(name: 'onRequest', hook: RequestHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'preParsing', hook: PreParsingHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'preValidation', hook: RequestHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'preHandler', hook: RequestHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'preSerialization', hook: PayloadHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'onSend', hook: PayloadHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'onResponse', hook: RequestHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'onError', hook: OnErrorHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'onTimeout', hook: RequestHook<G>): this
  addHook<G extends RouteGeneric = {}>(name: 'onRequestAbort', hook: RequestHook<G>): this
  addHook(name: 'onRoute', hook: OnRouteHook): this
  addHook(name: 'onRegister', hook: OnRegisterHook): this
  addHook(name: 'onReady', hook: AppHook): this
  addHook(name: 'onListen', hook: AppHook): this
  addHook(name: 'preClose', hook: AppHook): this
  addHook(name: 'onClose', hook: OnCloseHook): this

  /**
   * Registers a plugin in a child context. Awaiting the result loads the
   * plugin (and everything registered before it).
   */
  register<Options extends Record<string, any>>(
    plugin: AnyPlugin<Options> | { default: AnyPlugin<Options> } | PromiseLike<AnyPlugin<Options> | { default: AnyPlugin<Options> }>,
    ...options: RegisterArgs<Options>
  ): this & PromiseLike<void>
  /** Whether a plugin of this name (its declared name) was loaded here or in a parent, or opened this context. */
  hasPlugin(name: string): boolean
  /** The plugin that opened this context, then the plugin()-wrapped ones loaded into it, joined by ' -> '. */
  readonly pluginName: string
  /** The plugins as they loaded, as a tree, with the milliseconds each took. */
  printPlugins(): string
  /** hotpath's release; under hotpath/fastify, the Fastify release it follows. */
  readonly version: string
  /** Request ids of this context's routes from `fn(req.raw)` (the requestIdHeader still comes first). */
  setGenReqId(fn: (raw: RawNodeRequest) => string): this
  /** The function this context's request ids come from. */
  readonly genReqId: (raw: RawNodeRequest) => string
  /** What makes the loggers of this context's requests. */
  setChildLoggerFactory(factory: ChildLoggerFactory): this
  readonly childLoggerFactory: ChildLoggerFactory
  /**
   * `fn` runs once everything registered before it has loaded, as in
   * Fastify: `fn(err)` (or a promise), or `fn(err, done)`. Without `fn`, a
   * promise of that moment.
   */
  after(fn?: (err: Error | null, done: (err?: Error) => void) => void | Promise<unknown>): this & PromiseLike<void>

  /** A value, or `{ getter, setter }` for an accessor; `dependencies` must be decorated already. */
  decorate(name: string | symbol, value: unknown, dependencies?: ReadonlyArray<string | symbol>): this
  /** A value, or `{ getter, setter }` for an accessor. */
  decorateRequest(name: string | symbol, value: unknown, dependencies?: ReadonlyArray<string | symbol>): this
  /** A value, or `{ getter, setter }` for an accessor. */
  decorateReply(name: string | symbol, value: unknown, dependencies?: ReadonlyArray<string | symbol>): this
  hasDecorator(name: string | symbol): boolean
  /** A decorator this instance sees (a function bound to it); throws HP_ERR_DEC_UNDECLARED for another name. */
  getDecorator<T = unknown>(name: string | symbol): T
  hasRequestDecorator(name: string | symbol): boolean
  hasReplyDecorator(name: string | symbol): boolean

  /** Validators for this context's route schemas from your own compiler instead of ajv (Fastify's signature). */
  setValidatorCompiler(compile: ValidatorCompiler): this
  /** The error a failed validation answers with, for this context's routes (`this` is this instance; not async). */
  setSchemaErrorFormatter(formatter: SchemaErrorFormatter): this
  /** Response serializers for this context's routes from your own compiler instead of fast-json-stringify. */
  setSerializerCompiler(compile: (route: { schema: any, method: string, url: string, httpStatus: string }) => (data: any) => string): this
  /** The serializer of this context's JSON payloads (its children's too), in place of response schemas and JSON.stringify; errors and the built-in 404 do not use it. */
  setReplySerializer(fn: (payload: any, statusCode: number) => string): this
  /** A schema routes can `$ref` by its `$id` (without one, addSchema throws HP_ERR_SCHEMA_MISSING_ID), seen by this context and its children. */
  addSchema(schema: JSONSchema & object): this
  /** The shared schemas this context sees, by `$id` (a custom bucket's own answer). */
  getSchemas(): Record<string, JSONSchema>
  getSchema(id: string): JSONSchema | undefined
  /** Where this context keeps its shared schemas and how its compilers are built (Fastify's schemaController), each falling back to the parent's. */
  setSchemaController(options: SchemaControllerOptions): this
  /** The validator compiler this context's routes use: setValidatorCompiler's, or hotpath's once ready() has built it; undefined before. */
  readonly validatorCompiler: ValidatorCompiler | undefined
  /** The serializer compiler this context's routes use (see validatorCompiler). */
  readonly serializerCompiler: ((route: { schema: any, method: string, url: string, httpStatus: string }) => (data: any) => string) | undefined
  /** The options the app was created with, limits resolved; frozen. */
  readonly initialConfig: Readonly<Record<string, unknown>>
  /** The methods routes may use: those whose bodies are not parsed, then those whose bodies are. */
  readonly supportedMethods: string[]
  /** Lets routes use another method Node.js parses, with a shorthand named after it (`app.propfind`); `hasBody` parses its bodies. */
  addHttpMethod(method: string, options?: { hasBody?: boolean, overrideExisting?: boolean }): this
  /** The route a request for this method and URL would reach: its handler, params and query (copies), or null. */
  findRoute(options: { method: string, url: string, constraints?: Record<string, unknown> }): { handler: Function, params: Record<string, string | undefined>, searchParams: Record<string, unknown> } | null
  /** Whether a route is declared for this method and path pattern (and constraints). */
  hasRoute(options: { method: string, url: string, constraints?: Record<string, unknown> }): boolean
  /** Adds a constraint strategy routes may use in their `constraints` (before ready()). */
  addConstraintStrategy(strategy: ConstraintStrategy): this
  /** Whether routes may use this constraint: one the app added, or host/version once a route uses it. */
  hasConstraintStrategy(name: string): boolean
  /** The route tree as text (find-my-way's prettyPrint); complete after ready(). */
  printRoutes(options?: { method?: string, commonPrefix?: boolean, includeMeta?: boolean | Array<string | symbol>, includeHooks?: boolean }): string

  /** Connect/Express middleware, one or more functions or arrays of them, run at onRequest in order. */
  use(middleware: Middleware | readonly Middleware[], ...more: Array<Middleware | readonly Middleware[]>): this
  /** Middleware mounted at a literal path: it runs for requests at or below it, with `req.url` relative to it. */
  use(path: string, middleware: Middleware | readonly Middleware[], ...more: Array<Middleware | readonly Middleware[]>): this
  /** Error middleware `(err, req, res, next)`, told by its four parameters; mounted at a path or not. */
  use(errorMiddleware: ErrorMiddleware): this
  use(path: string, errorMiddleware: ErrorMiddleware): this

  /** The error handler in force here: the nearest setErrorHandler() up the plugin chain, else the default; a route's own errorHandler calls it to hand an error on. */
  readonly errorHandler: ErrorHandler
  setErrorHandler(handler: ErrorHandler): this
  setNotFoundHandler(handler: NotFoundHandler): this
  /** With hooks of its own, run after the context's (Fastify's two). */
  setNotFoundHandler(options: { preValidation?: OneOrMany<RequestHook>, preHandler?: OneOrMany<RequestHook>, errorHandler?: ErrorHandler }, handler: NotFoundHandler): this

  addContentTypeParser(
    type: ContentTypeName,
    options: ContentTypeParserOptions & { parseAs: 'buffer' },
    parser: ContentTypeParser<Buffer>
  ): this
  addContentTypeParser(
    type: ContentTypeName,
    options: ContentTypeParserOptions & { parseAs?: 'string' },
    parser: ContentTypeParser<string>
  ): this
  /** The body as a UTF-8 string, the app's body limit. */
  addContentTypeParser(type: ContentTypeName, parser: ContentTypeParser<string>): this
  /** Whether this context has a parser for exactly this type. */
  hasContentTypeParser(type: string | RegExp): boolean
  /** Removes this context's parsers for these types (the built-in ones too). */
  removeContentTypeParser(type: ContentTypeName): this
  /** Removes every parser of this context, the built-in ones too. */
  removeAllContentTypeParsers(): this
  /** The built-in JSON parser with its own answer to `__proto__` and `constructor.prototype` keys. */
  getDefaultJsonParser(onProtoPoisoning?: 'error' | 'remove' | 'ignore', onConstructorPoisoning?: 'error' | 'remove' | 'ignore'): ContentTypeParser<string>
  /** The built-in text/plain parser: the body as it is. */
  readonly defaultTextParser: ContentTypeParser<string>

  /**
   * The app itself (at run time), its routes typed by provider P, in
   * Fastify's shape (`Fastify().withTypeProvider<TypeBoxTypeProvider>()`),
   * where P knows a schema, else by the imported providers. Without P, or
   * with one that reads nothing (`FastifyTypeProviderDefault`), the app as
   * it is.
   */
  withTypeProvider<P extends TypeProvider = never>(): [P] extends [never] ? this : ReadsNothing<P> extends true ? this : WithTypeProvider<this, P>

  /**
   * Dispatches a request/response pair made elsewhere (an 'upgrade'
   * listener's request and a ServerResponse on its socket) through the
   * routes and hooks, as Fastify's `routing`. After ready().
   */
  routing(req: IncomingMessage | { method: string, url: string, headers: IncomingHttpHeaders, [key: string | symbol]: unknown }, res: ServerResponse): void
  inject(): InjectChain
  inject(options: InjectOptions | string): Promise<InjectResponse>
  inject(options: InjectOptions | string, callback: (err: Error | null, res?: InjectResponse) => void): void

  ready(): Promise<this>
  ready(callback: (err: Error | null) => void): Promise<this>
  /** Resolves to the address, e.g. `http://127.0.0.1:3000`. */
  listen(options?: ListenOptions): Promise<string>
  /** Fastify's form: callback(err, address). */
  listen(options: ListenOptions, callback: (err: Error | null, address?: string | null) => void): Promise<string>
  listen(callback: (err: Error | null, address?: string | null) => void): Promise<string>
  close(): Promise<void>
  close(callback: (err?: Error) => void): Promise<void>
  /** close(): `await using app = hotpath()` closes the app at the end of the block. */
  [Symbol.asyncDispose](): Promise<void>
  /**
   * The server: http.Server / https.Server on `node` (from the start), or
   * net.Server / tls.Server on `wire` (once ready() resolved).
   */
  readonly server: Server
  /** The listening address ([] before listen() and once closed). */
  addresses(): AddressInfo[]
  /** The last load sample (see the `load` option). */
  readonly load: LoadReading
  readonly log: HotpathLogger
  /** The prefix of this context ('' at the root). */
  readonly prefix: string
}

// ---------------------------------------------------------------------------
// Options

export interface HotpathOptions {
  /**
   * false (default): no logging. true: pino at 'info'. Or pino options (with
   * an optional `stream` to write to), or a pino logger.
   */
  logger?: boolean | (LoggerOptions & { stream?: DestinationStream }) | HotpathLogger
  /** A logger made elsewhere (a pino instance), as Fastify 5 takes it; wins over `logger`. */
  loggerInstance?: HotpathLogger
  /** Largest request body in bytes (default 1 MiB; 413 past it). */
  bodyLimit?: number
  /**
   * Deepest nesting of arrays and objects a JSON body may have (default 64;
   * 400 HP_ERR_JSON_TOO_DEEP past it, before the body is parsed).
   */
  jsonDepthLimit?: number
  /**
   * Trust X-Forwarded-* headers: true (any hop), a hop count, an address
   * or list of addresses/CIDRs, or a function of (address, hop).
   */
  trustProxy?: boolean | number | string | readonly string[] | ((address: string, hop: number) => boolean)
  /** ms to receive the request head (default 10 000; 408 past it). */
  headersTimeout?: number
  /**
   * ms to receive the whole request (408 past it), and to answer it (503
   * HP_ERR_HANDLER_TIMEOUT past it). Default 30 000; 0 turns both off.
   */
  requestTimeout?: number
  /** ms an idle keep-alive socket is kept open (default 5 000). */
  keepAliveTimeout?: number
  /**
   * ms close() waits for in-flight responses before it destroys the
   * connections still open (default 10 000).
   */
  closeGraceTimeout?: number
  /**
   * What close() does to open keep-alive connections. false (default): an
   * idle one that answered within the last 500 ms stays open that long (a
   * request on its way gets 503, not a reset). 'idle': idle ones close at
   * once, as in Fastify and node:http. true: every connection is destroyed
   * at once, in-flight requests too.
   */
  forceCloseConnections?: boolean | 'idle'
  /**
   * Every error answers with its own message and code, whatever its status,
   * as in Fastify (default false: only messages made for the client are
   * shown; true in hotpath/fastify). docs/safety.md, "Errors never leak".
   */
  exposeErrorMessages?: boolean
  /**
   * 'fastify' (the default of hotpath/fastify): errors answer as Fastify's
   * do: its 404 body, its codes and messages where it has its own.
   */
  errorFormat?: 'hotpath' | 'fastify'
  /**
   * 'fastify' (the default of hotpath/fastify): payloads become bodies as
   * Fastify's do: null sends JSON null, a JSON Content-Type the app set gets
   * charset=utf-8, a stream gets no default Content-Type.
   */
  replyFormat?: 'hotpath' | 'fastify'
  /** A GET route answers HEAD through a HEAD route of its own, seen by onRoute hooks (default true). */
  exposeHeadRoutes?: boolean
  /** Largest request head in bytes (default 16 KiB; 431 past it). */
  maxHeaderSize?: number
  /** Longest path parameter in characters (default 100; longer does not match). */
  maxParamLength?: number
  /** '/Foo' and '/foo' are different routes (default true). */
  caseSensitive?: boolean
  /** '/foo/' matches '/foo' (default false). */
  ignoreTrailingSlash?: boolean
  /** '//a///b' matches '/a/b' (default false). */
  ignoreDuplicateSlashes?: boolean
  /** Route regexps find-my-way deems unsafe (backtracking) are accepted (default false). */
  allowUnsafeRegex?: boolean
  /** The router options above and below, as Fastify 5 groups them; these win over the top-level ones. */
  routerOptions?: {
    caseSensitive?: boolean
    ignoreTrailingSlash?: boolean
    ignoreDuplicateSlashes?: boolean
    maxParamLength?: number
    allowUnsafeRegex?: boolean
    useSemicolonDelimiter?: boolean
    querystringParser?: (querystring: string) => Record<string, unknown>
    constraints?: Record<string, ConstraintStrategy>
    defaultRoute?: (req: RawNodeRequest, res: RawResponse) => void
    onBadUrl?: (path: string, req: RawNodeRequest, res: RawResponse) => void
    onMaxParamLength?: (path: string, req: RawNodeRequest, res: RawResponse) => void
    buildPrettyMeta?: (route: { method: string, path: string, opts: unknown, handler: Function, store: unknown }) => Record<string, unknown>
  }
  /** Constraint strategies of the app's own, by name (routes' `constraints`). */
  constraints?: Record<string, ConstraintStrategy>
  /** The URL a request is routed by, from the request as it arrives (`this` is the app); `req.originalUrl` keeps the one received. */
  rewriteUrl?: (this: HotpathInstance, raw: RawRequest) => string
  /** Answers the errors found before a route is (a malformed path, a parameter over maxParamLength, a failed asynchronous constraint). */
  frameworkErrors?: (err: HttpError, req: HotpathRequest, reply: HotpathReply) => void
  /** Answers every path no route matches, with node:http's request and response (in place of the not-found handlers). */
  defaultRoute?: (req: RawNodeRequest, res: RawResponse) => void
  /** Answers a malformed path, with node:http's request and response. */
  onBadUrl?: (path: string, req: RawNodeRequest, res: RawResponse) => void
  /** Answers a path parameter over maxParamLength, with node:http's request and response. */
  onMaxParamLength?: (path: string, req: RawNodeRequest, res: RawResponse) => void
  /** What printRoutes({ includeMeta }) shows of each route. */
  buildPrettyMeta?: (route: { method: string, path: string, opts: unknown, handler: Function, store: unknown }) => Record<string, unknown>
  /** Request ids, from node:http's request (`req.raw`); by default a per-app counter ('req-1', 'req-2', ...). */
  genReqId?: (raw: RawNodeRequest) => string
  /** What makes each request's logger (setChildLoggerFactory at the root). */
  childLoggerFactory?: ChildLoggerFactory
  /** Writes a request's own lines (Fastify's LogController, or an object with its methods). */
  logController?: {
    isLogDisabled(req: any): boolean
    incomingRequest(request: any, reply: any): void
    requestCompleted(error: Error | null | undefined, request: any, reply: any): void
    defaultErrorLog(error: Error, request: any, reply: any): void
    routeNotFound(request: any, reply: any): void
  }
  /** The header a request id is taken from when a request has it (true: 'request-id'; default none). */
  requestIdHeader?: string | boolean
  /** The key of the request id on a request's log lines (default 'reqId'). */
  requestIdLogLabel?: string
  /**
   * 'hotpath' (default): one line per request, errors as "request failed" /
   * "request rejected". 'fastify' (hotpath/fastify's default): Fastify's
   * lines, an "incoming request" line too and each error under its message.
   */
  logFormat?: 'hotpath' | 'fastify'
  /** No "request completed" line per request (default false); a function leaves out the lines of the requests it returns true for. */
  disableRequestLogging?: boolean | ((req: HotpathRequest) => boolean)
  /** Requests served on one connection before it closes (default 0, unlimited). */
  maxRequestsPerSocket?: number
  /** Builds the error a failed validation answers with, for routes that set none (not async; `this` is the app). */
  schemaErrorFormatter?: SchemaErrorFormatter
  /** ms a plugin may take to load before ready() fails (default 10 000, as Fastify's; 0: no limit). */
  pluginTimeout?: number
  /** fast-json-stringify's options for the response serializers (`rounding`, `largeArrayMechanism`…), as Fastify's. */
  serializerOpts?: Record<string, unknown>
  /** Where the root context keeps its shared schemas, and the builders of its compilers (setSchemaController for a plugin). */
  schemaController?: SchemaControllerOptions
  /** ajv's own options, its plugins (a function, or [function, options]), and a function given each instance. */
  ajv?: { customOptions?: Record<string, unknown>, plugins?: ReadonlyArray<((ajv: any, options?: any) => unknown) | readonly [(ajv: any, options?: any) => unknown, unknown]>, onCreate?: (ajv: any) => void }
  /**
   * true: serves HTTP/2 on the h2 engine (node:http2), cleartext with prior
   * knowledge, or over TLS with `https` (ALPN h2; `https.allowHTTP1` serves
   * HTTP/1.1 on the same port with the wire engine). docs/engines.md, "h2".
   */
  http2?: boolean
  /** false: a second setErrorHandler() in one context throws HP_ERR_ERROR_HANDLER_SET (default true: it wraps the first). */
  allowErrorHandlerOverride?: boolean
  /** node:http's server options that apply on both engines (any other is refused). */
  http?: { maxHeaderSize?: number, requireHostHeader?: boolean, connectionsCheckingInterval?: number } | null | (import('node:http2').ServerOptions & { [key: string]: unknown })
  /** ms a socket may stay silent before it is destroyed (default 0, none; node:http's server.timeout). */
  connectionTimeout?: number
  /** ms from a request's arrival to its answer before the error path answers 503, for every route (default 0, off). */
  handlerTimeout?: number
  /** false: a request that arrives during close() is served, with Connection: close, rather than answered 503 (default true). */
  return503OnClosing?: boolean
  /**
   * A health route at this path (or `{ path }`): GET and HEAD answer
   * 200 `{"status":"ok"}` (`"overloaded"` while overload protection sheds),
   * 503 `{"status":"draining"}` once close() has begun; answered before
   * overload shedding, routing and hooks (docs/operations.md).
   */
  health?: string | { path: string } | false | null
  /**
   * close() drains, for a load balancer: for `delay` ms (default 0) the app
   * keeps serving while the health route answers 503; then the listener
   * closes, every request still arriving on an open connection is served
   * with Connection: close (never 503), and an idle connection is left to
   * its client or its keep-alive timeout, bounded by closeGraceTimeout.
   */
  drain?: boolean | { delay?: number }
  /** Makes the node:http (or node:https) server the app runs on (the node engine): it calls `handler(req, res)` for each request. */
  serverFactory?: (handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void, options: HotpathOptions) => Server
  /** What the built-in JSON parser does with a `__proto__` key: 'error' (default, 400), 'remove' or 'ignore'. */
  onProtoPoisoning?: 'error' | 'remove' | 'ignore'
  /** The same for a `constructor.prototype` key. */
  onConstructorPoisoning?: 'error' | 'remove' | 'ignore'
  /** Parses `req.query` from the query string (default: fast-querystring). */
  querystringParser?: (querystring: string) => Record<string, unknown>
  /** ';' ends the path and starts the query, as '?' does (default false). */
  useSemicolonDelimiter?: boolean
  /** ms an idle HTTP/2 session is kept before it is closed with a GOAWAY (default 72000, as Fastify; 0: none). Without http2, accepted and unused. */
  http2SessionTimeout?: number
  /** TLS options: serves HTTPS. */
  https?: SecureContextOptions & TlsOptions
  /** 'wire' (default) runs on hotpath's own HTTP/1.1 engine; 'node' on node:http. */
  engine?: 'node' | 'wire' | 'h2'
  /**
   * Overload protection: while the last sample is over a limit, new requests
   * answer 503 HP_ERR_SERVER_OVERLOADED with Retry-After. Every limit is off
   * by default (0 or absent).
   */
  load?: LoadOptions
}

export interface LoadOptions {
  /** Mean event-loop delay over the last interval, in ms. */
  maxEventLoopDelay?: number
  /** Event-loop utilization over the last interval, 0 to 1. */
  maxEventLoopUtilization?: number
  /** process.memoryUsage().heapUsed, in bytes. */
  maxHeapUsedBytes?: number
  /** process.memoryUsage().rss, in bytes. */
  maxRssBytes?: number
  /** ms between samples (default 1000). */
  sampleInterval?: number
  /** Seconds sent in Retry-After (default 10). */
  retryAfter?: number
}

/** The last load sample (`app.load`); a field whose limit is not set reads 0. */
export interface LoadReading {
  eventLoopDelay: number
  eventLoopUtilization: number
  heapUsed: number
  rss: number
  /** New requests are being answered 503. */
  overloaded: boolean
}

// ---------------------------------------------------------------------------
// Errors

export interface HttpErrorOptions {
  /** An error code for the JSON body and logs, e.g. 'BOOK_NOT_FOUND'. */
  code?: string
  /** The underlying error (kept for logs, never sent). */
  cause?: unknown
}

/**
 * Throw (or reject with) one to answer `statusCode` (400-599) with
 * `{ statusCode, error, message }`. The message defaults to the reason phrase.
 */
export declare class HttpError extends Error {
  constructor(statusCode: number, message?: string, options?: HttpErrorOptions)
  readonly statusCode: number
  code: string | undefined
  /** Extra fields merged into the JSON body (e.g. `validation`). */
  details: Record<string, unknown> | undefined
  /** The reason phrase, e.g. 'Not Found'. */
  readonly error: string
}

// ---------------------------------------------------------------------------
// Fastify's names
//
// The same interfaces under the names Fastify's plugins import, so that a
// plugin's `.d.ts` compiles against hotpath and its augmentations
// (`declare module 'fastify' { interface FastifyRequest { cookies: ... } }`)
// land on hotpath's request, reply and instance: TypeScript merges an
// augmentation of a re-exported name into the interface it names. How an app
// points 'fastify' at hotpath: docs/migrating-from-fastify.md, "TypeScript".
//
// Fastify's interfaces take generic parameters for the raw server, request
// and reply, the logger and the type provider; hotpath's have one, the route
// generic. Where a plugin's augmentation repeats Fastify's parameter list
// (`interface FastifyInstance<RawServer, RawRequest, ...>`), tsc reports that
// the declarations' type parameters differ.

export type {
  HotpathInstance as FastifyInstance,
  HotpathRequest as FastifyRequest,
  HotpathReply as FastifyReply,
  HotpathOptions as FastifyServerOptions,
  HotpathError as FastifyError,
  HotpathLogger as FastifyBaseLogger,
  RouteSchema as FastifySchema,
  RouteConfig as FastifyContextConfig,
  RouteGeneric as RouteGenericInterface,
  RouteGeneric as RequestGenericInterface,
  RouteHandler as RouteHandlerMethod,
  HTTPMethod as HTTPMethods,
  HookDone as HookHandlerDoneFunction,
}

/** Fastify's name for a validator compiler, typed by its schemas' type (`FastifySchemaCompiler<TSchema>`). */
export type FastifySchemaCompiler<T = any> = ValidatorCompiler<T>

/** Options a plugin is registered with. */
export type FastifyPluginOptions = Record<string, any>

/**
 * The instance a Fastify-typed plugin gets: the app, its route methods
 * typed by the plugin type's provider when it names one
 * (`FastifyPluginAsyncTypebox`).
 */
export type FastifyPluginInstance<TP> = TP extends TypeProvider ? ReadsNothing<TP> extends true ? HotpathInstance : WithTypeProvider<HotpathInstance, TP> : HotpathInstance

/** A plugin that calls `done` when it has loaded. The server and logger parameters are Fastify's, accepted and unused. */
export type FastifyPluginCallback<Options extends FastifyPluginOptions = Record<never, never>, _Server = unknown, TP = unknown, _Logger = unknown> = (
  instance: FastifyPluginInstance<TP>,
  options: Options,
  done: (err?: Error) => void
) => void

/** An async plugin. The server and logger parameters are Fastify's, accepted and unused. */
export type FastifyPluginAsync<Options extends FastifyPluginOptions = Record<never, never>, _Server = unknown, TP = unknown, _Logger = unknown> = (
  instance: FastifyPluginInstance<TP>,
  options: Options
) => Promise<void>

/** What `register` takes besides the plugin's own options. */
export type FastifyRegisterOptions<Options> = Options & RegisterOptions

/** The servers and raw objects Fastify's generics name: node:http's on every hotpath engine, as `req.raw`/`reply.raw` are. */
export type RawServerBase = Server
export type RawServerDefault = import('node:http').Server
export type RawRequestDefaultExpression<_Server = RawServerDefault> = IncomingMessage
export type RawReplyDefaultExpression<_Server = RawServerDefault> = ServerResponse<IncomingMessage>
export type ContextConfigDefault = unknown
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/**
 * The names of Fastify's type providers, for plugins whose `.d.ts` mention
 * them. hotpath does not infer request types from schemas through them.
 */
export interface FastifyTypeProvider {
  readonly schema: unknown
  readonly validator: unknown
  readonly serializer: unknown
}
export interface FastifyTypeProviderDefault extends FastifyTypeProvider {}

/** Fastify's names of the hook types. */
export type onRequestHookHandler = RequestHook
export type preValidationHookHandler = RequestHook
export type preHandlerHookHandler = RequestHook
export type onResponseHookHandler = RequestHook
export type onTimeoutHookHandler = RequestHook
export type onRequestAbortHookHandler = RequestHook
export type preParsingHookHandler = PreParsingHook
export type preSerializationHookHandler = PayloadHook
export type onSendHookHandler = PayloadHook
export type onErrorHookHandler = OnErrorHook
export type onRouteHookHandler = OnRouteHook
export type onRegisterHookHandler = OnRegisterHook
export type onReadyHookHandler = AppHook
export type onListenHookHandler = AppHook
export type preCloseHookHandler = AppHook
export type onCloseHookHandler = OnCloseHook

// ---------------------------------------------------------------------------
// Entry point

declare function hotpath(options?: HotpathOptions): HotpathInstance
export default hotpath
export { hotpath }
