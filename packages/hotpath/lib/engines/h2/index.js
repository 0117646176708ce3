// The h2 engine: HTTP/2 on node:http2, through its compat API
// (Http2ServerRequest / Http2ServerResponse, subclassed in ./request.js and
// ./response.js as the RawRequest and ResponseHandle of ../engine.js).
// Cleartext (h2c, prior knowledge) without `https`; with it, TLS with ALPN
// "h2", and, when `https.allowHTTP1`, "http/1.1" on the same port served by
// the wire engine rather than node's HTTP/1 fallback.
import net from 'node:net'
import { loadModule } from '../../require.js'
import { listenServer } from '../engine.js'
import { isValidHost } from '../host.js'
import { errorAnswer, closingAnswer } from '../../reply/error-body.js'
import { publishRejected } from '../../lifecycle/tracing.js'
import { createWireEngine } from '../wire/index.js'
import { continueIntoCore, listenersAreOnly } from '../server-emit.js'
import { defineH2Request } from './compat-request.js'
import { defineH2Response } from './compat-response.js'
import { H2StreamRequest } from './request.js'
import { H2StreamResponse } from './response.js'


/** @type {{ http2: typeof import('node:http2'), Request: any, Response: any } | null} */
let loaded = null

/** node:http2 and the classes, on the first h2 engine: it loads node:tls, which an HTTP/1.1 app never loads */
function load () {
  if (loaded === null) {
    const http2 = /** @type {typeof import('node:http2')} */ (loadModule('node:http2'))
    loaded = { http2, Request: defineH2Request(http2), Response: defineH2Response(http2) }
  }
  return loaded
}

/**
 * Streams one session may have open at once. node:http2 sets no bound
 * (2^32-1), so one connection could hold any number of handlers at work;
 * 100 is the floor RFC 9113 §6.5.2 recommends a peer allow.
 */
export const DEFAULT_MAX_CONCURRENT_STREAMS = 100

/** ms a session may stay idle: Fastify's http2SessionTimeout */
export const DEFAULT_SESSION_TIMEOUT = 72_000

/**
 * Why the authority of a request is not acceptable, or null. HTTP/2 names
 * it in :authority (RFC 9113 §8.3.1); a Host field, when also sent, must
 * name the same.
 * @param {Record<string, any>} headers
 * @param {boolean} requireHost
 * @returns {string | null}
 */
function invalidAuthority (headers, requireHost) {
  const authority = headers[':authority']
  const host = headers.host
  if (authority !== undefined && host !== undefined && authority !== host) return 'Host header differs from :authority'
  const value = authority ?? host
  if (value === undefined || value === '') return requireHost ? 'Missing Host header' : null
  return isValidHost(value) ? null : 'Invalid Host header'
}

/**
 * The size of a header list as RFC 9113 §6.5.2 counts it (each field's
 * name and value octets plus 32). node:http2 advertises
 * SETTINGS_MAX_HEADER_LIST_SIZE but takes a longer list, so it is counted
 * here.
 * @param {string[]} raw  rawHeaders: name, value, name, value…
 */
function headerListSize (raw) {
  let size = 0
  for (let i = 0; i < raw.length; i += 2) size += raw[i].length + raw[i + 1].length + 32
  return size
}

/**
 * Answers a stream no handler may see with the JSON body of its code.
 * @param {H2StreamResponse} res
 * @param {{ status: number, code: string, body: string, type?: string }} answer
 */
function refuse (res, answer) {
  const req = res.req
  publishRejected(answer.status, answer.code, req.method, req.url, req.socket.remoteAddress)
  res.respond(answer.status, { 'content-type': answer.type ?? 'application/json; charset=utf-8' }, answer.body)
}

/**
 * What node:http2's compat layer does before its 'request' event, for the
 * two requests it does not hand on (its onServerStream): CONNECT goes to
 * the server's 'connect' listeners or gets 405; an Expect other than
 * 100-continue goes to 'checkExpectation' or gets 417; 100-continue goes
 * to 'checkContinue', else gets its interim 100 and is served. Returns
 * true when the request was handed elsewhere or answered.
 * @param {any} server
 * @param {H2StreamRequest} req
 * @param {H2StreamResponse} res
 */
