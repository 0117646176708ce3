// The body stage, after onRequest: picks the parser from Content-Type before
// reading a byte (an unknown type is refused with 415 without buffering the
// body), runs preParsing hooks on the body stream, reads the body within
// its limit and parses it. Then the validation stage.
import { AsyncResource } from 'node:async_hooks'
import { createError } from '../errors.js'
import { isThenable, park, runPayloadHooks } from './kernel.js'
import { readStream } from './parsers/read-stream.js'
import { handleError, stageFailed } from './handle-error.js'
import { validationStage } from './validate.js'

/** @typedef {import('../reply/reply.js').Reply} Reply */

const EMPTY = Buffer.alloc(0)

/**
 * Entered after the onRequest hooks. Methods without a parsed body (GET,
 * HEAD) and requests with neither a body nor a Content-Type go on to
 * validation, after the preParsing hooks if the route has any: as in
 * Fastify they run for every request, with req.raw as the payload.
 * @param {Reply} reply
 */
export function bodyStage (reply) {
  const route = reply.route
  if (route.parseBody) {
    const raw = reply.request._incoming
    if (route.contentRequired && !hasContent(reply)) return
    if (raw.hasBody || raw.headers['content-type'] !== undefined) {
      readBody(reply)
      return
    }
  }
  if (route.preParsing !== null) runPayloadHooks(reply, route.preParsing, 0, reply.request.raw, validationStage, true, handleError)
  else validationStage(reply)
}

/**
 * A QUERY request states what it asks in its body (RFC 10008 §2): without
 * a Content-Type, or without a body, it is answered 400.
 * @param {Reply} reply
 */
function hasContent (reply) {
  const raw = reply.request._incoming
  const method = reply.request.method
  if (raw.headers['content-type'] === undefined) handleError(reply, reply.route.app.error('HP_ERR_MISSING_CONTENT_TYPE', method))
  else if (!raw.hasBody) handleError(reply, reply.route.app.error('HP_ERR_MISSING_CONTENT', method))
  else return true
  return false
}

/** @param {Reply} reply */
function readBody (reply) {
  const req = reply.request
  const raw = req._incoming
  // A middleware (app.use) read the body already: express.json() and the
  // other body-parser middlewares leave what they parsed as `body`; a body
  // stream read to its end leaves nothing to read (waiting for it would
  // last until the request timeout). Either way, the route's parser is not
  // run, as in Express.
  // The object middleware had is node's (the node engine's request) or
  // the compat request (reply.raw.req), whatever its prototype is now.
  const read = /** @type {{ body?: unknown, readableEnded?: boolean }} */ (reply._raw === null ? raw : reply._raw.req)
  if (read.body !== undefined) {
    req.body = read.body
    validationStage(reply)
    return
  }
  if (read.readableEnded === true) {
    validationStage(reply)
    return
  }
  const route = reply.route
  const header = raw.headers['content-type']
  // no Content-Type, or a malformed one: the catch-all parser ('*') if any
  const parser = route.parsers.find(typeof header === 'string' ? header : undefined)
  if (parser === null) {
    // No route matched: the not-found handler answers, whatever the body
    // (Fastify does not refuse it with a 415 first).
    if (route.notFound) {
      validationStage(reply)
      return
    }
    handleError(reply, route.app.error('HP_ERR_UNSUPPORTED_MEDIA_TYPE', header === undefined ? 'missing Content-Type' : JSON.stringify(header)))
    return
  }
  reply._parser = parser
  if (parser.parseAs === 'stream') {
    // the parser reads the body itself, from req.raw (or what preParsing
    // hooks made of the body stream), as a Fastify parser without parseAs
    if (route.preParsing !== null) runPayloadHooks(reply, route.preParsing, 0, req.raw, runStreamParser, true, handleError)
    else runStreamParser(reply, req.raw)
    return
  }
  if (route.preParsing !== null) {
    // the first hook's payload is req.raw, as Fastify gives it
    runPayloadHooks(reply, route.preParsing, 0, req.raw, readParsedStream, true, handleError)
    return
  }
  readRawBody(reply, parser)
}

/**
 * Reads the request's body from the engine, within the limit, then parses it.
 * @param {Reply} reply
 * @param {import('./parsers/table.js').Parser} parser
 */
