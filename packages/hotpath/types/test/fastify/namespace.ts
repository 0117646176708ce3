// Every name Fastify's entry declares on its namespace, imported from
// hotpath/fastify: tsc fails here if one is missing from types/fastify.d.ts,
// and types/test/fastify-namespace.test.js fails if a name Fastify's
// installed declarations add is missing from this list.
import Default, { fastify, errorCodes, LogController } from 'hotpath/fastify'
import type {
  FastifyHttp2SecureOptions, FastifyHttp2Options, FastifyHttpsOptions, FastifyHttpOptions,
  ConnectionError, FastifyRouterOptions, FastifyServerOptions, ValidationResult,
  LightMyRequestChain, InjectOptions, LightMyRequestResponse, LightMyRequestCallback,
  FastifyRequest, RequestGenericInterface, FastifyReply, FastifyPluginCallback, FastifyPluginAsync,
  FastifyPluginOptions, FastifyPlugin, FastifyListenOptions, FastifyInstance, PrintRoutesOptions,
  FastifyLoggerOptions, FastifyBaseLogger, FastifyLoggerInstance, FastifyLogFn, LogLevel,
  FastifyRequestContext, FastifyContextConfig, FastifyReplyContext, RouteHandler,
  RouteHandlerMethod, RouteOptions, RouteShorthandMethod, RouteShorthandOptions,
  RouteShorthandOptionsWithHandler, RouteGenericInterface, FastifyRegister, FastifyRegisterOptions,
  RegisterOptions, FastifyBodyParser, FastifyContentTypeParser, AddContentTypeParser,
  hasContentTypeParser, getDefaultJsonParser, ProtoAction, ConstructorAction, FastifyError,
  FastifySchema, FastifySchemaValidationError, FastifySchemaCompiler, FastifySerializerCompiler,
  HTTPMethods, RawServerBase, RawRequestDefaultExpression, RawReplyDefaultExpression,
  RawServerDefault, ContextConfigDefault, RequestBodyDefault, RequestQuerystringDefault,
  RequestParamsDefault, RequestHeadersDefault, DoneFuncWithErrOrRes, HookHandlerDoneFunction,
  RequestPayload, onCloseAsyncHookHandler, onCloseHookHandler, onErrorAsyncHookHandler,
  onErrorHookHandler, onReadyAsyncHookHandler, onReadyHookHandler, onListenAsyncHookHandler,
  onListenHookHandler, onRegisterHookHandler, onRequestAsyncHookHandler, onRequestHookHandler,
  onResponseAsyncHookHandler, onResponseHookHandler, onRouteHookHandler, onSendAsyncHookHandler,
  onSendHookHandler, onTimeoutAsyncHookHandler, onTimeoutHookHandler, preHandlerAsyncHookHandler,
  preHandlerHookHandler, preParsingAsyncHookHandler, preParsingHookHandler,
  preSerializationAsyncHookHandler, preSerializationHookHandler, preValidationAsyncHookHandler,
  preValidationHookHandler, onRequestAbortHookHandler, onRequestAbortAsyncHookHandler,
  preCloseAsyncHookHandler, preCloseHookHandler, FastifyServerFactory, FastifyServerFactoryHandler,
  FastifyTypeProvider, FastifyTypeProviderDefault, SafePromiseLike, FastifyErrorCodes
} from 'hotpath/fastify'

export const values = [Default, fastify, errorCodes, LogController]
