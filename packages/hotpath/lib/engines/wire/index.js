// hotpath's own HTTP/1.1 engine on node:net / node:tls: the Engine of
// ../engine.js without node:http's IncomingMessage/ServerResponse streams.
// This file accepts connections and runs the one shared timer; a
// connection (./connection.js) parses, queues and writes. See
// docs/engines.md for its limits and defaults.

import net from 'node:net'
import { Connection } from './connection.js'
import { P_HEAD, P_IDLE, PAUSE_ACCEPT } from './states.js'
import { tick } from './timers.js'
import { resolveLimits, TICK_MS, CLOSE_IDLE_MS } from './limits.js'
import { loadModule } from '../../require.js'
import { listenServer } from '../engine.js'
import { httpServerPrototype, emitRequest, continueIntoCore } from '../server-emit.js'
import { CLOSE_LINES } from './writer.js'
import { closeListener } from '../close-listener.js'
import { closingAnswer } from '../../reply/error-body.js'

/** @typedef {import('../engine.js').Engine} Engine */
/** @typedef {import('../engine.js').EngineOptions} EngineOptions */

const kConn = Symbol('wire.connection')

export class WireEngine {
  /** @param {Partial<EngineOptions> & Record<string, any>} [options] */
  constructor (options = {}) {
    this.limits = resolveLimits(options)
    /** @type {((raw: any, res: any) => void) | null} */
    this.handler = null
    /** @type {((err: Error, info?: object) => void) | null} */
    this.onClientError = typeof options.onClientError === 'function' ? options.onClientError : null
    /** @type {Set<Connection>} */
    this.connections = new Set()
    this.closing = false
    /** close() has begun, and the answers in flight say Connection: close (forceCloseConnections 'idle') */
    this.closeBusy = false
    /** ms close() waits for busy connections before destroying them */
    this.closeGraceTimeout = options.closeGraceTimeout ?? 10_000
    /** @type {boolean | 'idle'} see EngineOptions */
    this.forceCloseConnections = options.forceCloseConnections ?? false
    /**
     * close() drains (the `drain` option): no connection is closed under a
     * request that may be on its way; each answers its requests, with
     * Connection: close, and an idle one stays until its client closes it
     * or its keep-alive timeout ends, as while serving
     */
    this.drain = options.drain === true
    /**
     * coarse clock for timeouts, advanced by the shared timer (./timers.js):
     * ms since the engine was made, so that it and each connection's times
     * taken from it stay small integers, held in the connection itself
     * (Date.now() would need a 16-byte number object for each of them)
     */
    this.clock = 0
    /** Date.now() when the shared timer last ran */
    this.tickedAt = Date.now()
    this.second = 0
    this.dateLine = ''
    this.keepAliveLines = keepAliveLines(this.limits.keepAliveTimeout)
    /** the head's end, Date then Connection, as one flat string (./respond.js headEnd) */
    this.keepAliveEnd = ''
    this.closeEnd = ''
    this.refreshDate(this.tickedAt)
    /** node:http's socket options (Fastify's `http`): Nagle off unless noDelay is false; TCP keep-alive probes when keepAlive */
    this.noDelay = options.noDelay ?? true
    this.tcpKeepAlive = options.keepAlive ?? false
    this.tcpKeepAliveDelay = options.keepAliveInitialDelay ?? 0
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null
    /** @type {(() => void) | null} */
    this.closed = null
    /** @type {(() => void) | null} close()'s end, called once no connection wire manages is left */
    this.whenNoConnections = null
    const onConnection = (/** @type {import('node:net').Socket} */ socket) => this.accept(socket, false)
    /** @type {import('node:net').Server} */
    this.server = options.https != null
      // node:tls is loaded only for an HTTPS server
      ? /** @type {typeof import('node:tls')} */ (loadModule('node:tls')).createServer({ ALPNProtocols: ['http/1.1'], allowHalfOpen: true, ...options.https }, (socket) => this.accept(socket, true))
      : net.createServer({ noDelay: options.noDelay ?? true, allowHalfOpen: true }, onConnection)
    this.server.on('error', () => {})
    /**
     * app.server: its 'upgrade' and 'timeout' listeners take the sockets
     * wire hands over, and its 'request' listeners the requests while
     * they are not `requestListener` alone. The h2 engine's server when
     * wire serves HTTP/1.1 on that server's TLS port (allowHTTP1).
     * @type {import('node:events').EventEmitter}
     */
    this.appServer = this.server
    /**
     * The app, as app.server's one 'request' listener (as on Fastify's
     * server): while the listeners are it alone, wire calls the core
     * itself; code that saves and wraps it (socket.io) gets every request
     * as node:http's objects (../server-emit.js). The h2 engine's, when
     * app.server is its server.
     * @type {(req: any, res: any) => void}
     */
    this.requestListener = continueIntoCore(this)
    this.server.on('request', this.requestListener)
    /** @type {((err: Error, socket: import('node:net').Socket) => void) | null} answers refused requests instead of the engine (Fastify's clientErrorHandler) */
    this.clientErrorHandler = typeof options.clientErrorHandler === 'function' ? options.clientErrorHandler : null
    /** false: an HTTP/1.1 request without Host is taken (node:http's requireHostHeader) */
    this.requireHostHeader = options.requireHostHeader ?? true
    /** false: a request that arrives during close() is served (with Connection: close) rather than answered 503 */
    this.return503OnClosing = options.drain === true ? false : options.return503OnClosing ?? true
    /** close() has begun and the listener's queue is being accepted (../close-listener.js): connections accepted now are served */
    this.acceptingQueue = false
    /** what a request refused while closing is answered */
    this.closingAnswer = options.closingAnswer ?? closingAnswer(false)
    /** @type {(() => void) | null} told of each request answered 503 because the engine is closing */
    this.onClosingRefusal = typeof options.onClosingRefusal === 'function' ? options.onClosingRefusal : null
    /** ms of inactivity after which a socket is destroyed (node:http's server.timeout; 0: none) */
    this.socketTimeout = options.connectionTimeout ?? 0
    exposeServerMembers(this)
    /** @type {{ emit: Function }} whose emit instrumentations wrap to see requests: node:http's, node:https's over TLS */
    this.emitPrototype = options.https != null ? /** @type {typeof import('node:https')} */ (loadModule('node:https')).Server.prototype : httpServerPrototype
    if (options.https != null) {
      // a failed TLS handshake is the client's problem; it must not crash the server
      this.server.on('tlsClientError', (err) => this.clientError(err, null))
    }
  }