function readRawBody (reply, parser) {
  const route = reply.route
  const raw = reply.request._incoming
  if (!raw.hasBody) {
    runParser(reply, EMPTY)
    return
  }
  const limit = bodyLimit(route, parser)
  reply._readingBody = true
  const context = new BodyContext(reply, limit)
  raw.readBody(limit, (err, body) => { context.read(err, body) })
}

/**
 * The async context a body is read in: the parser and every stage after it
 * run in the context the lifecycle had when the read began (a store entered
 * by an onRequest hook), not the one of the socket event that delivered the
 * last chunk, as Fastify's parser runner does with an AsyncResource
 * (~35 ns a request here, Node 20).
 */
class BodyContext extends AsyncResource {
  /**
   * @param {Reply} reply
   * @param {number} limit
   */
  constructor (reply, limit) {
    super('hotpath:body')
    this.reply = reply
    this.limit = limit
  }

  /**
   * @param {unknown} err
   * @param {unknown} body
   */
  read (err, body) {
    this.runInAsyncScope(bodyRead, null, this.reply, err, body, this.limit)
    this.emitDestroy()
  }
}

/**
 * @param {Reply} reply
 * @param {unknown} err
 * @param {unknown} body
 * @param {number} limit
 */
function bodyRead (reply, err, body, limit) {
  reply._readingBody = false
  if (reply._done) return
  if (err) bodyError(reply, err, limit)
  else runParser(reply, /** @type {Buffer} */ (body))
}

/**
 * The limit a body is read within: the route's own bodyLimit, else the
 * parser's, else the app's (Fastify's order).
 * @param {import('../routing/route.js').Route} route
 * @param {import('./parsers/table.js').Parser} parser
 */
function bodyLimit (route, parser) {
  return route.ownBodyLimit || parser.bodyLimit === null ? route.bodyLimit : parser.bodyLimit
}

/**
 * Engines report body errors with a code from the table; answer with the
 * core's own error for it (in Fastify's words with errorFormat 'fastify'). The unread rest of an over-limit body is never
 * read: the connection closes after the answer.
 * @param {Reply} reply
 * @param {any} err
 * @param {number} limit
 */
function bodyError (reply, err, limit) {
  const code = err?.code
  // Fastify closes the connection after any failure to read the body
  if (reply.route.app.fastifyErrors && code !== 'HP_ERR_BODY_CONSUMED') reply.header('connection', 'close')
  if (code === 'HP_ERR_BODY_TOO_LARGE') {
    reply.header('connection', 'close')
    handleError(reply, reply.route.app.error(code, limit))
  } else if (code === 'HP_ERR_INVALID_CONTENT_LENGTH') {
    reply.header('connection', 'close')
    handleError(reply, reply.route.app.error(code))
  } else if (code === 'HP_ERR_REQUEST_ABORTED' && err.cause instanceof Error && reply.route.app.fastifyErrors) {
    // the body stream failed with an error of its own (a preParsing hook's
    // stream): Fastify answers with that error, a 400 unless it has an
    // error status
    const cause = /** @type {any} */ (err.cause)
    cause.statusCode = 400
    handleError(reply, cause)
  } else if (code === 'HP_ERR_REQUEST_ABORTED' || code === 'HP_ERR_REQUEST_TIMEOUT') {
    handleError(reply, createError(code))
  } else if (code === 'HP_ERR_BODY_CONSUMED') {
    // a middleware read the stream to its end and left no body: the route
    // runs without one, as in Express
    validationStage(reply)
  } else if (code === 'HP_ERR_BAD_REQUEST') {
    // broken chunked framing; the engine closes the connection after this
    handleError(reply, createError(code, err.message))
  } else {
    handleError(reply, err)
  }
}

/**
 * After preParsing hooks: reads the (possibly replaced) body stream.
 * @param {Reply} reply
 * @param {import('node:stream').Readable} stream
 */
