// The interface between hotpath's core and an HTTP engine, on one page
// (docs/architecture.md, "Engines", says the same in prose).
//
// An engine turns a connection into requests and writes the answers. The
// core never imports node:http: it reaches an engine through three shapes.
//
//   Engine          the long-lived object: server, setHandler, listen, close
//   RawRequest      what the engine hands the core per request: the request
//                   line, the headers, the socket, and the body on demand
//   ResponseHandle  the one object the core answers through
//
// The engine calls the core through one entry point, the handler given to
// setHandler(), once per request: handler(raw, res). Everything the core
// does for that request goes through methods of `raw` and `res`, so a call
// site sees one class per engine and nothing is allocated to reach the
// engine. The core writes nothing onto the engine's objects: what it needs
// back (the reply, when a response ends) it gets as an argument.
//
// Four engines implement it: node (node:http, ./node/), wire (hotpath's own
// HTTP/1.1 on node:net, ./wire/), h2 (HTTP/2 on node:http2, ./h2/) and
// inject (in memory, ./inject/), and one
// contract suite runs them all (test/engines/contract.test.js).
//
// This file holds types only; it is imported for JSDoc.

/**
 * @typedef {object} Engine
 * @property {import('node:net').Server | null} server
 *   the listening server (app.server): http.Server / https.Server for node,
 *   net.Server / tls.Server for wire, null for inject
 * @property {(handler: RequestHandler) => void} setHandler
 *   the core's entry point, given once at ready(). A request with
 *   `Connection: upgrade` and `Upgrade` goes, as on node:http, to the
 *   server's 'upgrade' listeners as (raw, socket, head) when it has any
 *   (WebSocket libraries take the socket), else to `handler` like any
 *   other.
 * @property {(opts: ListenOptions) => Promise<import('node:net').AddressInfo | string>} listen
 * @property {() => Promise<void>} close
 *   stop accepting; in-flight requests finish; idle keep-alive sockets
 *   close; a request that arrives on an open socket while closing is
 *   answered by the engine itself, 503 + Connection: close
 *   (HP_ERR_SERVER_CLOSING); connections still open after closeGraceTimeout
 *   ms are destroyed and the promise resolves
 */

/**
 * @callback RequestHandler
 * @param {RawRequest} raw
 * @param {ResponseHandle} res
 * @returns {void}
 */

/**
 * The request as an engine hands it to the core. node: an IncomingMessage.
 * wire: a WireRequest. inject: an InjectRequest.
 * @typedef {object} RawRequest
 * @property {string} method             upper-case token, as received
 * @property {string} url                the request-target, as received (origin-form: path + query);
 *   the one rewriteUrl returned, when the app sets that option
 * @property {string} [originalUrl]      the request-target as received, set when the app has rewriteUrl
 * @property {Record<string, string | string[] | undefined>} headers
 *   lower-case names; duplicates joined with ', ' except set-cookie (array),
 *   exactly node:http's IncomingMessage.headers semantics
 * @property {string} httpVersion        '1.1' or '1.0'
 * @property {boolean} complete          false while the body is still arriving
 * @property {{ remoteAddress?: string, encrypted?: boolean }} socket
 *   the connection: the peer's address, and `encrypted` true over TLS
 * @property {boolean} hasBody
 *   the request has a body: Content-Length > 0 or chunked
 * @property {(limit: number, done: (err: (Error & { statusCode?: number, code?: string }) | null, body?: Buffer) => void) => void} readBody
 *   buffers the whole body. Past `limit` bytes (declared or received) calls
 *   done with a 413 error (code HP_ERR_BODY_TOO_LARGE) at once and stops
 *   reading without buffering the rest. A client abort calls done with a
 *   400 error (code HP_ERR_REQUEST_ABORTED); broken chunked framing with a
 *   400 (HP_ERR_BAD_REQUEST, the parser's reason as message); a request
 *   timeout with a 408 (HP_ERR_REQUEST_TIMEOUT). done is called exactly once.
 *   The core answers from the `code` (its own message and status), so an
 *   engine's error needs only the right code.
 * @property {() => import('node:stream').Readable} bodyStream
 *   the body as a Readable (for preParsing hooks, stream parsers and
 *   req.raw); the same stream on every call, as node:http's
 *   IncomingMessage is, so a hook that hands it on unchanged leaves the
 *   whole body to the reader after it. The core enforces the limit on
 *   what it reads from it
 * @property {unknown} [body]
 *   what a body-parsing middleware left (express.json() sets it): the core
 *   takes it instead of reading the body. A body a middleware drained
 *   without leaving one: readBody answers HP_ERR_BODY_CONSUMED (node: the
 *   IncomingMessage is readableEnded), and the route runs with no body.
 */

/**
 * Headers as the core hands them to an engine: lower-case names, values are
 * strings, numbers or string arrays (repeated header lines, e.g. set-cookie).
 * @typedef {Record<string, string | number | string[]>} OutgoingHeaders
 */