function handledLikeCompat (server, req, res) {
  if (req.method === 'CONNECT') {
    if (server.listenerCount('connect') > 0) server.emit('connect', req.compatRequest(), res.compatResponse())
    else res.respond(405, {}, null)
    return true
  }
  const expect = req.headers.expect
  if (expect === undefined) return false
  if (expect === '100-continue') {
    if (server.listenerCount('checkContinue') > 0) {
      server.emit('checkContinue', req.compatRequest(), res.compatResponse())
      return true
    }
    req.stream.additionalHeaders({ ':status': 100 })
    return false
  }
  if (server.listenerCount('checkExpectation') > 0) server.emit('checkExpectation', req.compatRequest(), res.compatResponse())
  else res.respond(417, {}, null)
  return true
}

/** The highest stream id (RFC 9113 §5.1.1) */
const LAST_STREAM_ID = 2 ** 31 - 1

/** ms a shutdown waits for the PING's answer before it closes the session anyway */
const ROUND_TRIP_MS = 1000

/** sessions whose client has sent its own GOAWAY (it will open no stream) */
const peerLeaving = new WeakSet()

/**
 * A graceful shutdown as RFC 9113 §6.8 describes it: a first GOAWAY with
 * the highest stream id, so a request the client sent before it read the
 * GOAWAY is still taken (and answered 503, or served under drain); after a
 * round trip (a PING's answer, at most ROUND_TRIP_MS), the session closes
 * with the real last id and ends once its streams are done. A client that
 * has sent its own GOAWAY opens no stream: its session closes at once.
 *
 * node:http2 reads nothing more from a session that has sent a GOAWAY and
 * has no open stream (nghttp2 wants no read then): neither a request in
 * flight nor the PING's answer, nor the end of a client that has gone. So
 * a session with no open stream closes at once, with the real last id
 * (what the client sent past it is safe to retry, §8.7), and one with open
 * streams closes when its last one does, if the PING's answer has not
 * come first: waiting longer would take nothing more.
 *
 * Under drain, a request in flight is served rather than refused, as an
 * idle HTTP/1.1 connection is left to its client until its next request:
 * a session with no open stream gets no GOAWAY until a request comes, and
 * then while that stream is open, so node goes on reading what the client
 * sent until it read the GOAWAY (a client that waits for each answer
 * before its next request has then sent nothing more); one that sends
 * nothing closes after ROUND_TRIP_MS, or when its client closes it.
 * @param {import('node:http2').ServerHttp2Session} session
 * @param {boolean} drain
 */
function shutDown (session, drain) {
  if (session.closed || session.destroyed) return
  if (peerLeaving.has(session)) return session.close()
  const open = openStreams(session)
  const idle = open !== null && open.size === 0
  if (idle && !drain) return session.close()
  const close = () => {
    clearTimeout(timer)
    if (!session.closed && !session.destroyed) session.close()
  }
  // (not unref'd: when the client's end of the session is gone, this
  // timer is what is left for close() to wait on, and an emptied event
  // loop would leave its promise pending for good; at most ROUND_TRIP_MS)
  const timer = setTimeout(close, ROUND_TRIP_MS)
  let goawaySent = false
  const goaway = () => {
    goawaySent = true
    try {
      session.goaway(0, LAST_STREAM_ID) // NO_ERROR (RFC 9113 §7)
      // its answer: the client has read the GOAWAY, and node what it sent before
      if (session.ping(close)) return
    } catch {}
    close()
  }
  if (open !== null) {
    // node deletes a stream from its table before the stream's 'close'
    const closedOne = () => { if (goawaySent && open.size === 0) close() }
    for (const stream of open.values()) stream.once('close', closedOne)
    session.on('stream', (/** @type {import('node:http2').ServerHttp2Stream} */ stream) => {
      stream.once('close', closedOne)
      if (!goawaySent) goaway()
    })
  }
  // a session that ends meanwhile (its client closed it) leaves nothing to wait for
  session.once('close', () => clearTimeout(timer))
  if (!idle) goaway()
}

/** node:http2's internal state of a session, found by its description on the first session (Node 20 to 26 keep its open streams there) */
let kSessionState = /** @type {symbol | null | undefined} */ (undefined)