function readParsedStream (reply, stream) {
  const parser = /** @type {import('./parsers/table.js').Parser} */ (reply._parser)
  const raw = reply.request._incoming
  const asItCame = stream === reply.request.raw
  // the hooks left req.raw (the first hook's payload) as it came: the
  // engine's body stream, which req.raw reads from, is read, with the
  // engine's limits and timeouts
  if (stream === reply.request.raw && !stream.readableDidRead) stream = raw.bodyStream()
  if (!raw.hasBody && stream === raw.bodyStream()) {
    runParser(reply, EMPTY)
    return
  }
  if (stream.readableDidRead) {
    // A preParsing hook read the body itself (multer through req.raw, the
    // same stream). Read whole: the route runs without a parsed body, as
    // after a body-parsing middleware. Read in part: parsing the rest
    // would parse a truncated body.
    if (stream.readableEnded) validationStage(reply)
    else handleError(reply, createError('HP_ERR_BODY_CONSUMED'))
    return
  }
  const limit = bodyLimit(reply.route, parser)
  reply._readingBody = true
  const context = new BodyContext(reply, limit)
  readStream(stream, limit, heldLength(reply, stream, asItCame), (err, body) => { context.read(err, body) })
}

/**
 * The Content-Length a body read from `stream` is held against (NaN: none):
 * the client's bytes are known for the body as it came, and for a stream a
 * preParsing hook made when it counts them in `receivedEncodedLength` (a
 * decompressor's, Fastify's name). A new stream without that count is held
 * by its own length only under errorFormat 'fastify', as Fastify holds it
 * (a decompressed body longer than the compressed one is refused there).
 * @param {Reply} reply
 * @param {import('node:stream').Readable & { receivedEncodedLength?: number }} stream
 * @param {boolean} asItCame  the hooks handed back req.raw
 */
function heldLength (reply, stream, asItCame) {
  if (!asItCame && stream.receivedEncodedLength === undefined && !reply.route.app.fastifyErrors) return NaN
  return Number(reply.request.headers['content-length'])
}

/**
 * @param {Reply} reply
 * @param {Buffer} buf
 */
function runParser (reply, buf) {
  const parser = /** @type {import('./parsers/table.js').Parser} */ (reply._parser)
  parseWith(reply, parser.parseAs === 'string' ? buf.toString('utf8') : buf)
}

/**
 * @param {Reply} reply
 * @param {import('node:stream').Readable} stream
 */
function runStreamParser (reply, stream) {
  parseWith(reply, stream)
}

/**
 * @param {Reply} reply
 * @param {unknown} payload  the body as the parser takes it
 */
function parseWith (reply, payload) {
  const parser = /** @type {import('./parsers/table.js').Parser} */ (reply._parser)
  const req = reply.request
  let r
  try {
    r = parser.fn(req, payload)
  } catch (err) {
    parseFailed(reply, err)
    return
  }
  if (isThenable(r)) {
    park(reply, r, parsed, parseRejected)
    return
  }
  req.body = r
  validationStage(reply)
}

/**
 * @param {Reply} reply
 * @param {unknown} body
 */
function parsed (reply, body) {
  reply.request.body = body
  validationStage(reply)
}

/**
 * The parser failed. With Fastify's answers the connection closes after
 * the answer, as Fastify closes it after any parser error ("the client may
 * send more data"); hotpath's own keeps it, the body having been read whole.
 * @param {Reply} reply
 * @param {unknown} err
 */
function parseFailed (reply, err) {
  if (reply.route.app.fastifyErrors) {
    reply.header('connection', 'close')
    handleError(reply, err)
  } else {
    handleError(reply, parserError(err))
  }
}

/**
 * A parser's promise rejected: as a throw, unless the reply was sent meanwhile.
 * @param {Reply} reply
 * @param {unknown} err
 */
function parseRejected (reply, err) {
  if (reply.sent) stageFailed(reply, err)
  else if (reply.route.app.fastifyErrors) parseFailed(reply, err)
  else handleError(reply, err)
}

/**
 * A parser error without a status is the client's fault: a 400 that keeps
 * the parser's message out of the response. (With errorFormat 'fastify' a
 * parser's error is handled as it is, a 500 unless it has a status, as a
 * rejected parser's is.)
 * @param {unknown} err
 */
function parserError (err) {
  if (err !== null && typeof err === 'object' && typeof (/** @type {any} */ (err)).statusCode === 'number') return err
  const e = createError('HP_ERR_INVALID_BODY')
  e.cause = err
  return e
}