  /** @param {number} now */
  refreshDate (now) {
    const second = Math.floor(now / 1000)
    if (second === this.second) return
    this.second = second
    this.dateLine = 'Date: ' + new Date(now).toUTCString() + '\r\n'
    this.refreshHeadEnds()
  }

  /**
   * The two endings of a head, made flat (join, not +) once a second: a
   * response's head is then a few flat pieces, cheaper to join and write.
   */
  refreshHeadEnds () {
    this.keepAliveEnd = [this.dateLine, this.keepAliveLines].join('')
    this.closeEnd = [this.dateLine, CLOSE_LINES].join('')
  }

  /**
   * @param {import('node:net').Socket} socket
   * @param {boolean} encrypted
   */
  accept (socket, encrypted) {
    // a connection the listener took in the turn it closed (after
    // close() had closed it): destroyed
    if (this.closing && !this.drain && !this.server.listening) {
      socket.destroy()
      return
    }
    if (!encrypted) socket.setNoDelay(this.noDelay)
    if (this.tcpKeepAlive) socket.setKeepAlive(true, this.tcpKeepAliveDelay)
    if (this.socketTimeout > 0) socket.setTimeout(this.socketTimeout, onSocketTimeout)
    // before the connection reads the clock: a timer started now brings it
    // forward over the time the engine had no connection, which must not
    // count against this one's head
    this.startTimer()
    const conn = new Connection(this, socket, encrypted)
    // waiting in the listener's queue when close() began (without drain):
    // its client sent its request before close, as on a connection open
    // then. One accepted after the listener's close was called (a close()
    // of app.server's that code replaced and has not run yet) is new, and
    // refused as on Fastify
    if (this.closing && !this.drain && this.acceptingQueue) conn.queued = true
    setConn(socket, conn)
    this.connections.add(conn)
    socket.on('data', onData)
    socket.on('drain', onDrain)
    socket.on('error', onError)
    socket.on('close', onClose)
    socket.on('end', onEnd)
  }

