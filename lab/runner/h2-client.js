// An HTTP/2 client for conformance checks of the h2 scenarios: node:http2
// over cleartext with prior knowledge (h2c), as h2load connects. A server
// that does not speak HTTP/2 fails here, so a figure labelled h2 is an h2
// server's. The `count` copies of a request go as concurrent streams on one
// connection, what the loader does with -m.

import http2 from 'node:http2'

/**
 * Sends `count` copies of a request as concurrent streams on one h2c
 * connection and resolves with their responses, in the order sent. The head
 * arrives HPACK-coded, so its size on the wire is not known: headBytes is null.
 * @param {{ host?: string, port: number, request: { method: string, path: string, headers?: Record<string,string>, body?: string }, count?: number, timeout?: number }} opts
 * @returns {Promise<import('./http-client.js').RawResponse[]>}
 */
export function exchangeH2 ({ host = '127.0.0.1', port, request, count = 1, timeout = 5000 }) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${host}:${port}`)
    let settled = false
    let done = 0
    const finish = (err, responses) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      session.destroy()
      if (err) reject(err); else resolve(responses)
    }
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeout} ms with ${done}/${count} responses`)), timeout)
    session.on('error', (err) => finish(err))
    const responses = Array.from({ length: count }, (_, i) => new Promise((resolve, reject) => {
      const stream = session.request({ ':method': request.method, ':path': request.path, ...request.headers }, { endStream: request.body === undefined })
      let head = null
      const chunks = []
      stream.on('response', (h) => { head = h })
      stream.on('data', (c) => chunks.push(c))
      stream.on('end', () => {
        if (!head) return reject(new Error(`stream ${i + 1} ended without a response`))
        done++
        resolve({ status: Number(head[':status']), headers: plainHeaders(head), headBytes: null, body: Buffer.concat(chunks) })
      })
      stream.on('error', reject)
      if (request.body !== undefined) stream.end(request.body)
    }))
    Promise.all(responses).then((r) => finish(null, r), (err) => finish(err))
  })
}

/**
 * node:http2's header object as the HTTP/1.1 client gives them: lower-case
 * names, no pseudo-headers, repeats joined by ', '.
 * @param {import('node:http2').IncomingHttpHeaders} head
 * @returns {Record<string, string>}
 */
function plainHeaders (head) {
  /** @type {Record<string, string>} */
  const out = {}
  for (const [name, value] of Object.entries(head)) {
    if (name.startsWith(':') || value === undefined) continue
    out[name] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return out
}
