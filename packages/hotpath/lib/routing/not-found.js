// The handler of the not-found route a context gets when it sets none: the
// 404 of the table, naming what was asked for. Which not-found route answers
// a path is RouteTable#notFoundRoute's job (the deepest prefix).
import { createError } from '../errors.js'

/** @param {import('../lifecycle/request.js').Request} req */
export function defaultNotFound (req) {
  throw createError('HP_ERR_NOT_FOUND', req.method, req.path)
}

/**
 * Fastify's default 404 (errorFormat 'fastify'): a plain body, with the URL
 * as requested, query included, and no code; not an error, so no error
 * handler runs for it. With logFormat 'fastify', Fastify's info line
 * naming the route that was not found.
 * @param {import('../lifecycle/request.js').Request} req
 * @param {import('../reply/reply.js').Reply} reply
 */
export function fastifyNotFound (req, reply) {
  // and Fastify's line about it (logFormat 'fastify'), unless request
  // logging is off for this request
  const app = req.route.app
  if (app.logController !== null) {
    if (app.logger !== null) app.logController.routeNotFound(req, reply)
  } else if (app.fastifyLogs && app.logger !== null && app.logRequests && (app.skipRequestLog === null || !app.skipRequestLog(req))) {
    req.log.info(`Route ${req.method}:${req.url} not found`)
  }
  reply.code(404).send({ message: `Route ${req.method}:${req.url} not found`, error: 'Not Found', statusCode: 404 })
}
