// HTTP/1.1 by hand, for the crash hunt's clients (see ../chaos.js): the
// bytes of a case's request, a response parsed from the bytes a socket got,
// and a client connection whose waits are bounded by HANG_MS.

import { once } from 'node:events'
import net from 'node:net'
import { HANG_MS } from './cases.js'

/** @typedef {import('./cases.js').ChaosRequest} ChaosRequest */

// --- bytes -------------------------------------------------------------------

/** @param {NonNullable<ChaosRequest['body']>} b */
export function bodyBytes (b) {
  const n = b.size
  if (n === 0) return Buffer.alloc(0)
  let s
  if (b.type === 'application/json') {
    s = n < 8 ? '1'.repeat(n) : '{"a":"' + 'x'.repeat(n - 8) + '"}'
    if (!b.valid) s = s.slice(0, -1) + ','
  } else if (b.type === 'application/x-www-form-urlencoded') {
    s = 'a=' + 'y'.repeat(Math.max(0, n - 2))
    if (!b.valid) s = s.slice(0, -1) + '%'
  } else {
    s = 'z'.repeat(n)
  }
  return Buffer.from(s.slice(0, n), 'latin1')
}

/**
 * The request's head and body as the client sends them.
 * @param {ChaosRequest} r
 * @param {string} caseId
 * @param {boolean} close
 */
