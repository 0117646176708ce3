// The h2 engine's RawRequest (../engine.js): node:http2's compat
// Http2ServerRequest, subclassed (the server's Http2ServerRequest option)
// with the three body members the core calls. It stays node's object, so
// `request.raw` and middleware read what they read on Fastify's HTTP/2.
import { readBody } from '../node/request.js'
import { installExpressRequest } from '../express-helpers.js'
import { acceptAssignments } from '../assignable.js'

/**
 * The class, made on the first h2 engine: node:http2 loads node:tls, which
 * an app that serves no HTTP/2 never loads.
 * @param {typeof import('node:http2')} http2
 */
export function defineH2Request (http2) {
  class H2Request extends http2.Http2ServerRequest {
    /**
     * @param {import('node:http2').ServerHttp2Stream} stream
     * @param {import('node:http2').IncomingHttpHeaders} headers
     * @param {any} options
     * @param {string[]} rawHeaders
     */
    constructor (stream, headers, options, rawHeaders) {
      super(stream, headers, options, rawHeaders)
      /** @type {any} the body being buffered by readBody (node engine's reader) */
      this.bodyReader = null
      /** @type {import('../compat/guarded-emit.js').Owner | undefined} hotpath's request, once req.raw or middleware asked */
      this._hotpath = undefined
    }

    /**
     * A body follows unless the HEADERS frame ended the stream (RFC 9113
     * §8.1: an HTTP/2 request has no Content-Length or chunked to say so).
     */
    get hasBody () {
      if (this.stream.endAfterHeaders) return false
      return this.headers['content-length'] !== '0'
    }

    /**
     * The node engine's reader: it uses only the stream API the compat
     * request shares with IncomingMessage ('data', 'end', 'close', pause()).
     * @param {number} limit
     * @param {(err: any, body?: Buffer) => void} done
     */
    readBody (limit, done) {
      readBody.call(/** @type {any} */ (this), limit, done)
    }

    /** The compat request is the body stream. */
    bodyStream () {
      return this
    }
  }

  installExpressRequest(H2Request.prototype)
  acceptAssignments(H2Request.prototype, http2.Http2ServerRequest.prototype)
  return H2Request
}

/** @typedef {InstanceType<ReturnType<typeof defineH2Request>>} H2Request */
