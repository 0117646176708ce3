// The load's HTTP/2 side: each client holds one session (a connection, so
// node:cluster hands each to a worker) and opens a new one when its own has
// gone or said GOAWAY: a request is sent on a session that takes new
// streams, as any HTTP/2 client does. A request the server refused without
// processing it (REFUSED_STREAM, or past the GOAWAY's last stream id: safe
// to retry, RFC 9113 §8.7) fails with the code REFUSED_STREAM; the load
// (./load.js) sends it once more and counts that it did.
import http2 from 'node:http2'

/**
 * @param {number} port
 * @param {number} count
 */
export function h2Clients (port, count) {
  /** @type {(http2.ClientHttp2Session | null)[]} */
  const sessions = new Array(count).fill(null)

  /** @param {number} k */
  function session (k) {
    const s = sessions[k]
    if (s !== null && !s.closed && !s.destroyed && !goingAway.has(s)) return s
    const made = http2.connect(`http://127.0.0.1:${port}`)
    // a session's own failure ends its streams, which count it
    made.on('error', () => {})
    made.once('goaway', () => goingAway.add(made))
    sessions[k] = made
    return made
  }
  /** sessions that received a GOAWAY: no new stream goes on them */
  const goingAway = new WeakSet()

  return {
    /**
     * @param {number} k  the client
     * @param {{ method: string, path: string, headers: Record<string, string | number>, body: string | null }} r
     * @param {number} timeoutMs
     * @returns {Promise<{ status: number, instance: string, text: string }>}
     */
    send (k, r, timeoutMs) {
      return new Promise((resolve, reject) => {
        const stream = session(k).request({ ':method': r.method, ':path': r.path, ...r.headers }, { endStream: r.body === null })
        /** @type {Buffer[]} */
        const chunks = []
        let status = 0
        let instance = ''
        let timedOut = false
        stream.setTimeout(timeoutMs, () => {
          timedOut = true
          stream.close(http2.constants.NGHTTP2_CANCEL)
        })
        stream.on('response', (h) => {
          status = Number(h[':status'])
          instance = String(h['x-instance'] ?? '')
        })
        stream.on('data', (c) => chunks.push(c))
        stream.on('error', () => {})
        stream.on('close', () => {
          if (status !== 0 && stream.rstCode === http2.constants.NGHTTP2_NO_ERROR) return resolve({ status, instance, text: Buffer.concat(chunks).toString() })
          const code = timedOut ? 'TIMEOUT' : stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM ? 'REFUSED_STREAM' : `RST_STREAM ${stream.rstCode}`
          reject(Object.assign(new Error(code), { code }))
        })
        if (r.body !== null) stream.end(r.body)
      })
    },
    close () {
      for (const s of sessions) s?.destroy()
    }
  }
}
