// The node engine's RawRequest (../engine.js): node:http's IncomingMessage,
// subclassed (http.createServer's IncomingMessage option) to add the body
// members the core calls. It stays a real IncomingMessage. The members are
// own properties (one shared function each, set in the constructor): code
// that swaps the object's prototype for another descendant of node's
// (Express's app.handle does, for every request it handles) leaves them
// in place.
import http from '../../node-http.js'
import { createError } from '../../errors.js'
import { installExpressRequest } from '../express-helpers.js'
import { acceptAssignments } from '../assignable.js'

export class NodeRequest extends http.IncomingMessage {
  /** @param {import('node:net').Socket} socket */
  constructor (socket) {
    super(socket)
    /** @type {BodyReader | null} the body being buffered by readBody */
    this.bodyReader = null
    /** @type {import('../compat/guarded-emit.js').Owner | undefined} hotpath's request, once req.raw or middleware asked (../express-helpers.js) */
    this._hotpath = undefined
    /** a body follows: set when the engine hands the request over (bodyFollows), node having parsed the head by then */
    this.hasBody = false
    this.readBody = readBody
    this.bodyStream = bodyStream
  }
}

/**
 * A body follows the head: Content-Length > 0 or chunked.
 * @param {Record<string, string | string[] | undefined>} headers
 */
export function bodyFollows (headers) {
  const cl = headers['content-length']
  if (cl !== undefined) return cl !== '0'
  return headers['transfer-encoding'] !== undefined
}

/**
 * @this {NodeRequest}
 * @param {number} limit
 * @param {(err: any, body?: Buffer) => void} done
 */
export function readBody (limit, done) {
  const cl = this.headers['content-length']
  // node:http has already rejected non-numeric and conflicting lengths.
  if (typeof cl === 'string' && Number(cl) > limit) {
    stopReading(this)
    done(createError('HP_ERR_BODY_TOO_LARGE', limit))
    return
  }
  this.bodyReader = new BodyReader(this, limit, done)
}

/**
 * The IncomingMessage is the body stream.
 * @this {NodeRequest}
 */
function bodyStream () {
  return this
}

/**
 * Stops reading an over-limit body. The core answers 413 with
 * Connection: close, so node:http ends the socket after the response and
 * the rest of the body is never read into memory.
 * @param {import('node:http').IncomingMessage} req
 */
function stopReading (req) {
  req.pause()
}

export function abortError () {
  return createError('HP_ERR_REQUEST_ABORTED')
}

/**
 * Buffers a body up to a limit. The listeners are module-level functions
 * (EventEmitter calls them with `this` = the request) that find the reader
 * on the request: no closure or bound function per request.
 */
class BodyReader {
  /**
   * @param {NodeRequest} req
   * @param {number} limit
   * @param {(err: any, body?: Buffer) => void} done
   */
  constructor (req, limit, done) {
    this.req = req
    this.limit = limit
    this.done = done
    /** @type {Buffer[]} */
    this.chunks = []
    this.received = 0
    this.finished = false
    req.on('data', readerData)
    req.on('end', readerEnd)
    req.on('close', readerClose)
    req.on('error', readerError)
  }

  /** @param {Buffer} chunk */
  onData (chunk) {
    if (this.finished) return
    this.received += chunk.length
    if (this.received > this.limit) {
      this.chunks = []
      this.finish(createError('HP_ERR_BODY_TOO_LARGE', this.limit))
      this.req.removeListener('data', readerData)
      stopReading(this.req)
      return
    }
    this.chunks.push(chunk)
  }

  onEnd () {
    if (this.finished) return
    const chunks = this.chunks
    this.finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.received))
  }

  onClose () {
    if (!this.finished) this.finish(abortError())
  }

  /** @param {Error} err */
  onError (err) {
    if (!this.finished) this.finish(this.req.destroyed ? abortError() : err)
  }

  /**
   * @param {any} err
   * @param {Buffer} [body]
   */
  finish (err, body) {
    this.finished = true
    this.req.removeListener('end', readerEnd)
    this.req.removeListener('close', readerClose)
    this.done(err, body)
  }
}

/** @this {NodeRequest} @param {Buffer} chunk */
function readerData (chunk) { /** @type {BodyReader} */ (this.bodyReader).onData(chunk) }
/** @this {NodeRequest} */
function readerEnd () { /** @type {BodyReader} */ (this.bodyReader).onEnd() }
/** @this {NodeRequest} */
function readerClose () { /** @type {BodyReader} */ (this.bodyReader).onClose() }
/** @this {NodeRequest} @param {Error} err */
function readerError (err) { /** @type {BodyReader} */ (this.bodyReader).onError(err) }

installExpressRequest(NodeRequest.prototype)
acceptAssignments(NodeRequest.prototype, http.IncomingMessage.prototype)
