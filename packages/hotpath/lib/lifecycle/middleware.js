// app.use(): connect-style (req, res, next) middleware such as cors or
// helmet, run as an onRequest hook on the engine's node-compatible objects,
// for every request or, mounted at a path, for the requests under it.
// A middleware that calls next() synchronously keeps the request on the
// sync path; one that ends the response itself ends the lifecycle.
//
// One set of headers, whoever sets them: while a middleware runs, the
// response object it holds carries every header the reply has so far
// (lendHeaders: helmet's, cors's, a hook's), so a middleware that answers
// itself (serve-static) sends them, as Express does; when it calls next(),
// the headers on that object become the reply's again (adoptHeaders): the
// route sees them through reply.getHeader(), and a later
// reply.header('vary', …) adds to cors's `Vary: Origin`.
//
// Whatever a middleware does, one request cannot take the process down: a
// synchronous throw, next(err) and a rejected promise (an async middleware)
// go to the error path (error middleware, then the error handler); a second
// next() is ignored unless it brings an error (then, as in Express, the
// error answers if nothing has yet); a response the middleware ended, with or without
// next(), is the answer and the route does not run.
import { markDone, unpark } from './kernel.js'
import { handleError } from './handle-error.js'

/**
 * @param {Function} mw  (req, res, next), or (err, req, res, next) for error middleware
 * @param {string} [mount]  a path prefix, as in Express's app.use(path, fn): '' for every request
 */
export function middlewareHook (mw, mount = '') {
  // Error middleware runs as an onError hook: it may answer the error
  // itself; next(), with or without an error, hands it on to the next one
  // and then to the route's error handler.
  const forErrors = mw.length === 4
  /**
   * @param {import('./request.js').Request} req
   * @param {import('../reply/reply.js').Reply} reply
   * @param {unknown} [failure]  the error, for error middleware (onError hooks get it)
   */
  return function middleware (req, reply, failure) {
    // A request no route matched is not an error to Express's error
    // middleware: hotpath's 404 answers it.
    if (forErrors && /** @type {any} */ (failure)?.code === 'HP_ERR_NOT_FOUND') return
    const cres = /** @type {any} */ (reply.raw)
    const creq = cres.req
    const url = creq.url
    if (creq.originalUrl === undefined) creq.originalUrl = url
    /** @type {string | undefined} the baseUrl to restore */
    let base
    if (mount !== '') {
      if (!isUnder(url, mount)) return
      // Inside a mounted middleware, as in Express: req.url is relative to
      // the mount path, req.baseUrl is the part cut off; both come back at
      // next().
      base = creq.baseUrl ?? ''
      creq.baseUrl = base + url.slice(0, mount.length)
      const rest = url.slice(mount.length)
      creq.url = rest === '' ? '/' : rest[0] === '?' ? '/' + rest : rest
    }
    const lent = lendHeaders(reply, cres)
    let state = 0 // 0 pending, 1 next() called, 2 the response ended first
    let returned = false
    /** @type {unknown} */
    let error
    /** @type {(() => void) | null} set once the middleware returned without next() */
    let settle = null
    /** @param {unknown} [err] */
    const next = (err) => {
      if (state !== 0) {
        // A later next(err), after the middleware returned, while the
        // request is still on its way (connect-timeout's 503 while the
        // route works) is the request's error, as in Express: it answers,
        // and the route's own answer later is dropped. Once answered, it
        // can only be logged.
        if (err && state === 1 && returned && !forErrors) lateError(reply, err)
        return
      }
      state = 1
      error = err
      if (base !== undefined) {
        creq.url = url
        creq.baseUrl = base
      }
      if (settle !== null) settle()
    }
    const r = forErrors ? mw(failure, creq, cres, next) : mw(creq, cres, next)
    returned = true
    // An async middleware's rejection is its next(err), as in Express 5.
    if (r !== null && typeof r === 'object' && typeof (/** @type {any} */ (r)).then === 'function') {
      /** @type {PromiseLike<unknown>} */ (r).then(undefined, (err) => {
        if (state === 0) next(err ?? new Error('middleware rejected'))
        else reply.request.log.error({ err }, 'middleware failed after calling next()')
      })
    }
    if (cres.headersSent) {
      // The middleware answered (e.g. a CORS preflight), whether or not it
      // also called next(): its response is the one, the route does not run.
      answered(reply, error)
      return
    }
    if (state === 1) {
      if (error && !forErrors) throw error
      adoptHeaders(reply, cres, lent)
      return
    }
    return new Promise((/** @type {(v?: unknown) => void} */ resolve, reject) => {
      // The middleware may answer and never call next() (serve-static
      // sending a file), or the client may leave: stop waiting then too.
      const ended = () => {
        if (state !== 0) return
        state = 2
        if (settle !== null) settle()
      }
      settle = () => {
        cres.removeListener('finish', ended)
        cres.removeListener('close', ended)
        if (error) reject(error)
        else resolve()
      }
      cres.once('finish', ended)
      cres.once('close', ended)
    }).then(() => {
      if (cres.headersSent || state === 2) answered(reply, undefined)
      else adoptHeaders(reply, cres, lent)
    }, (err) => {
      if (cres.headersSent) answered(reply, err)
      else if (!forErrors) throw err
    })
  }
}