/**
 * The one object the core answers a request through. node: a ServerResponse.
 * wire: a WireResponse. inject: an InjectResponse.
 * @typedef {object} ResponseHandle
 * @property {boolean} headersSent  the status line has gone out
 * @property {(statusCode: number, headers: OutgoingHeaders, body: string | Buffer | null, length?: number) => void} respond
 *   writes the complete response in one write. The engine adds Date,
 *   Connection/Keep-Alive and Content-Length (from body) when absent;
 *   `length`, when the caller passes one (>= 0), is body's byte length,
 *   measured once by the core for its Content-Length, and the engine
 *   frames the body with it instead of measuring again; for
 *   HEAD requests and 204/304 it writes no body. The core passes
 *   `connection: close` when the connection must end after this response
 *   (e.g. a 413 whose body was left unread); the engine honours it. The
 *   engine may add to `headers` (it is built for this one response). A
 *   header the engine refuses (not a token, a CR/LF in a value) throws,
 *   and nothing is written.
 * @property {(statusCode: number, headers: OutgoingHeaders, stream: import('node:stream').Readable, done: (err: Error | null) => void, trailers?: TrailerSource | null) => void} respondStream
 *   streams with backpressure (chunked unless Content-Length is set, which
 *   the stream must then match); writes the head only once the stream has
 *   data, so done(err) with headersSent still false lets the core answer
 *   the error instead; destroys `stream` if the client goes away; done once.
 *   With `trailers` (the core then sets no Content-Length): chunked, and
 *   once the stream has ended the engine calls `trailers(send)` and ends
 *   the response with the fields handed to `send` as its trailer section
 *   (RFC 9112 §7.1.2; invalid ones are left out); done after that
 * @property {() => void} [flushHead]
 *   wire: after respondStream(), the head goes out at once rather than
 *   with the stream's first byte (the compat object's flushHeaders())
 * @property {<T>(listener: (arg: T, error: Error | null) => void, arg: T) => void} onEnd
 *   listener(arg, null) once the response is fully handed to the socket;
 *   listener(arg, err) if the connection closed before that (client abort,
 *   timeout; `connectionTimedOut()` when the connection's idle timeout,
 *   `connectionTimeout`, ended it: the route's onTimeout hooks run, as
 *   Fastify runs them on the socket's 'timeout'). Called exactly once; asked after the end, at once, the way
 *   the response ended. `arg` is the core's own object (the reply), so the
 *   listener is a module-level function and nothing is stored on `res`.
 * @property {(owner: import('./compat/guarded-emit.js').Owner) => any} compat
 *   node:http's ServerResponse for this response, with the IncomingMessage
 *   as its `req`: what `reply.raw`, `req.raw` and connect middleware get,
 *   asked for only by code that reads them. node: the ServerResponse
 *   itself. wire and inject: ./compat/request.js and ./compat/response.js, built on the first call: a
 *   Writable that answers through respond() (a body ended at once) or
 *   respondStream() (a body written in parts). `owner`, hotpath's request,
 *   gives Express's req.ip and friends and the log for what user code
 *   throws from an engine callback.
 */

/**
 * The trailer fields of a response, computed after its body
 * (../reply/trailers.js): the engine calls it once with the function that
 * takes them.
 * @typedef {(send: (fields: Record<string, string>) => void) => void} TrailerSource
 */

