// Fastify's internal symbols by name (`require('fastify/lib/symbols')`),
// for code that reaches into Fastify's objects with them: NestJS's adapter
// builds a Reply with a route context under kRouteContext, and plugin suites
// read a request's route context to check which hooks it registered.
//
// Every name Fastify 5.12 exports is here, each a symbol of its own, so that
// a module destructuring any of them loads; the ones hotpath gives a meaning
// to are read on its objects:
// - kRouteContext: request[kRouteContext] and reply[kRouteContext] are the
//   request's route record (routing/route.js), whose hook arrays (null when
//   empty), handler and config are those of Fastify's route context; and
//   the context ./reply.js reads its onSend hooks from.
// The others are names only: a plugin that writes Fastify's internal state
// through them changes nothing here (docs/migrating-from-fastify.md).

const NAMES = [
  'kAvvioBoot', 'kChildren', 'kServerBindings', 'kBodyLimit', 'kSupportedHTTPMethods', 'kRoutePrefix',
  'kLogLevel', 'kLogSerializers', 'kHooks', 'kContentTypeParser', 'kState', 'kOptions', 'kPluginNameChain',
  'kRouteContext', 'kGenReqId', 'kHttp2ServerSessions',
  'kSchemaController', 'kSchemaHeaders', 'kSchemaParams', 'kSchemaQuerystring', 'kSchemaBody',
  'kSchemaResponse', 'kSchemaErrorFormatter', 'kSchemaVisited',
  'kRequest', 'kRequestPayloadStream', 'kRequestAcceptVersion', 'kRequestCacheValidateFns',
  'kRequestContentType', 'kRequestOriginalUrl', 'kRequestSignal', 'kHandlerTimeout', 'kTimeoutTimer', 'kOnAbort',
  'kFourOhFour', 'kCanSetNotFoundHandler', 'kFourOhFourLevelInstance', 'kFourOhFourContext', 'kDefaultJsonParse',
  'kReply', 'kReplySerializer', 'kReplyIsError', 'kReplyHeaders', 'kReplyTrailers', 'kReplyHasStatusCode',
  'kReplyHijacked', 'kReplyStartTime', 'kReplyNextErrorHandler', 'kReplyEndTime', 'kReplyErrorHandlerCalled',
  'kReplyIsRunningOnErrorHook', 'kReplySerializerDefault', 'kReplyCacheSerializeFns',
  'kTestInternals', 'kErrorHandler', 'kErrorHandlerAlreadySet', 'kChildLoggerFactory', 'kHasBeenDecorated',
  'kKeepAliveConnections', 'kRouteByFastify', 'kLogController', 'kDiagnosticsStore'
]

/** @type {Record<string, symbol>} */
const symbols = {}
for (const name of NAMES) symbols[name] = Symbol(`fastify.${name}`)

export const kRouteContext = symbols.kRouteContext
export default symbols
export { symbols as 'module.exports' }
