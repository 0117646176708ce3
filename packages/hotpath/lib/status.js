// Reason phrases for the status codes hotpath answers with (RFC 9110 §15).
// Kept here rather than imported from node:http so the core stays
// engine-neutral.

/** @type {Record<number, string>} */
const STATUS_TEXT = {
  100: 'Continue', 101: 'Switching Protocols', 102: 'Processing', 103: 'Early Hints',
  200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative Information',
  204: 'No Content', 205: 'Reset Content', 206: 'Partial Content', 207: 'Multi-Status',
  208: 'Already Reported', 226: 'IM Used',
  300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other',
  304: 'Not Modified', 305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict',
  410: 'Gone', 411: 'Length Required', 412: 'Precondition Failed',
  413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable', 417: 'Expectation Failed', 418: "I'm a Teapot",
  421: 'Misdirected Request', 422: 'Unprocessable Entity', 423: 'Locked',
  424: 'Failed Dependency', 425: 'Too Early', 426: 'Upgrade Required',
  428: 'Precondition Required', 429: 'Too Many Requests',
  431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates', 507: 'Insufficient Storage', 508: 'Loop Detected',
  509: 'Bandwidth Limit Exceeded', 510: 'Not Extended', 511: 'Network Authentication Required'
}

/**
 * The reason phrase node:http writes for a status, or undefined for a code
 * it has none for (where node writes `unknown` and Fastify's error body has
 * no `error` field).
 * @param {number} status
 * @returns {string | undefined}
 */
export function knownReason (status) {
  return STATUS_TEXT[status]
}

/**
 * The reason phrase of a response's status line, as node:http's
 * ServerResponse makes it: the one the app set on it (`statusMessage`, or
 * `writeHead(status, message)`), else the code's, else `unknown`.
 * @param {number} status
 * @param {unknown} [own]  the compat response's statusMessage, if any
 * @returns {string}
 */
export function reasonPhrase (status, own) {
  if (typeof own === 'string' && own !== '' && !INVALID_REASON.test(own)) return own
  return STATUS_TEXT[status] ?? 'unknown'
}

/**
 * A reason phrase no head may carry (CR, LF, another control, a character
 * above 0xFF) is refused as node:http's writeHead refuses it, so the
 * answer is the 500 every engine gives a refused header (docs/errors.md);
 * the phrase is dropped so that answer goes out with its own.
 * @param {{ statusMessage?: unknown }} compat
 */
export function refuseBadReason (compat) {
  const own = compat.statusMessage
  if (typeof own === 'string' && INVALID_REASON.test(own)) {
    compat.statusMessage = undefined
    throw Object.assign(new TypeError('Invalid character in statusMessage'), { code: 'ERR_INVALID_CHAR' })
  }
}

// node:http's checkInvalidHeaderChar: only tab, visible ASCII and obs-text
const INVALID_REASON = /[^\t\x20-\x7e\x80-\xff]/

/**
 * @param {number} status
 * @returns {string}
 */
export function statusText (status) {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'Internal Server Error' : status >= 400 ? 'Bad Request' : 'Unknown')
}
