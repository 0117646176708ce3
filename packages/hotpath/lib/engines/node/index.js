// The node:http engine: node:http parses and writes; its IncomingMessage and
// ServerResponse, subclassed in ./request.js and ./response.js, are the
// RawRequest and ResponseHandle of ../engine.js. This file creates the
// server, answers what no handler may see (a malformed request, a bad Host,
// a request while closing) with the JSON bodies of ../../reply/error-body.js,
// and closes gracefully.
import http from '../../node-http.js'
import { isValidHost } from '../host.js'
import { loadModule } from '../../require.js'
import { listenServer } from '../engine.js'
import { closeListener } from '../close-listener.js'
import { errorAnswer, closingAnswer } from '../../reply/error-body.js'
import { NodeRequest, bodyFollows } from './request.js'
import { NodeResponse, timedOut } from './response.js'
import { publishRejected } from '../../lifecycle/tracing.js'
import { continueIntoCore, notRoutedAgain } from '../server-emit.js'

/**
 * Why the Host of a request is not acceptable, or null (RFC 9112 §3.2, the
 * rule of ../host.js that the wire engine applies too). node:http checks
 * only that HTTP/1.1 has one (requireHostHeader, answered with an empty
 * body, so turned off here); any value passes llhttp. No Host or an empty
 * one means no authority (RFC 9112 §3.3): a 400 on HTTP/1.1, allowed on
 * HTTP/1.0.
 * @param {import('node:http').IncomingMessage} req
 * @param {boolean} requireHost  false: no Host (or an empty one) is taken on HTTP/1.1 too
 * @returns {string | null}
 */
function invalidHost (req, requireHost) {
  // node:http keeps the first of several Host lines; RFC 9112 §3.2 wants a
  // 400 for more than one (one length compare per header line)
  const raw = req.rawHeaders
  let hosts = 0
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 4 && raw[i].toLowerCase() === 'host' && ++hosts > 1) return 'Duplicate Host header'
  }
  const host = req.headers.host
  if (host === undefined) {
    if (!requireHost || req.httpVersionMinor !== 1 || req.httpVersionMajor !== 1) return null
    return 'Missing Host header'
  }
  // an empty Host is valid: a target URI without an authority (RFC 9112 §3.2)
  return host === '' || isValidHost(host) ? null : 'Invalid Host header'
}

/**
 * Answers a request no handler may see with the JSON body of its code, and
 * closes the connection.
 * @param {import('node:http').ServerResponse} res
 * @param {{ status: number, code: string, body: string, type?: string }} answer
 */
function refuse (res, answer) {
  const req = res.req
  publishRejected(answer.status, answer.code, req.method, req.url, req.socket.remoteAddress)
  res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer.body), connection: 'close' })
  res.end(answer.body)
}

/**
 * The handler, unless the parser failed the request's read meanwhile
 * (onClientError has answered it and ended the socket).
 * @param {import('../engine.js').RequestHandler} handler
 * @param {NodeRequest} req
 * @param {NodeResponse} res
 */
function dispatchAfterParse (handler, req, res) {
  if (req.socket.writable) handler(/** @type {any} */ (req), /** @type {any} */ (res))
}

/**
 * The status and code of the answer to a request node:http refused.
 * @param {Error & { code?: string }} err
 * @returns {[number, string]}
 */
function clientErrorCode (err) {
  if (err.code === 'HPE_HEADER_OVERFLOW') return [431, 'HP_ERR_HEADERS_TOO_LARGE']
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'HP_ERR_REQUEST_TIMEOUT']
  return [400, 'HP_ERR_BAD_REQUEST']
}

/** marks a socket accepted from the listener's queue once close() (without drain) began */
const kQueued = Symbol('hotpath.queued')

/** ms an open connection may still bring a request once close() began */
const CLOSE_IDLE_MS = 500

function noop () {}

/**
 * Stops reading `socket` until `releaseSocket`: while close() accepts the
 * listener's queue (../close-listener.js). socket.pause() alone does not
 * hold a connection just accepted: node:http resumes it as it accepts it
 * (its 'data' listener), before the server's later 'connection' listeners
 * run, and the 'resume' event that follows at the next tick has node:http
 * start reading the handle again (its onSocketResume), the stream paused or
 * not. Such a connection was read and served at once, its connection kept
 * alive, while the listener was still open: behind nginx, requests went on
 * on the connections opened during the close, nginx opened more, the
 * queue never stayed empty for long, and the listener closed on
 * connections that reached it right after a quiet reading: they were reset
 * (their POSTs answered 502). So a held socket stops its handle again at
 * each 'resume', whatever resumed it (node:http also does when a request's
 * body is read): this listener runs after node:http's, in the same tick,
 * so nothing is read in between; the stream is paused already then, so
 * pause() emits no 'pause' and the handle is stopped here, as node:http's
 * onSocketPause stops it.
 * @param {import('node:net').Socket} socket
 */