  /** @param {Connection} conn */
  unbind (conn) {
    const socket = conn.socket
    socket.removeListener('data', onData)
    socket.removeListener('drain', onDrain)
    socket.removeListener('error', onError)
    socket.removeListener('close', onClose)
    socket.removeListener('end', onEnd)
    setConn(socket, undefined)
    if (conn.paused !== 0) socket.resume()
  }

  /**
   * Starts the shared timer, at a connection's accept: it runs only while
   * the engine has connections (./timers.js tick stops it on a tick that
   * finds none), as node:http runs no timer for a server without any. A
   * repeating timer reads libuv's clock each time it is re-armed, and one
   * re-armed after a callback that blocked the loop has Node arm a timer
   * that fell due during the block from the fresh time rather than the
   * loop's stale one: the accepted connection's request could then be
   * read before that timer ran (@fastify/under-pressure's sample, due
   * during its test's block, ran after the handler that read it;
   * test/contract/overdue-timer-order.test.js). The clock and the Date
   * line are brought up to date, as a tick would have left them.
   */
  startTimer () {
    if (this.timer !== null) return
    const now = Date.now()
    this.clock += Math.max(0, now - this.tickedAt)
    this.tickedAt = now
    this.refreshDate(now)
    this.timer = setInterval(tick, TICK_MS, this)
    this.timer.unref()
  }

  /**
   * @param {Error} err
   * @param {Connection | null} conn
   */
  clientError (err, conn) {
    if (this.onClientError === null) return
    try {
      this.onClientError(err, conn === null ? {} : { remoteAddress: conn.remoteAddress })
    } catch {}
  }

  /** Resolves close() once the last connection is gone. */
  maybeClosed () {
    if (this.closing && this.connections.size === 0) {
      if (this.timer !== null) {
        clearInterval(this.timer)
        this.timer = null
      }
      const done = this.whenNoConnections
      if (done !== null) {
        this.whenNoConnections = null
        done()
      }
    }
  }

  // ── Engine (../engine.js) ───────────────────────────────────────────

  /** @param {(raw: any, res: any) => void} handler */
  setHandler (handler) {
    this.handler = handler
  }

  /**
   * A request, through app.server's 'request' listeners (they are not the
   * app's alone) or the wrapped emit of node:http's Server (see
   * ../server-emit.js): app.server emits it as node:http's server would.
   * @param {import('./response.js').WireResponse} res
   */
  emitRequest (res) {
    emitRequest(this.emitPrototype, this.appServer, res)
  }

  /**
   * @param {import('../engine.js').ListenOptions} opts
   * @returns {Promise<import('node:net').AddressInfo | string>}
   */
  async listen (opts = {}) {
    // the shared timer starts with the first connection (startTimer)
    const address = await listenServer(this.server, opts)
    return address
  }

  /** Destroys the connections with no request in progress (node:http's server.closeIdleConnections). */
  closeIdleConnections () {
    for (const conn of this.connections) {
      if (conn.idle && !conn.headStarted) conn.destroy()
    }
  }

  /** Destroys every connection (node:http's server.closeAllConnections). */
  closeAllConnections () {
    for (const conn of this.connections) conn.destroy()
  }

