// The handler of the not-found route a context gets when it sets none: the
// 404 of the table, naming what was asked for. Which not-found route answers
// a path is RouteTable#notFoundRoute's job (the deepest prefix).
import { createError } from '../errors.js'

/** @param {import('../lifecycle/request.js').Request} req */
export function defaultNotFound (req) {
  throw createError('HP_ERR_NOT_FOUND', req.method, req.path)
}