/**
 * @param {import('../reply/reply.js').Reply} reply
 * @param {unknown} err
 */
function lateError (reply, err) {
  if (reply._done) {
    reply.request.log.error({ err }, 'middleware reported an error after the response was sent')
    return
  }
  // whatever the lifecycle waits on now (a handler's promise) no longer
  // goes on when it settles: the error path takes the request
  unpark(reply)
  handleError(reply, err)
}

/**
 * The middleware wrote the response (or the client left while it worked):
 * the lifecycle ends here; an error it reported besides is logged.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {unknown} err
 */
function answered (reply, err) {
  // the status the middleware sent (a preflight's 204, a 304) is the
  // reply's, for onResponse hooks and the log line
  reply.statusCode = reply.raw.statusCode
  markDone(reply)
  if (err) handleError(reply, err)
}

/**
 * Puts the reply's headers on the response object a middleware is about
 * to get, for those it does not have: a middleware sees them (res.getHeader)
 * and a response it writes itself carries them. Content-Type and
 * Content-Length stay the reply's, chosen from its payload. A header the
 * object already holds with the reply's value (an earlier middleware's,
 * kept there by adoptHeaders) counts as lent without being set again, so
 * a chain of middleware sets each of the reply's headers on the object
 * once, not once a middleware (helmet's dozen, before compression and a
 * body parser, cost three times as many setHeader calls, each checked,
 * and as many removals).
 * @param {import('../reply/reply.js').Reply} reply
 * @param {any} cres
 * @returns {string[] | null} the names lent
 */
function lendHeaders (reply, cres) {
  const own = reply._headers
  if (own === null || cres.headersSent) return null
  /** @type {string[] | null} */
  let lent = null
  for (const name of Object.keys(own)) {
    if (name === 'content-type' || name === 'content-length') continue
    const value = own[name]
    const held = cres.getHeader(name)
    if (held === undefined) cres.setHeader(name, value)
    // a value of the object's own (set on reply.raw): the middleware sees it
    else if (held !== value) continue
    ;(lent ??= []).push(name)
  }
  return lent
}

/**
 * Once the middleware calls next(), the headers on the response object
 * are the reply's: what it added or changed replaces the reply's value (it
 * saw the reply's, lent to it; a Vary or Set-Cookie it extended holds the
 * reply's entries already), and a lent header it removed is removed. A
 * header set without having been lent, where the reply has one (a Vary or
 * Set-Cookie of a middleware's own), adds to the reply's Vary and
 * Set-Cookie and leaves any other as the reply has it, as writeHead wins
 * over setHeader on node:http. Content-Type and Content-Length stay on the
 * response object, where the reply's own, chosen from the payload, wins.
 * A header whose value is now the reply's stays on the object too, as it
 * stays on node's response with Fastify and @fastify/middie
 * (reply.raw.getHeader() reads it; the reply's value goes out, once); one
 * the reply holds otherwise leaves it.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {any} cres
 * @param {string[] | null} lent  the names lendHeaders put there
 */
function adoptHeaders (reply, cres, lent) {
  if (lent !== null) {
    for (const name of lent) if (!cres.hasHeader(name)) reply.removeHeader(name)
  }
  for (const name of cres.getHeaderNames()) {
    if (name === 'content-type' || name === 'content-length') continue
    const value = cres.getHeader(name)
    if (value === undefined) continue
    const own = ownHeader(reply, name)
    if (value === own) continue
    if (lent !== null && lent.includes(name)) {
      reply.removeHeader(name)
      reply.header(name, value)
    } else if (own === undefined || name === 'vary' || name === 'set-cookie') {
      reply.header(name, value)
    }
    if (ownHeader(reply, name) !== value && cres.getHeader(name) !== undefined) cres.removeHeader(name)
  }
}

/**
 * The reply's own value of a header (not the response object's).
 * @param {import('../reply/reply.js').Reply} reply
 * @param {string} name  lower case, not Content-Type
 */
function ownHeader (reply, name) {
  return reply._headers === null ? undefined : reply._headers[name]
}

/**
 * Whether a request-target is at or below a mount path, matched as Express
 * matches app.use paths: case-insensitively, at a segment boundary ('/api'
 * takes '/api', '/api/x' and '/api?q', not '/apix').
 * @param {string} url
 * @param {string} mount  starts with '/', no trailing '/'
 */
function isUnder (url, mount) {
  if (url.length < mount.length) return false
  if (url.slice(0, mount.length).toLowerCase() !== mount.toLowerCase()) return false
  const next = url[mount.length]
  return next === undefined || next === '/' || next === '?'
}
