// The narrow interface between hotpath's core and an HTTP engine.
//
// The core never imports node:http. It talks to an engine through the
// functions below, passing the engine's own per-request objects back to it
// (`raw` for the request, `res` for the response handle). Two engines
// implement it: `node` (node:http, lib/engines/node.js) and `wire` (hotpath's
// own HTTP/1.1 engine on node:net, lib/engines/wire/). Every function is a
// method of one long-lived engine object, so call sites stay monomorphic and
// nothing is allocated per request to reach the engine.
//
// This file holds types only; it is imported for JSDoc.

/**
 * The request as an engine hands it to the core. node: an IncomingMessage.
 * wire: a WireRequest. Only these fields are read by the core directly.
 * @typedef {object} RawRequest
 * @property {string} method             upper-case token, as received
 * @property {string} url                the request-target, as received (origin-form: path + query)
 * @property {Record<string, string | string[] | undefined>} headers
 *   lower-case names; duplicates joined with ', ' except set-cookie (array),
 *   exactly node:http's IncomingMessage.headers semantics
 * @property {string} httpVersion        '1.1' or '1.0'
 * @property {boolean} [complete]        false while the body is still arriving (inject: always complete)
 */

/**
 * The response handle. node: a ServerResponse. wire: a WireResponse.
 * The core never writes to it except through Engine methods.
 * @typedef {object} RawResponse
 */

/**
 * Headers as the core hands them to an engine: lower-case names, values are
 * strings, numbers or string arrays (repeated header lines, e.g. set-cookie).
 * @typedef {Record<string, string | number | string[]>} OutgoingHeaders
 */

/**
 * @typedef {object} EngineOptions
 * @property {import('node:tls').SecureContextOptions & import('node:tls').TlsOptions} [https]
 * @property {number} headersTimeout     ms to receive the whole head; 408 past it
 * @property {number} requestTimeout     ms to receive the whole request (head + body); 408 past it
 * @property {number} keepAliveTimeout   ms an idle keep-alive socket is kept
 * @property {number} maxHeaderSize      bytes of request head; 431 past it
 * @property {number} [maxRequestsPerSocket] 0 = unlimited
 * @property {number} [closeGraceTimeout] ms close() waits for in-flight responses before it destroys their connections
 * @property {(err: Error, info?: object) => void} [onClientError] for logging only
 */

/**
 * @callback RequestHandler
 * @param {RawRequest} raw
 * @param {RawResponse} res
 * @returns {void}
 */

/**
 * @typedef {object} Engine
 * @property {'node' | 'wire'} name
 * @property {import('node:net').Server} server
 *   the listening server (app.server): http.Server / https.Server for node,
 *   net.Server / tls.Server for wire
 * @property {(handler: RequestHandler) => void} setHandler
 *   called once at ready(); the engine calls handler(raw, res) per request
 * @property {(handler: (raw: RawRequest, socket: import('node:stream').Duplex, head: Buffer) => void) => void} setUpgradeHandler
 *   requests with `Connection: upgrade` + `Upgrade` go here (WebSocket libraries take the socket)
 * @property {(opts: { port?: number, host?: string, backlog?: number }) => Promise<import('node:net').AddressInfo>} listen
 * @property {() => Promise<void>} close
 *   stop accepting; in-flight requests finish; idle keep-alive sockets close;
 *   a request that arrives on an open socket while closing gets
 *   503 + Connection: close (the core does that, see isClosing);
 *   connections still open after closeGraceTimeout ms are destroyed and the
 *   promise resolves
 * @property {(raw: RawRequest) => string | undefined} remoteAddress
 * @property {(raw: RawRequest) => boolean} encrypted  true over TLS
 * @property {(raw: RawRequest) => boolean} hasBody
 *   true when the request has a body: Content-Length > 0 or chunked
 * @property {(raw: RawRequest) => number} contentLength
 *   the declared Content-Length, or -1 when chunked / absent
 * @property {(raw: RawRequest, limit: number, done: (err: (Error & { statusCode?: number, code?: string }) | null, body?: Buffer) => void) => void} readBody
 *   buffers the whole body. Past `limit` bytes (declared or received) calls
 *   done with a 413 error (code HP_ERR_BODY_TOO_LARGE) at once and stops
 *   reading without buffering the rest. A client abort calls done with a
 *   400 error (code HP_ERR_REQUEST_ABORTED); broken chunked framing with a
 *   400 (HP_ERR_BAD_REQUEST, the parser's reason as message); a request
 *   timeout with a 408 (HP_ERR_REQUEST_TIMEOUT). done is called exactly once.
 *   The core answers from the `code` (its own message and status), so an
 *   engine's error needs only the right code.
 * @property {(raw: RawRequest) => import('node:stream').Readable} bodyStream
 *   the body as a Readable (for preParsing hooks and stream parsers); the
 *   core enforces the limit on what it reads from it
 * @property {(res: RawResponse, statusCode: number, headers: OutgoingHeaders, body: string | Buffer | null) => void} write
 *   writes the complete response in one write. The engine adds Date,
 *   Connection/Keep-Alive and Content-Length (from body) when absent; for
 *   HEAD requests and 204/304 it writes no body. The core passes
 *   `connection: close` when the connection must end after this response
 *   (e.g. a 413 whose body was left unread); the engine honours it. The
 *   engine may add to `headers` (it is built for this one response).
 * @property {(res: RawResponse, statusCode: number, headers: OutgoingHeaders, stream: import('node:stream').Readable, done: (err: Error | null) => void) => void} writeStream
 *   streams with backpressure (chunked unless Content-Length is set);
 *   destroys `stream` if the client goes away; done(err) once at the end
 * @property {(res: RawResponse) => boolean} headersSent
 * @property {(res: RawResponse, onFinish: (res: RawResponse, error: Error | null) => void) => void} onFinish
 *   onFinish(res, null) once the response is fully handed to the socket;
 *   onFinish(res, err) if the connection closed before that (client abort,
 *   timeout). Called exactly once; asked after the end, at once, the way
 *   the response ended. The callback is a module-level function:
 *   the core keeps its state on its own objects, not in a closure; to find
 *   them again it sets one symbol-keyed property on `res` before calling
 *   onFinish, so a RawResponse must be an extensible object.
 * @property {(res: RawResponse) => import('node:stream').Duplex} hijack
 *   hands the socket to user code; the engine stops managing this request
 * @property {(raw: RawRequest, res: RawResponse) => [any, any]} compat
 *   IncomingMessage/ServerResponse-like pair for connect middleware
 *   (app.use). node: the objects themselves. wire: a small compatibility
 *   object (docs/engines.md lists the subset).
 * @property {() => boolean} isClosing  true once close() has begun
 */

export {}