/**
 * The session's open streams (id → stream), as node:http2 keeps them, or
 * null on a Node line that keeps them elsewhere (the shutdown then waits
 * for the PING's answer or ROUND_TRIP_MS).
 * @param {import('node:http2').ServerHttp2Session} session
 * @returns {Map<number, import('node:http2').ServerHttp2Stream> | null}
 */
function openStreams (session) {
  if (kSessionState === undefined) kSessionState = Object.getOwnPropertySymbols(session).find((s) => s.description === 'state') ?? null
  const streams = kSessionState === null ? undefined : /** @type {any} */ (session)[kSessionState]?.streams
  // node's own SafeMap, not an instance of this realm's Map
  return streams !== undefined && typeof streams.size === 'number' && typeof streams.values === 'function' ? streams : null
}

/** @this {import('node:http2').Http2Session} */
function closeIdleSession () {
  this.close()
}

/**
 * @param {import('../engine.js').EngineOptions} options
 * @returns {import('../engine.js').Engine}
 */
export function createH2Engine (options) {
  const { http2, Request: H2Request, Response: H2Response } = load()
  const secure = options.https != null
  /** @type {Record<string, any>} node:http2's server options the app gave: `https`, or `http` for h2c */
  const given = (secure ? options.https : options.http2ServerOptions) ?? {}
  const settings = {
    maxConcurrentStreams: DEFAULT_MAX_CONCURRENT_STREAMS,
    // the header-list bound (RFC 9113 §6.5.2) is the app's maxHeaderSize
    maxHeaderListSize: options.maxHeaderSize,
    ...given.settings
  }
  /** @type {any} the subclasses take node's constructor arguments, which @types/node leaves out */
  const serverOptions = { ...given, settings, Http2ServerRequest: H2Request, Http2ServerResponse: H2Response }
  const allowHTTP1 = secure && given.allowHTTP1 === true
  /** @type {any} */
  const server = secure ? http2.createSecureServer(serverOptions) : http2.createServer(serverOptions)
  // connectionTimeout: a session's socket idle that long is closed, as
  // Fastify sets it on its HTTP/2 server (server.timeout reads it)
  if (options.connectionTimeout !== undefined && options.connectionTimeout > 0) server.setTimeout(options.connectionTimeout)
  /** the core's entry point, once ready() gives it (setHandler) */
  const core = { handler: /** @type {import('../engine.js').RequestHandler | null} */ (null) }
  /**
   * The app, as app.server's one 'request' listener, from the start (as on
   * Fastify's server): code that attaches to the server saves it, removes
   * it and calls it from its own listener, with node:http2's compat
   * objects (or wire's, for HTTP/1.1 on the TLS port), which go on into
   * the core. While it is the only one, the engine's 'stream' listener
   * calls the core itself and builds no compat object (./request.js).
   */
  const requestListener = continueIntoCore(core)
  // node:http2 starts emitting 'request' for every stream (its compat
  // layer's 'stream' listener) once a 'request' listener is added; the
  // engine's 'stream' listener emits it instead, only when the listeners
  // are not the app's alone
  const streamListeners = server.listeners('stream')
  server.on('request', requestListener)
  for (const listener of server.listeners('stream')) {
    if (!streamListeners.includes(listener)) server.removeListener('stream', listener)
  }
  /**
   * HTTP/1.1 on the TLS port (ALPN "http/1.1", or no ALPN): the wire
   * engine serves it, on the TLS socket node's server accepted. node:http2
   * listens for 'secureConnection' with its own connection listener; it
   * stays the listener for "h2", and the others go to wire.
   * @type {ReturnType<typeof createWireEngine> | null}
   */
  let wire = null
  if (allowHTTP1) {
    wire = createWireEngine({ ...options, https: undefined })
    // an HTTP/1.1 upgrade (a WebSocket) on the TLS port goes to app.server's
    // 'upgrade' listeners, and its requests to its 'request' listeners
    // while they are not the app's alone
    wire.appServer = server
    wire.requestListener = requestListener
    const h2Listener = /** @type {(socket: any) => void} */ (server.listeners('secureConnection')[0])
    server.removeListener('secureConnection', h2Listener)
    const w = wire
    server.on('secureConnection', (/** @type {import('node:tls').TLSSocket} */ socket) => {
      if (socket.alpnProtocol === 'h2') h2Listener.call(server, socket)
      else w.accept(socket, true)
    })
  }
  const sessionTimeout = options.http2SessionTimeout ?? DEFAULT_SESSION_TIMEOUT
  /** @type {Set<import('node:http2').ServerHttp2Session>} */
  const sessions = new Set()
  const state = { closing: false, closeBusy: false }
  server.on('session', (/** @type {import('node:http2').ServerHttp2Session} */ session) => {
    sessions.add(session)
    session.once('close', () => sessions.delete(session))
    session.once('goaway', () => peerLeaving.add(session))
    // an idle session is closed (GOAWAY), as Fastify's http2SessionTimeout does
    if (sessionTimeout > 0) session.setTimeout(sessionTimeout, closeIdleSession)
    if (state.closing) shutDown(session, options.drain === true)
  })
  // a peer's protocol error ends its session; it must not end the process
  server.on('sessionError', (/** @type {Error} */ err) => { if (options.onClientError) options.onClientError(err) })
  if (secure) server.on('tlsClientError', (/** @type {Error} */ err) => { if (options.onClientError) options.onClientError(err) })
  const requireHost = options.requireHostHeader ?? true
  const maxHeaderListSize = settings.maxHeaderListSize ?? Infinity
  const return503 = options.drain === true ? false : options.return503OnClosing ?? true

  /** @type {import('./request.js').H2Kit} */
  const kit = { Request: H2Request, Response: H2Response, state }

  return {
    server,
    setHandler (handler) {
      core.handler = handler
      if (wire !== null) wire.setHandler(handler)
      // The stream itself, not node's 'request' event: no compat object is
      // built unless something asks for one (./request.js)
      server.on('stream', (/** @type {import('node:http2').ServerHttp2Stream} */ stream, /** @type {import('node:http2').IncomingHttpHeaders} */ headers, /** @type {number} */ _flags, /** @type {string[]} */ rawHeaders) => {
        const req = new H2StreamRequest(stream, headers, rawHeaders, kit)
        const res = new H2StreamResponse(stream, req)
        res.engineState = state
        if (headerListSize(rawHeaders) > maxHeaderListSize) return refuse(res, errorAnswer('HP_ERR_HEADERS_TOO_LARGE'))
        const invalid = invalidAuthority(headers, requireHost)
        if (invalid !== null) return refuse(res, errorAnswer('HP_ERR_BAD_REQUEST', invalid))
        if (state.closing && return503) {
          refuse(res, options.closingAnswer ?? closingAnswer(false))
          if (options.onClosingRefusal !== undefined) options.onClosingRefusal()
          return
        }
        if (headers.expect !== undefined || req.method === 'CONNECT') {
          if (handledLikeCompat(server, req, res)) return
        }
        // the listeners are not the app's alone (code attached to the
        // server wrapped it): they get the request, as node:http2's
        // objects, as its compat layer would give them
        if (listenersAreOnly(server, requestListener)) handler(/** @type {any} */ (req), /** @type {any} */ (res))
        else server.emit('request', req.compatRequest(), res.compatResponse())
      })
    },
    listen (opts) {
      return listenServer(server, opts)
    },
    close () {
      state.closing = true
      return new Promise((resolve) => {
        // Every session gets a GOAWAY now: its open streams finish, no new
        // one starts, and it ends when the last is done, never waiting out
        // the idle timeout. What is still open after closeGraceTimeout is
        // destroyed.
        const destroyAll = () => { for (const session of sessions) session.destroy() }
        const grace = setTimeout(destroyAll, options.closeGraceTimeout ?? 10_000)
        grace.unref()
        const done = () => {
          clearTimeout(grace)
          resolve()
        }
        // wire closes its HTTP/1.1 connections (and destroys those still
        // busy after the grace period); they are the TLS server's
        // connections too, so server.close() below waits for them
        if (wire !== null) wire.close()
        if (options.forceCloseConnections === true) destroyAll()
        else for (const session of sessions) shutDown(session, options.drain === true)
        // the listener alone: node:http2's own close() (Node 24 and
        // later) also closes every session at once, with its real last
        // stream id, which would undo the shutdown above (a busy session's
        // round trip, drain's wait for an idle one's next request); the
        // same on every Node line
        if (server.listening) net.Server.prototype.close.call(server, done)
        else done()
      })
    }
  }
}
