// node:http's internal symbols for the state its own methods keep on a
// ServerResponse and an IncomingMessage, which the compat objects share
// with node (./response.js, ./request.js). Node does not export them: they
// are found once by their descriptions on objects made for the purpose,
// the same on every Node line hotpath runs on (20 to 26).
import { IncomingMessage, ServerResponse, Server } from '../../node-http.js'

const response = new ServerResponse(/** @type {any} */ ({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} }))
const request = new IncomingMessage(/** @type {any} */ (null))
const server = new Server()

/**
 * @param {object} made
 * @param {string} description
 * @returns {symbol | undefined}
 */
function find (made, description) {
  return Object.getOwnPropertySymbols(made).find((s) => s.description === description)
}

/**
 * @param {object} made
 * @param {string} description
 * @returns {symbol}
 */
function required (made, description) {
  const found = find(made, description)
  if (found === undefined) throw new Error(`node:http keeps no ${description}: this Node line is not supported`)
  return found
}

/** a response's header table: lower-case name → [name as set, value] */
export const kOutHeaders = required(response, 'kOutHeaders')
/** a response's write() returned false and 'drain' is owed */
export const kNeedDrain = required(response, 'kNeedDrain')
/** Node 22.x and later keep a response's writableFinished here; earlier lines compute it */
export const kWritableFinished = find(response, 'kWritableFinished')
/** how many raw header entries a request's `headers` getter reads (its parser sets it) */
export const kHeadersCount = find(request, 'kHeadersCount')
/** a server's `uniqueHeaders` option, which it copies onto each response (lists joined into one line) */
export const kUniqueHeaders = find(server, 'kUniqueHeaders')