  /** @returns {Promise<void>} */
  close () {
    // drain: the listener closes once the connections the kernel queued
    // for it are accepted (../close-listener.js); until then the engine
    // serves as before, keep-alive included, since every answer that said
    // Connection: close would have its client open a new connection here
    const draining = this.drain && this.forceCloseConnections !== true && this.server.listening
    this.closing = !draining
    return new Promise((resolve) => {
      // Connections still open after the grace period (a stream that never
      // ends, a client that never reads) are destroyed.
      const grace = setTimeout(() => { for (const conn of this.connections) conn.destroy() }, this.closeGraceTimeout)
      grace.unref()
      const done = () => {
        clearTimeout(grace)
        resolve()
      }
      // done too once the last connection wire manages is gone: net's
      // close() also waits for sockets handed to 'upgrade' listeners, and
      // is not called when code outside the app listened on app.server
      // and closed it already (supertest)
      this.whenNoConnections = done
      const force = this.forceCloseConnections
      this.closeBusy = force !== false || (this.drain && !draining)
      for (const conn of this.connections) {
        // drain: nothing is closed here. An answer not yet written says
        // Connection: close (closeBusy) and ends its connection; one whose
        // head already said keep-alive leaves it open, as an idle one is
        // left, until its next request (answered, Connection: close), its
        // client's close or its keep-alive timeout: closing it now could
        // reset a request its client is sending
        if (this.drain && force !== true) continue
        // A busy one finishes its requests, and their answers keep
        // Connection: keep-alive, as on node:http: it is then idle, and
        // like an idle one that has just answered, kept CLOSE_IDLE_MS for a
        // request already on its way (answered 503 + Connection: close, not
        // reset), then closed by the timer. An idle one closes now, unless
        // it answered that recently. 'idle' closes a busy one after its
        // answers (Connection: close) and an idle one now, and true
        // destroys all: a close() that does not wait.
        if (force === true) conn.destroy()
        else if (force === false && !conn.idle) continue
        else if (!conn.idle || conn.phase === P_HEAD || (force === false && conn.phase === P_IDLE && this.clock - conn.since < CLOSE_IDLE_MS)) conn.closing = true
        else conn.destroy()
      }
      if (this.server.listening && force !== true) {
        // the listener closes once the connections the kernel queued for
        // it are accepted (../close-listener.js), with drain or without;
        // close() resolves once it has closed and the last connection is gone
        const whenNoConnections = this.whenNoConnections
        this.whenNoConnections = null
        this.acceptingQueue = true
        closeListener(this.server, {
          close: () => {
            this.acceptingQueue = false
            this.closing = true
            if (draining) this.closeBusy = true
            this.whenNoConnections = whenNoConnections
            this.server.close(done)
          },
          // without drain the connections open before close() are closed
          // or refused as above, at once; only those accepted since are held
          hold: () => { if (draining) for (const conn of this.connections) conn.pause(PAUSE_ACCEPT) },
          holdNew: (socket) => /** @type {Connection | undefined} */ (/** @type {any} */ (socket)[kConn])?.pause(PAUSE_ACCEPT),
          release: () => {
            for (const conn of this.connections) conn.resume(PAUSE_ACCEPT)
            this.maybeClosed()
          }
        })
      } else if (this.server.listening) {
        this.server.close(done)
      }
      this.maybeClosed()
    })
  }
}

/**
 * The members of node:http's Server that applications and plugins read or
 * set on `app.server`, on the net.Server (or tls.Server) wire listens with:
 * the limits, read and set live, setTimeout(), closeIdleConnections() and
 * closeAllConnections(). Defined once, when the engine is made.
 * @param {WireEngine} engine
 */
