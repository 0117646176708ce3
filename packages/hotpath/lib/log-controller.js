// Fastify's LogController: the object that writes a request's own lines
// (incoming, completed, the default handler's error, the default 404), for
// an application that subclasses it to change them (the `logController`
// option). Without one, the stages write hotpath's lines themselves; with
// one, they call it at the same points Fastify does, and only then.

/**
 * @typedef {object} LogControllerOptions
 * @property {boolean | ((req: any) => boolean)} [disableRequestLogging]  true (or true for a request) leaves its lines out
 * @property {string} [requestIdLogLabel]  the key of the request id on its lines
 */

export class LogController {
  /** @param {LogControllerOptions} [options] */
  constructor (options = {}) {
    /** @type {boolean | ((req: any) => boolean)} */
    this.disableRequestLogging = options.disableRequestLogging ?? false
    this.requestIdLogLabel = options.requestIdLogLabel ?? 'reqId'
  }

  /**
   * Whether this request's lines are left out.
   * @param {any} req
   * @returns {boolean}
   */
  isLogDisabled (req) {
    const d = this.disableRequestLogging
    return typeof d === 'function' ? d(req) === true : d === true
  }

  /**
   * The line a request starts with.
   * @param {any} request
   * @param {any} reply
   */
  incomingRequest (request, reply) {
    if (this.isLogDisabled(request)) return
    request.log.info({ req: request }, 'incoming request')
  }

  /**
   * The line a request ends with, at error level when it failed.
   * @param {Error | null | undefined} error
   * @param {any} request
   * @param {any} reply
   */
  requestCompleted (error, request, reply) {
    if (this.isLogDisabled(request)) return
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored')
    else reply.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
  }

  /**
   * The error the default error handler answers: error level for a 5xx,
   * info for a 4xx.
   * @param {Error} error
   * @param {any} request
   * @param {any} reply
   */
  defaultErrorLog (error, request, reply) {
    if (this.isLogDisabled(request)) return
    if (reply.statusCode >= 500) reply.log.error({ req: request, res: reply, err: error }, error?.message)
    else reply.log.info({ res: reply, err: error }, error?.message)
  }

  /**
   * The default 404's line.
   * @param {any} request
   * @param {any} reply
   */
  routeNotFound (request, reply) {
    if (this.isLogDisabled(request)) return
    request.log.info(`Route ${request.method}:${request.url} not found`)
  }
}

/** the methods the stages call on a logController */
const METHODS = ['isLogDisabled', 'incomingRequest', 'requestCompleted', 'defaultErrorLog', 'routeNotFound']

/**
 * Whether a value can serve as the logController: this class, Fastify's, or
 * another with the same methods.
 * @param {unknown} value
 * @returns {value is LogController}
 */
export function isLogController (value) {
  const v = /** @type {any} */ (value)
  return v !== null && typeof v === 'object' && METHODS.every((m) => typeof v[m] === 'function')
}