function holdSocket (socket) {
  socket.pause()
  socket.on('resume', keepHeld)
}

/** @param {import('node:net').Socket} socket */
function releaseSocket (socket) {
  socket.removeListener('resume', keepHeld)
  if (!socket.destroyed) socket.resume()
}

/** @this {import('node:net').Socket} */
function keepHeld () {
  this.pause()
  const handle = /** @type {any} */ (this)._handle
  if (handle?.reading) {
    handle.reading = false
    handle.readStop()
  }
}

/**
 * server.close() without node:http's closing of the keep-alive sockets idle
 * at that moment (it calls closeIdleConnections() since Node 19): a client
 * may be sending its next request on one of them; the caller closes them
 * its own way.
 * @param {import('node:http').Server} server
 * @param {() => void} closed
 */
function closeKeepingIdle (server, closed) {
  const closeIdle = server.closeIdleConnections
  server.closeIdleConnections = noop
  server.close(closed)
  server.closeIdleConnections = closeIdle
}

/**
 * @param {import('../engine.js').EngineOptions} options
 * @returns {import('../engine.js').Engine}
 */
export function createNodeEngine (options) {
  const requestTimeout = options.requestTimeout
  // node:http refuses headersTimeout > requestTimeout when both are set.
  const headersTimeout = requestTimeout > 0 ? Math.min(options.headersTimeout, requestTimeout) : options.headersTimeout
  /** @type {import('node:http').ServerOptions<any, any>} */
  const serverOptions = {
    // the rest of Fastify's `http` option, as Fastify hands it to node:http;
    // hotpath's own below win
    ...options.nodeServerOptions,
    noDelay: options.noDelay ?? true,
    keepAlive: options.keepAlive ?? false,
    keepAliveInitialDelay: options.keepAliveInitialDelay ?? 0,
    IncomingMessage: NodeRequest,
    ServerResponse: NodeResponse,
    headersTimeout,
    // A backstop, half as long again as the core's request timeout: a
    // request the core has is answered by the core's own timer (408 while
    // it reads a body the client has not finished, 503 when the application
    // is late). node:http counts a body nobody reads as not received, and
    // with the same limit its 408 raced the core's answer and blamed the
    // client for the application's delay.
    requestTimeout: requestTimeout > 0 ? Math.ceil(requestTimeout * 1.5) : 0,
    keepAliveTimeout: options.keepAliveTimeout,
    maxHeaderSize: options.maxHeaderSize,
    // node:http checks headersTimeout/requestTimeout only every 30 s by
    // default; a slow-drip client would hold a socket that long past its
    // limit. Check at most every second (and faster for short limits).
    connectionsCheckingInterval: options.connectionsCheckingInterval ?? Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeout || 1000, requestTimeout || 1000) / 2))),
    // checked in setHandler instead: node:http's own answer is an empty 400
    requireHostHeader: false
  }
  const server = options.https
    // node:https (and node:tls under it) is loaded only for an HTTPS server
    ? /** @type {typeof import('node:https')} */ (loadModule('node:https')).createServer({ ...options.https, ...serverOptions })
    : http.createServer(serverOptions)
  // not createServer options: properties of the server. The socket idle
  // timeout is off unless connectionTimeout asks for it (the timeouts above
  // cover slow clients).
  server.maxRequestsPerSocket = options.maxRequestsPerSocket ?? 0
  server.timeout = options.connectionTimeout ?? 0
  // node:http destroys a socket idle past server.timeout (its own 'timeout'
  // listener comes first): the response in flight learns why (onEnd's
  // error; the route's onTimeout hooks run)
  server.on(options.https ? 'secureConnection' : 'connection', (/** @type {import('node:net').Socket} */ socket) => {
    if (server.timeout > 0) socket.on('timeout', onSocketTimeout)
  })
  const requireHost = options.requireHostHeader ?? true
  // drain (the `drain` option): a request on an open connection is served, never refused
  const return503 = options.drain === true ? false : options.return503OnClosing ?? true
  // node:http answers a malformed request itself with an empty body; with a
  // listener we answer it as wire does, with a JSON body naming the problem
  // (llhttp's reason, e.g. "Invalid header value char").
  const log = options.onClientError
  const custom = options.clientErrorHandler
  server.on('clientError', onClientError)
  /**
   * @param {Error & { code?: string, reason?: string }} err
   * @param {import('node:net').Socket} socket
   */
  function onClientError (err, socket) {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // node:http checks its timeouts in a timer, and timers run before the
      // event loop reads the sockets: after a turn the process spent busy
      // (a loaded machine), bytes that arrived meanwhile are still unread,
      // and the head of a first request is timed from the connection's
      // accept. Whether the client is late is known once they are read.
      const incoming = /** @type {any} */ (socket).parser?.incoming ?? null
      setImmediate(timeoutAfterReads, err, socket, incoming, incoming !== null && incoming.complete)
      return
    }
    answerClientError(err, socket)
  }

  /**
   * After the reads of node:http's timeout turn: 408 only if the client is
   * still behind. node:http no longer times the message out (it left its
   * list); a head read since is timed anew from now, a body the
   * application has not read (the socket paused) by the core's timer.
   * @param {Error} err
   * @param {import('node:net').Socket} socket
   * @param {import('node:http').IncomingMessage | null} before  the message being read at the timeout
   * @param {boolean} wasComplete
   */
  function timeoutAfterReads (err, socket, before, wasComplete) {
    if (socket.destroyed) return
    const incoming = /** @type {any} */ (socket).parser?.incoming ?? null
    if (incoming !== before) return // a new head: it had arrived
    if (incoming !== null && !wasComplete) {
      if (incoming.complete) return // the rest of the body had arrived
      const res = /** @type {any} */ (socket)._httpMessage
      if (socket.isPaused() && res != null && !res.headersSent) return // the application's time
    }
    answerClientError(err, socket)
  }

  /**
   * @param {Error & { code?: string, reason?: string }} err
   * @param {import('node:net').Socket} socket
   */
  function answerClientError (err, socket) {
    if (log) log(err)
    // a reset is no request to answer
    if (err.code !== 'ECONNRESET') publishRejected(...clientErrorCode(err), undefined, undefined, socket.remoteAddress)
    if (custom !== undefined) {
      try {
        custom(err, socket)
      } catch {
        socket.destroy()
      }
      return
    }
    if (socket.writable && !(/** @type {any} */ (socket))._httpMessage?.headersSent) {
      const code = clientErrorCode(err)[1]
      const answer = code === 'HP_ERR_BAD_REQUEST' ? errorAnswer(code, typeof err.reason === 'string' ? err.reason : 'unparsable request') : errorAnswer(code)
      socket.end(`HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(answer.body)}\r\nConnection: close\r\n\r\n${answer.body}`)
    }
    socket.destroySoon()
  }

  /**
   * closing: close() has begun (a request arriving then is answered 503,
   * or served with Connection: close); closeBusy: the answers in flight
   * then say Connection: close too (forceCloseConnections 'idle' or true;
   * by default they keep the connection, as node:http does). Read by every
   * response while it writes.
   */
  const state = { closing: false, closeBusy: false }

  /** the core's entry point, once ready() gives it (setHandler) */
  const core = { handler: /** @type {import('../engine.js').RequestHandler | null} */ (null) }
  /** what the app's listener does with a pair made elsewhere (../server-emit.js) */
  const elsewhere = continueIntoCore(core)
  /**
   * The app, as app.server's one 'request' listener, from the start (as on
   * Fastify's server): code that attaches to the server (socket.io) saves
   * it, removes it and calls it from its own listener for the requests it
   * does not answer itself.
   * @param {NodeRequest} req
   * @param {NodeResponse} res
   */
  function hotpath (req, res) {
    // a pair another server made: routed as app.routing() routes it
    if (!(res instanceof NodeResponse)) return elsewhere(req, res)
    // answered by a listener before this one, or given twice: a second
    // answer would fail, so the request is left alone (and that is said)
    if (res.engineState !== null || res.headersSent) return notRoutedAgain(req, res.headersSent)
    res.engineState = state
    req.hasBody = bodyFollows(req.headers)
    const invalid = invalidHost(req, requireHost)
    if (invalid !== null) return refuse(res, errorAnswer('HP_ERR_BAD_REQUEST', invalid))
    const handler = core.handler
    if (handler === null) return refuse(res, errorAnswer('HP_ERR_NOT_READY'))
    if (state.closing) {
      // a connection accepted from the listener's queue after close() began
      // (../close-listener.js): its client sent the request before close
      if (return503 && /** @type {any} */ (req.socket)[kQueued] !== true) {
        refuse(res, options.closingAnswer ?? closingAnswer(false))
        if (options.onClosingRefusal !== undefined) options.onClosingRefusal()
        return
      }
      res.shouldKeepAlive = false
    }
    // llhttp hands over the head of a request whose Transfer-Encoding
    // it rejects (a final coding other than a lone "chunked", as in
    // "gzip", "chunked<HTAB>" or "<NBSP>chunked") and fails the read
    // right after this event, in the same call. Such a request waits
    // one tick: the error comes first, onClientError answers with the
    // JSON 400, and no handler runs. A request without the field pays
    // one property check.
    if (req.headers['transfer-encoding'] !== undefined) return process.nextTick(dispatchAfterParse, handler, req, res)
    handler(/** @type {any} */ (req), /** @type {any} */ (res))
  }
  server.on('request', hotpath)

  /**
   * drain: the open connections, which a draining close() holds (stops
   * reading) while it accepts the listener's queue (../close-listener.js);
   * over TCP only (a TLS socket is read by its TLS layer)
   * @type {Set<import('node:net').Socket>}
   */
  const sockets = new Set()
  const holdable = options.drain === true && !options.https
  if (holdable) {
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
  }

  return {
    server,
    setHandler (handler) {
      core.handler = handler
    },
    listen (opts) {
      return listenServer(server, opts)
    },
    close () {
      const draining = options.drain === true && options.forceCloseConnections !== true && server.listening
      // drain: until the listener closes, the server serves as before (see below)
      state.closing = !draining
      state.closeBusy = !draining && (options.forceCloseConnections === 'idle' || options.forceCloseConnections === true || options.drain === true)
      return new Promise((resolve) => {
        if (!server.listening) return resolve()
        if (draining) {
          // drain: the server's close, without node:http's closing of the
          // idle keep-alive sockets, whose clients may be sending a request
          // on them. Each busy one ends after its answer (Connection:
          // close), an idle one at its next request's answer or at its
          // keep-alive timeout, as while serving; the callback comes when
          // the last is gone.
          const grace = setTimeout(() => server.closeAllConnections(), options.closeGraceTimeout ?? 10_000)
          grace.unref()
          // The listener closes once the connections the kernel queued for
          // it are accepted (../close-listener.js), each then served; until
          // then answers keep the connection open, since each that said
          // Connection: close would have its client open a new one here.
          /** @type {import('node:net').Socket[]} the sockets held (not those node:http paused itself) */
          const held = []
          /** @param {import('node:net').Socket} socket */
          const hold = (socket) => {
            if (!holdable || socket.destroyed || socket.isPaused()) return
            holdSocket(socket)
            held.push(socket)
          }
          closeListener(server, {
            close () {
              state.closing = true
              state.closeBusy = true
              closeKeepingIdle(server, () => {
                clearTimeout(grace)
                resolve()
              })
            },
            hold () { for (const socket of sockets) hold(socket) },
            holdNew: hold,
            release () { for (const socket of held) releaseSocket(socket) }
          })
          return
        }
        // server.close() stops accepting and (node ≥ 19) closes idle
        // keep-alive sockets; in-flight requests finish (with 'idle' or
        // true, their responses go out with Connection: close so their
        // sockets end too).
        // Connections still busy after the grace period (a stream that
        // never ends, a client that never reads) are destroyed.
        if (options.forceCloseConnections === true) server.closeAllConnections()
        const grace = setTimeout(() => server.closeAllConnections(), options.closeGraceTimeout ?? 10_000)
        grace.unref()
        // The listener closes once the connections the kernel queued for it
        // are accepted (../close-listener.js), as with drain: closing it
        // resets them, requests included. Those are held until it has
        // closed, then served (not refused: their clients sent the request
        // before close), with Connection: close; the connections open
        // before close() are closed or refused as below, at once.
        /** @type {import('node:net').Socket[]} */
        const queued = []
        /** @param {() => void} closeServer */
        const closeListenerThen = (closeServer) => options.forceCloseConnections === true ? closeServer() : closeListener(server, {
          close: closeServer,
          hold: noop,
          holdNew (socket) {
            /** @type {any} */ (socket)[kQueued] = true
            holdSocket(socket)
            queued.push(socket)
          },
          release () { for (const socket of queued) releaseSocket(socket) }
        })
        if (options.forceCloseConnections === 'idle') {
          server.closeIdleConnections()
          closeListenerThen(() => {
            // the idle ones were closed above; those accepted since are not
            closeKeepingIdle(server, () => {
              clearTimeout(grace)
              resolve()
            })
          })
          return
        }
        // server.close() stops accepting and also destroys every keep-alive
        // connection idle at that moment; but a client's next request may
        // already be on its way on one of them, and it would be reset.
        // node:http does not say when a connection last answered, so the
        // idle ones are left open CLOSE_IDLE_MS longer: a request arriving
        // meanwhile is answered 503 + Connection: close (see setHandler),
        // and those still idle are closed then. A busy one keeps its
        // connection, as on node:http, and is closed once idle, at the
        // next of these sweeps.
        const sweep = setInterval(() => server.closeIdleConnections(), CLOSE_IDLE_MS)
        sweep.unref()
        closeListenerThen(() => {
          closeKeepingIdle(server, () => {
            clearTimeout(grace)
            clearInterval(sweep)
            resolve()
          })
        })
      })
    }
  }
}

/** @this {import('node:net').Socket} */
function onSocketTimeout () {
  // left open: a 'timeout' listener of the request's, response's or server's took it
  if (!this.destroyed) return
  const res = /** @type {any} */ (this)._httpMessage
  if (res instanceof NodeResponse) timedOut(res)
}
