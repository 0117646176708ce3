// app.use(): connect-style (req, res, next) middleware such as cors or
// helmet, run as an onRequest hook on the engine's node-compatible objects.
// A middleware that calls next() synchronously keeps the request on the
// sync path; one that ends the response itself ends the lifecycle.
import { markDone } from './send.js'

/**
 * @param {(req: any, res: any, next: (err?: unknown) => void) => void} mw
 */
export function middlewareHook (mw) {
  /**
   * @param {import('./request.js').Request} req
   * @param {import('./reply.js').Reply} reply
   */
  return function middleware (req, reply) {
    const [creq, cres] = reply.engine.compat(req.raw, reply.raw)
    let state = 0 // 0 pending, 1 next() called
    /** @type {unknown} */
    let error
    /** @type {((v?: unknown) => void) | null} */
    let resolve = null
    /** @type {((e: unknown) => void) | null} */
    let reject = null
    /** @param {unknown} [err] */
    const next = (err) => {
      if (state !== 0) return
      state = 1
      error = err
      if (resolve !== null) {
        if (err) /** @type {any} */ (reject)(err)
        else resolve()
      }
    }
    mw(creq, cres, next)
    if (state === 1) {
      if (error) throw error
      return
    }
    if (reply.engine.headersSent(reply.raw)) {
      // The middleware answered (e.g. a CORS preflight).
      markDone(reply)
      return
    }
    return new Promise((res, rej) => {
      resolve = res
      reject = rej
    }).then(() => {
      if (reply.engine.headersSent(reply.raw)) markDone(reply)
    })
  }
}
