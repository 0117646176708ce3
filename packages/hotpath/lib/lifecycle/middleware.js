// app.use(): connect-style (req, res, next) middleware such as cors or
// helmet, run as an onRequest hook on the engine's node-compatible objects.
// A middleware that calls next() synchronously keeps the request on the
// sync path; one that ends the response itself ends the lifecycle.
//
// Whatever a middleware does, one request cannot take the process down: a
// synchronous throw, next(err) and a rejected promise (an async middleware)
// go to the error handler; a second next() is ignored; a response the
// middleware ended, with or without next(), is the answer and the route does
// not run.
import { markDone } from './kernel.js'
import { handleError } from './handle-error.js'

/**
 * @param {(req: any, res: any, next: (err?: unknown) => void) => unknown} mw
 */
export function middlewareHook (mw) {
  /**
   * @param {import('./request.js').Request} req
   * @param {import('../reply/reply.js').Reply} reply
   */
  return function middleware (req, reply) {
    const cres = reply.raw.compat(req.log)
    const creq = cres.req
    let state = 0 // 0 pending, 1 next() called, 2 the response ended first
    /** @type {unknown} */
    let error
    /** @type {(() => void) | null} set once the middleware returned without next() */
    let settle = null
    /** @param {unknown} [err] */
    const next = (err) => {
      if (state !== 0) return
      state = 1
      error = err
      if (settle !== null) settle()
    }
    const r = mw(creq, cres, next)
    // An async middleware's rejection is its next(err), as in Express 5.
    if (r !== null && typeof r === 'object' && typeof (/** @type {any} */ (r)).then === 'function') {
      /** @type {PromiseLike<unknown>} */ (r).then(undefined, (err) => {
        if (state === 0) next(err ?? new Error('middleware rejected'))
        else reply.request.log.error({ err }, 'middleware failed after calling next()')
      })
    }
    if (reply.raw.headersSent) {
      // The middleware answered (e.g. a CORS preflight), whether or not it
      // also called next(): its response is the one, the route does not run.
      answered(reply, error)
      return
    }
    if (state === 1) {
      if (error) throw error
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
      if (reply.raw.headersSent || state === 2) answered(reply, undefined)
    }, (err) => {
      if (reply.raw.headersSent) answered(reply, err)
      else throw err
    })
  }
}

/**
 * The middleware wrote the response (or the client left while it worked):
 * the lifecycle ends here; an error it reported besides is logged.
 * @param {import('../reply/reply.js').Reply} reply
 * @param {unknown} err
 */
function answered (reply, err) {
  markDone(reply)
  if (err) handleError(reply, err)
}