function exposeServerMembers (engine) {
  const limits = engine.limits
  /**
   * @param {'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout' | 'maxRequestsPerSocket' | 'maxHeaderSize'} key
   * @returns {PropertyDescriptor}
   */
  const limit = (key) => ({
    configurable: true,
    enumerable: true,
    get () { return limits[key] },
    /** @param {number} v */
    set (v) {
      limits[key] = resolveLimits({ [key]: v })[key]
      if (key === 'keepAliveTimeout') {
        engine.keepAliveLines = keepAliveLines(limits.keepAliveTimeout)
        engine.refreshHeadEnds()
      }
    }
  })
  Object.defineProperties(engine.server, {
    headersTimeout: limit('headersTimeout'),
    requestTimeout: limit('requestTimeout'),
    keepAliveTimeout: limit('keepAliveTimeout'),
    maxRequestsPerSocket: limit('maxRequestsPerSocket'),
    maxHeaderSize: limit('maxHeaderSize'),
    timeout: {
      configurable: true,
      enumerable: true,
      get () { return engine.socketTimeout },
      /** @param {number} v */
      set (v) { engine.socketTimeout = v > 0 ? v : 0 }
    },
    setTimeout: {
      configurable: true,
      writable: true,
      /**
       * @param {number} [ms]
       * @param {(socket: import('node:net').Socket) => void} [callback]  a 'timeout' listener
       */
      value (ms, callback) {
        if (typeof ms === 'function') { callback = ms; ms = 0 }
        engine.socketTimeout = typeof ms === 'number' && ms > 0 ? ms : 0
        if (typeof callback === 'function') engine.server.on('timeout', callback)
        return engine.server
      }
    },
    closeIdleConnections: { configurable: true, writable: true, value: () => engine.closeIdleConnections() },
    closeAllConnections: { configurable: true, writable: true, value: () => engine.closeAllConnections() }
  })
}

/** @param {number} keepAliveTimeout */
function keepAliveLines (keepAliveTimeout) {
  return 'Connection: keep-alive\r\nKeep-Alive: timeout=' + Math.max(1, Math.floor(keepAliveTimeout / 1000)) + '\r\n\r\n'
}

/**
 * A socket idle past server.timeout: to the server's 'timeout' listeners
 * when it has any, as node:http does; destroyed otherwise, and what is in
 * flight on it told so now, before the client sees the socket close (the
 * routes' onTimeout hooks run here, as Fastify runs them on the socket's
 * 'timeout').
 * @this {import('node:net').Socket}
 */
function onSocketTimeout () {
  const conn = /** @type {any} */ (this)[kConn]
  if (conn === undefined) return
  const server = conn.engine.appServer
  if (server.listenerCount('timeout') > 0) server.emit('timeout', this)
  else {
    conn.timedOut = true
    conn.onClose()
    this.destroy()
  }
}

/**
 * @param {import('node:net').Socket} socket
 * @param {Connection | undefined} conn
 */
function setConn (socket, conn) {
  const s = /** @type {any} */ (socket)
  s[kConn] = conn
}

/**
 * @this {import('node:net').Socket}
 * @param {Buffer} chunk
 */
function onData (chunk) { /** @type {any} */ (this)[kConn].onData(chunk) }
/** @this {import('node:net').Socket} */
function onDrain () { /** @type {any} */ (this)[kConn].onDrain() }
/**
 * @this {import('node:net').Socket}
 * @param {Error} err
 */
function onError (err) {
  const conn = /** @type {any} */ (this)[kConn]
  if (conn !== undefined) conn.engine.clientError(err, conn)
}
/** @this {import('node:net').Socket} */
function onClose () { /** @type {any} */ (this)[kConn].onClose() }
/** @this {import('node:net').Socket} */
function onEnd () {
  // the client finished sending; what it sent is answered, then we close
  const conn = /** @type {Connection} */ (/** @type {any} */ (this)[kConn])
  conn.onEnd()
}

/**
 * @param {Partial<EngineOptions> & Record<string, any>} [options]
 * @returns {Engine & WireEngine}
 */
export function createWireEngine (options) {
  return /** @type {any} */ (new WireEngine(options))
}