/**
 * @typedef {object} EngineOptions
 * @property {import('node:tls').SecureContextOptions & import('node:tls').TlsOptions} [https]
 * @property {number} headersTimeout     ms to receive the whole head; 408 past it
 * @property {number} requestTimeout     ms to receive the whole request (head + body); 408 past it
 * @property {number} keepAliveTimeout   ms an idle keep-alive socket is kept
 * @property {number} maxHeaderSize      bytes of request head; 431 past it
 * @property {number} [maxUrlLength]     wire: bytes of the request-target, 414 past it (0: only maxHeaderSize bounds it)
 * @property {number} [maxRequestsPerSocket] 0 = unlimited
 * @property {boolean} [requireHostHeader] false: an HTTP/1.1 request without Host is taken rather than
 *   answered 400 (node:http's option of that name; default true)
 * @property {number} [connectionsCheckingInterval] node: how often node:http checks its timeouts (wire checks
 *   them on its shared timer)
 * @property {boolean} [noDelay] sockets without Nagle's delay (node:http's option; default true)
 * @property {boolean} [keepAlive] TCP keep-alive probes on the sockets, after keepAliveInitialDelay ms
 *   (node:http's options; default off)
 * @property {number} [keepAliveInitialDelay]
 * @property {Record<string, unknown>} [nodeServerOptions] node: the rest of Fastify's `http` option, handed to
 *   http.createServer (joinDuplicateHeaders, insecureHTTPParser…)
 * @property {{ status: number, code: string, body: string, type: string }} [closingAnswer] what such a request
 *   is answered: hotpath's body, or Fastify's (errorFormat 'fastify'), with its Content-Type
 * @property {boolean} [return503OnClosing] false: a request that arrives once close() has begun is served,
 *   its response with Connection: close, rather than answered 503 (default true)
 * @property {(err: Error, socket: import('node:net').Socket) => void} [clientErrorHandler] answers a request the
 *   engine refuses (malformed, too large a head, too slow) instead of the engine's own answer: it writes to the
 *   socket and ends or destroys it (Fastify's option; node:http's 'clientError' event)
 * @property {number} [connectionTimeout] ms a socket may stay inactive before it is destroyed (node:http's
 *   server.timeout; 0 = none)
 * @property {number} [closeGraceTimeout] ms close() waits for in-flight responses before it destroys their connections
 * @property {boolean} [drain] close() drains (the `drain` option): it stops accepting, serves every request
 *   that still arrives on an open connection (never 503), each answer with Connection: close, and closes
 *   no idle connection before its client does or its keep-alive timeout ends (closing one could reset a
 *   request on its way); closeGraceTimeout still bounds the wait. return503OnClosing is then false
 * @property {boolean | 'idle'} [forceCloseConnections]
 *   what close() does to open connections. false (the default): an idle one
 *   that answered within CLOSE_IDLE_MS stays open that long, then closes;
 *   'idle': every idle one closes at once, as node:http's server.close() and
 *   Fastify do; true: every connection, busy or not, is destroyed at once
 * @property {Record<string, any>} [http2ServerOptions] h2 without TLS: node:http2's createServer options (the
 *   app's `http` option, as Fastify hands it on), `settings` among them
 * @property {number} [http2SessionTimeout] h2: ms an idle HTTP/2 session is kept before its GOAWAY (0 = none)
 * @property {(err: Error, info?: object) => void} [onClientError] for logging only
 * @property {() => void} [onClosingRefusal] called when the engine answers 503 a request that arrived once
 *   close() had begun (return503OnClosing), for logging only
 */

export {}

/**
 * What an engine's listen() takes: node:net's server.listen() options, as
 * the app validated them (../app/listen-options.js).
 * @typedef {object} ListenOptions
 * @property {number | string} [port]
 * @property {string} [host]
 * @property {string} [path]        a Unix socket or Windows pipe
 * @property {number} [fd]          a listening socket already open, inherited from a parent
 * @property {number} [backlog]
 * @property {boolean} [exclusive]  in a cluster worker: a handle of its own, not one shared through the primary
 * @property {boolean} [ipv6Only]   with host '::': IPv6 only, not dual-stack
 * @property {boolean} [readableAll] a Unix socket any user may read
 * @property {boolean} [writableAll] a Unix socket any user may write
 */

/**
 * What onEnd reports when the connection's idle timeout (`connectionTimeout`,
 * node:http's `server.timeout`) ended it before the response was written.
 */
export function connectionTimedOut () {
  return Object.assign(new Error('Connection timed out before the response was sent'), { code: 'ETIMEDOUT' })
}

/**
 * node:net's listen options from the app's. As in node:net (and Fastify,
 * which hands them on), an `fd` comes first, then a `port`, then a `path`:
 * a path is ignored when a port is given. A port left out is 0 (a free
 * one), and the host 'localhost' when none is given, as Fastify listens: a
 * server is not reachable from other machines by default.
 * @param {ListenOptions} opts
 * @returns {import('node:net').ListenOptions & { fd?: number }}
 */
export function listenArgs (opts) {
  const backlog = opts.backlog == null ? undefined : Number(opts.backlog)
  const exclusive = opts.exclusive ?? undefined
  if (opts.fd != null) return { fd: opts.fd, backlog }
  if (opts.port == null && opts.path != null) {
    return { path: opts.path, backlog, exclusive, readableAll: opts.readableAll ?? undefined, writableAll: opts.writableAll ?? undefined }
  }
  return { port: Number(opts.port ?? 0), host: opts.host ?? 'localhost', backlog, exclusive, ipv6Only: opts.ipv6Only ?? undefined }
}

/**
 * Listens `server` (a node:net server or one made like it) at the app's
 * listen options; resolves with its address, rejects with its error. A
 * Unix socket taken by `fd` has no address node:net can read (only a TCP
 * socket has getsockname there): it is `fd:<n>` then.
 * @param {any} server
 * @param {ListenOptions} opts
 * @returns {Promise<import('node:net').AddressInfo | string>}
 */
export function listenServer (server, opts) {
  return new Promise((resolve, reject) => {
    const onError = (/** @type {Error} */ err) => reject(err)
    server.once('error', onError)
    try {
      server.listen(listenArgs(opts), () => {
        server.removeListener('error', onError)
        resolve(server.address() ?? (opts.fd != null ? `fd:${opts.fd}` : null))
      })
    } catch (err) {
      // node:net's own refusal of an argument (ERR_SOCKET_BAD_PORT), as Fastify passes it on
      server.removeListener('error', onError)
      reject(err)
    }
  })
}
