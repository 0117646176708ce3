// The one place an error answer is built: its status and JSON body, for
// every path that answers an error (the error handler's default, the
// last-resort answer, overload, and the engines' own answers to requests no
// handler may see). Codes, statuses and messages come from the one table in
// ../errors.js. Internal messages never leave the server.
import { HttpError, createError } from '../errors.js'
import { statusText, knownReason } from '../status.js'

/**
 * The JSON body for an error: an HttpError's own message, or for any other
 * error the reason phrase, unless it is a 4xx marked `expose`. hotpath's own
 * 5xx codes describe internals, so their text stays generic too. With
 * `exposeAll` (the exposeErrorMessages option, Fastify's behaviour) every
 * error's own message and code. Fields in Fastify's order.
 * @param {unknown} err
 * @param {number} status
 * @param {boolean} [exposeAll]
 * @returns {Record<string, unknown>}
 */
export function errorBody (err, status, exposeAll = false) {
  if (err instanceof HttpError) {
    const masked = status >= 500 && err.code !== undefined && err.code.startsWith('HP_ERR_')
    /** @type {Record<string, unknown>} */
    const body = { statusCode: status }
    if (err.code !== undefined) body.code = err.code
    body.error = statusText(status)
    body.message = masked ? statusText(status) : err.message
    if (err.details !== undefined) Object.assign(body, err.details)
    return body
  }
  const e = /** @type {any} */ (err)
  const isObject = e !== null && typeof e === 'object'
  if (exposeAll && isObject) {
    /** @type {Record<string, unknown>} */
    const body = { statusCode: status }
    if (typeof e.code === 'string') body.code = e.code
    // node's phrase, none for a code it does not name (Fastify's body has
    // no `error` then: 499 is a status some proxies use)
    const reason = knownReason(status)
    if (reason !== undefined) body.error = reason
    body.message = typeof e.message === 'string' ? e.message : statusText(status)
    return body
  }
  const message = status < 500 && isObject && e.expose === true && typeof e.message === 'string' ? e.message : statusText(status)
  return { statusCode: status, error: statusText(status), message }
}

/**
 * An answer from the table, ready to write: for the engines' own answers
 * (a malformed request, a timeout, shutting down) and the core's fixed ones.
 * @param {string} code  an HP_ERR_* code
 * @param {...(string | number)} args  the message's %s values
 * @returns {{ status: number, code: string, body: string, type?: string }}  (type: its Content-Type, when not JSON's with charset)
 */
export function errorAnswer (code, ...args) {
  const err = createError(code, ...args)
  return { status: err.statusCode, code, body: JSON.stringify(errorBody(err, err.statusCode)) }
}

/**
 * The answer to a request that arrives once close() has begun
 * (return503OnClosing), from the engines and app.routing(): hotpath's, or,
 * under errorFormat 'fastify', the fixed body and type of Fastify's route
 * handler.
 * @param {boolean} fastify
 * @returns {{ status: number, code: string, body: string, type: string }}
 */
export function closingAnswer (fastify) {
  const answer = errorAnswer('HP_ERR_SERVER_CLOSING')
  if (!fastify) return { ...answer, type: 'application/json; charset=utf-8' }
  return { ...answer, type: 'application/json', body: '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}' }
}