export function requestBytes (r, caseId, close) {
  const body = r.body === null ? null : bodyBytes(r.body)
  let head = `${r.method} ${r.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-case: ${caseId}\r\n`
  if (r.plan !== '') head += `x-plan: ${r.plan}\r\n`
  for (const [k, v] of Object.entries(r.headers)) head += `${k}: ${v}\r\n`
  if (body !== null) {
    if (r.body?.type) head += `Content-Type: ${r.body.type}\r\n`
    head += r.chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${body.length}\r\n`
  }
  if (r.expect) head += 'Expect: 100-continue\r\n'
  if (close) head += 'Connection: close\r\n'
  head += '\r\n'
  let wireBody = body ?? Buffer.alloc(0)
  if (body !== null && r.chunked) {
    /** @type {Buffer[]} */
    const parts = []
    // chunk sizes from the body's length: deterministic, varied
    let step = 1 + (body.length % 7919)
    for (let i = 0; i < body.length; i += step, step = step * 3 % 65_521 + 1) {
      const c = body.subarray(i, i + step)
      parts.push(Buffer.from(c.length.toString(16) + '\r\n', 'latin1'), c, Buffer.from('\r\n', 'latin1'))
    }
    parts.push(Buffer.from('0\r\n\r\n', 'latin1'))
    wireBody = Buffer.concat(parts)
  }
  return { head: Buffer.from(head, 'latin1'), body: wireBody }
}

// --- reading responses ---------------------------------------------------------

/**
 * One response at `start` of `buf`, or null when it is not complete yet.
 * Throws on bytes that are not an HTTP/1.1 response.
 * @param {Buffer} buf
 * @param {number} start
 * @param {string} method
 * @param {boolean} ended  the server closed: a close-delimited body is complete
 */
export function parseResponse (buf, start, method, ended) {
  const headEnd = buf.indexOf('\r\n\r\n', start, 'latin1')
  if (headEnd === -1) {
    if (buf.length - start > 64 * 1024) throw new Error('response head over 64 KiB')
    return null
  }
  const head = buf.toString('latin1', start, headEnd)
  const m = /^HTTP\/1\.[01] (\d{3})[^\r\n]*/.exec(head)
  if (m === null) throw new Error(`not a status line: ${JSON.stringify(head.slice(0, 80))}`)
  const status = Number(m[1])
  const lower = head.toLowerCase()
  let pos = headEnd + 4
  const base = { status, head, interim: status >= 100 && status < 200, close: /\r\nconnection: *close/.test(lower) }
  if (base.interim || status === 204 || status === 304 || method === 'HEAD') return { ...base, body: Buffer.alloc(0), end: pos }
  if (/\r\ntransfer-encoding: *chunked/.test(lower)) {
    /** @type {Buffer[]} */
    const parts = []
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', pos, 'latin1')
      if (lineEnd === -1) return null
      const size = parseInt(buf.toString('latin1', pos, lineEnd), 16)
      if (!Number.isFinite(size)) throw new Error('bad chunk size in a response')
      pos = lineEnd + 2
      if (size === 0) {
        const trailerEnd = buf.indexOf('\r\n', pos, 'latin1')
        if (trailerEnd === -1) return null
        return { ...base, body: Buffer.concat(parts), end: trailerEnd + 2 }
      }
      if (buf.length < pos + size + 2) return null
      parts.push(buf.subarray(pos, pos + size))
      pos += size + 2
    }
  }
  const cl = /\r\ncontent-length: *(\d+)/.exec(lower)
  if (cl !== null) {
    const n = Number(cl[1])
    if (buf.length < pos + n) return null
    return { ...base, body: buf.subarray(pos, pos + n), end: pos + n }
  }
  if (!ended) return null
  return { ...base, body: buf.subarray(pos), end: buf.length, close: true }
}

/**
 * A client connection: collects bytes, and resolves waits for the next
 * response or for the close, each bounded by HANG_MS.
 */
export class Client {
  /** @param {number} port */
  constructor (port) {
    this.socket = net.connect(port, '127.0.0.1')
    /** @type {Buffer} */
    this.buf = Buffer.alloc(0)
    this.pos = 0
    this.ended = false
    this.closed = false
    this.interim = 0
    /** @type {(() => void) | null} */
    this.wake = null
    this.socket.on('data', (/** @type {Buffer} */ d) => { this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]); this.poke() })
    this.socket.on('end', () => { this.ended = true; this.poke() })
    this.socket.on('close', () => { this.closed = true; this.ended = true; this.poke() })
    this.socket.on('error', () => {})
  }

  poke () {
    const w = this.wake
    this.wake = null
    if (w !== null) w()
  }

  /** @param {number} ms */
  async waitEvent (ms) {
    if (ms <= 0) return false
    let timer
    const ok = await new Promise((resolve) => {
      this.wake = () => resolve(true)
      timer = setTimeout(() => resolve(false), ms)
    })
    clearTimeout(timer)
    this.wake = null
    return ok
  }

  async connected () {
    if (this.socket.connecting) {
      await Promise.race([once(this.socket, 'connect'), once(this.socket, 'close')]).catch(() => {})
    }
    return !this.closed
  }

  /** @param {Buffer} b */
  write (b) {
    if (!this.socket.destroyed && b.length > 0) this.socket.write(b)
  }

  /**
   * The next final response (1xx are counted and skipped); 'closed' when
   * the server closed first ('truncated' when part of a response came, as
   * from a stream that fails after its head); 'hang' when neither came in
   * time.
   * @param {string} method
   * @param {{ interimOnly?: boolean, ms?: number }} [opt]
   */
  async next (method, opt = {}) {
    const deadline = Date.now() + (opt.ms ?? HANG_MS)
    for (;;) {
      const r = parseResponse(this.buf, this.pos, method, this.ended)
      if (r !== null) {
        this.pos = r.end
        if (r.interim) {
          this.interim++
          if (opt.interimOnly) return r
          continue
        }
        return r
      }
      if (this.ended) return this.buf.length > this.pos ? 'truncated' : 'closed'
      if (!(await this.waitEvent(deadline - Date.now()))) return 'hang'
    }
  }

  /** Waits for the server to close (or for any byte when `anyByte`). */
  async settled (ms = HANG_MS, anyByte = false) {
    const deadline = Date.now() + ms
    const had = this.buf.length
    while (!this.ended && !(anyByte && this.buf.length > had)) {
      if (!(await this.waitEvent(deadline - Date.now()))) return false
    }
    return true
  }

  /** @param {'destroy' | 'end'} how */
  leave (how) {
    if (how === 'end') this.socket.end()
    else this.socket.destroy()
  }

  close () { this.socket.destroy() }
}
