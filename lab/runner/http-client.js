// A raw HTTP/1.1 client for conformance checks. It writes exact request
// bytes (several of them in one write for pipelining) and parses the
// responses itself, so the check sees the response head byte for byte and
// does not depend on any framework's client.

import net from 'node:net'

/**
 * @typedef {object} RawResponse
 * @property {number} status
 * @property {Record<string, string>} headers   lower-case names; repeats joined by ', '
 * @property {number} headBytes                 size of status line + headers + CRLFCRLF
 * @property {Buffer} body
 */

/**
 * Serializes one request.
 * @param {{ method: string, path: string, headers?: Record<string,string>, body?: string }} req
 * @param {string} host
 */
export function formatRequest (req, host) {
  const body = req.body === undefined ? null : Buffer.from(req.body)
  let head = `${req.method} ${req.path} HTTP/1.1\r\nhost: ${host}\r\n`
  for (const [k, v] of Object.entries(req.headers || {})) head += `${k}: ${v}\r\n`
  if (body) head += `content-length: ${body.length}\r\n`
  head += '\r\n'
  return body ? Buffer.concat([Buffer.from(head), body]) : Buffer.from(head)
}

/**
 * Parses as many complete responses as `buf` holds.
 * @param {Buffer} buf
 * @param {boolean} [ended] the peer closed: a body without length ends here
 * @returns {{ responses: RawResponse[], rest: Buffer }}
 */
export function parseResponses (buf, ended = false) {
  const responses = []
  for (;;) {
    const end = buf.indexOf('\r\n\r\n')
    if (end === -1) break
    const lines = buf.subarray(0, end).toString('latin1').split('\r\n')
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0])
    if (!m) throw new Error(`malformed status line: ${JSON.stringify(lines[0].slice(0, 80))}`)
    const headers = {}
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':')
      if (i <= 0) throw new Error(`malformed header line: ${JSON.stringify(line.slice(0, 80))}`)
      const name = line.slice(0, i).trim().toLowerCase()
      const value = line.slice(i + 1).trim()
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value
    }
    const status = Number(m[1])
    const start = end + 4
    let body, next
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
      body = Buffer.alloc(0); next = start
    } else if (/chunked/i.test(headers['transfer-encoding'] || '')) {
      const r = decodeChunked(buf, start)
      if (!r) break
      body = r.body; next = r.next
    } else if (headers['content-length'] !== undefined) {
      const len = Number(headers['content-length'])
      if (buf.length < start + len) break
      body = buf.subarray(start, start + len); next = start + len
    } else {
      if (!ended) break
      body = buf.subarray(start); next = buf.length
    }
    responses.push({ status, headers, headBytes: start, body: Buffer.from(body) })
    buf = buf.subarray(next)
  }
  return { responses, rest: buf }
}

/** @returns {{ body: Buffer, next: number } | null} null while incomplete */
function decodeChunked (buf, pos) {
  const parts = []
  for (;;) {
    const eol = buf.indexOf('\r\n', pos)
    if (eol === -1) return null
    const size = parseInt(buf.subarray(pos, eol).toString('latin1'), 16)
    if (Number.isNaN(size)) throw new Error('malformed chunk size')
    pos = eol + 2
    if (size === 0) {
      // trailers end with an empty line
      const end = buf.indexOf('\r\n\r\n', pos - 2)
      if (end === -1) return null
      return { body: Buffer.concat(parts), next: end + 4 }
    }
    if (buf.length < pos + size + 2) return null
    parts.push(buf.subarray(pos, pos + size))
    pos += size + 2
  }
}

/**
 * Sends `count` copies of a request in one write and resolves with their
 * `count` responses.
 * @param {{ host?: string, port: number, request: { method: string, path: string, headers?: Record<string,string>, body?: string }, count?: number, timeout?: number }} opts
 * @returns {Promise<RawResponse[]>}
 */
export function exchange ({ host = '127.0.0.1', port, request, count = 1, timeout = 5000 }) {
  const one = formatRequest(request, `${host}:${port}`)
  const bytes = Buffer.concat(Array.from({ length: count }, () => one))
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port })
    let buf = Buffer.alloc(0)
    const got = []
    let settled = false
    const finish = (err) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (err) reject(err); else resolve(got)
    }
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeout} ms with ${got.length}/${count} responses`)), timeout)
    const take = (ended) => {
      try {
        const { responses, rest } = parseResponses(buf, ended)
        got.push(...responses)
        buf = rest
      } catch (err) { return finish(err) }
      if (got.length >= count) finish(null)
      else if (ended) finish(new Error(`connection closed after ${got.length}/${count} responses`))
    }
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (chunk) => { buf = Buffer.concat([buf, chunk]); take(false) })
    socket.on('end', () => take(true))
    socket.on('error', (err) => finish(err))
  })
}
