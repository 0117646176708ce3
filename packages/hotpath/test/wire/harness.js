// Differential harness: the same bytes go to a node:http server (llhttp)
// and to the wire engine; both answer every request they accept with a
// JSON record of what they parsed (method, url, raw header list, body).
// compare() says whether the two agree, and when they do not, whether the
// difference is one of the documented places where wire is stricter than
// llhttp (EXPECTED below, docs/engines.md). A difference where wire accepts
// what llhttp rejects is never expected.

import http from 'node:http'
import net from 'node:net'
import { createWireEngine } from '../../lib/engines/wire/index.js'

const BODY_LIMIT = 1024 * 1024

// The comparison is with the llhttp of the Node running the test, so a
// difference that only one llhttp line shows is expected only under that
// line: a rule written for 9.3 can never excuse a divergence under 9.4.
// llhttp 9.3 (Node 20) answers 400 to HTAB after a Content-Length value and
// reads "close" or "keep-alive" followed by HTAB as no option at all; 9.4
// (Node 22, 24 and 26) reads that HTAB as OWS (RFC 9110 §5.5, §5.6.1), as
// wire does.
const [LLHTTP_MAJOR, LLHTTP_MINOR] = process.versions.llhttp.split('.').map(Number)
export const LLHTTP_9_3 = LLHTTP_MAJOR < 9 || (LLHTTP_MAJOR === 9 && LLHTTP_MINOR < 4)

/**
 * What a server parsed, recorded on the server side per client port, in
 * order, at the moment the parser hands it over: so a later bad request in
 * the same packet cannot hide an earlier good one (node:http drops the
 * answers to earlier pipelined requests when it meets a parse error in the
 * same read; recording here makes the comparison independent of timing).
 * @typedef {{ head: string, body: Buffer[], complete: boolean }} Entry
 */

/** @type {Map<number, Entry[]>} */
const nodeLog = new Map()
/** @type {Map<number, Entry[]>} */
const wireLog = new Map()

/** @param {{ method?: string, url?: string, rawHeaders: string[] }} req */
function headOf (req) {
  return JSON.stringify([req.method, req.url, req.rawHeaders])
}

/** @returns {Promise<{ port: number, close: () => Promise<void> }>} */
export async function startNode () {
  const server = http.createServer({ keepAliveTimeout: 2000 }, (req, res) => {
    /** @type {Entry} */
    const entry = { head: headOf(req), body: [], complete: false }
    nodeLog.get(/** @type {number} */ (req.socket.remotePort))?.push(entry)
    // the parser pushes body chunks and the end synchronously: record them there
    const push = req.push
    req.push = function (chunk, encoding) {
      if (chunk === null) entry.complete = true
      else entry.body.push(Buffer.from(chunk))
      return push.call(this, chunk, encoding)
    }
    req.on('error', () => {})
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-length': 2 })
      res.end('ok')
    })
  })
  server.on('connection', (socket) => nodeLog.set(/** @type {number} */ (socket.remotePort), []))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  return {
    port,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}

/** @returns {Promise<{ port: number, close: () => Promise<void>, engine: any }>} */
export async function startWire (options = {}) {
  const engine = createWireEngine({ keepAliveTimeout: 2000, ...options })
  engine.setHandler((/** @type {any} */ req, /** @type {any} */ res) => {
    /** @type {Entry} */
    const entry = { head: headOf(req), body: [], complete: false }
    wireLog.get(req.conn.socket.remotePort)?.push(entry)
    req.readBody(BODY_LIMIT, (err, body) => {
      if (err) return res.respond(err.statusCode ?? 400, {}, null)
      entry.body.push(/** @type {Buffer} */ (body))
      entry.complete = true
      res.respond(200, {}, 'ok')
    })
  })
  engine.server.on('connection', (socket) => wireLog.set(/** @type {number} */ (socket.remotePort), []))
  const { port } = await engine.listen({ port: 0, host: '127.0.0.1' })
  return { port, engine, close: () => engine.close() }
}

/**
 * Sends bytes, half-closes, and collects every byte until the server closes
 * (or `ms` pass). Returns the parsed responses.
 * @param {number} port
 * @param {Buffer} bytes
 * @param {Map<number, Entry[]>} log
 * @param {number} [ms]
 * @returns {Promise<{ replies: Reply[], entries: Entry[] }>}
 */
export function exchange (port, bytes, log, ms = 3000) {
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const got = []
    /** @type {number | undefined} */
    let local
    const socket = net.connect(port, '127.0.0.1', () => { local = socket.localPort; socket.end(bytes) })
    const timer = setTimeout(() => socket.destroy(), ms)
    socket.on('data', (d) => got.push(d))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const entries = log.get(/** @type {number} */ (local)) ?? []
      log.delete(/** @type {number} */ (local))
      resolve({ replies: parseResponses(Buffer.concat(got)), entries })
    })
  })
}

/**
 * @typedef {{ status: number, body: string }} Reply
 * @param {Buffer} buf
 * @returns {Reply[]}
 */
export function parseResponses (buf) {
  /** @type {Reply[]} */
  const out = []
  const s = buf.toString('latin1')
  let pos = 0
  while (pos < s.length) {
    const end = s.indexOf('\r\n\r\n', pos)
    if (end === -1) break
    const head = s.slice(pos, end)
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head)
    if (!m) break
    const status = Number(m[1])
    const cl = /\r\ncontent-length: *(\d+)/i.exec(head)
    const len = cl ? Number(cl[1]) : 0
    pos = end + 4
    if (status >= 100 && status < 200) continue
    out.push({ status, body: s.slice(pos, pos + len) })
    pos += len
  }
  return out
}

/**
 * What one server did with the bytes: the requests it parsed completely
 * (head and body), ended by 'reject' when it answered 4xx/5xx, or closed
 * before every request was complete.
 * @param {{ replies: Reply[], entries: Entry[] }} got
 * @param {number} expected  requests in the bytes (if all were accepted)
 */
export function outcome (got, expected) {
  /** @type {string[]} */
  const out = []
  for (const e of got.entries) {
    if (!e.complete) break
    out.push(e.head + ' ' + JSON.stringify(Buffer.concat(e.body).toString('latin1')))
  }
  if (got.replies.some(r => r.status >= 400) || out.length < expected) out.push('reject')
  return out
}

/**
 * Places where wire is deliberately stricter than llhttp (as built into
 * Node). Each rule checks the bytes itself, so it can only explain a
 * divergence whose cause is really in the request.
 * @type {{ reason: string, test: (head: string) => boolean }[]}
 */
export const EXPECTED = [
  { reason: 'request-target with HTAB, FF or a byte >= 0x80 (llhttp lenient URL chars; RFC 3986 forbids them)', test: (h) => /[\t\f\x80-\xff]/.test(target(h)) },
  { reason: 'more than one Host field (RFC 9110 §7.2: must be 400)', test: (h) => countHeader(h, 'host') > 1 },
  { reason: 'Host that is not uri-host [":" port] (RFC 9112 §3.2, RFC 3986 §3.2.2; no comma), or empty on HTTP/1.1', test: (h) => hostValues(h).some(v => v === '' ? / HTTP\/1\.1$/.test(firstLine(h)) : !URI_HOST.test(v)) },
  { reason: 'transfer coding other than a lone "chunked" (wire has no decoder for it)', test: (h) => teValues(h).some(v => v.toLowerCase().split(',').map(x => x.trim()).filter(Boolean).length !== 1 || !/^chunked$/i.test(v.trim())) || teValues(h).length > 1 },
  { reason: 'Transfer-Encoding in an HTTP/1.0 request (RFC 9112 §6.1)', test: (h) => / HTTP\/1\.0\r\n/.test(firstLine(h) + '\r\n') && teValues(h).length > 0 },
  { reason: 'more header fields than maxHeaderCount (100)', test: (h) => h.split('\r\n').length - 2 > 100 },
  { reason: 'asterisk-form with a method other than OPTIONS (RFC 9112 §3.2.4)', test: (h) => /^[^ ]+ \* /.test(firstLine(h)) && !/^OPTIONS /.test(firstLine(h)) },
  { reason: 'request-target that is not origin-, absolute- or asterisk-form', test: (h) => !/^[^ ]+ (\/|\*( |$)|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/.test(firstLine(h)) },
  { reason: 'request line whose parts are not separated by exactly one SP, or without HTTP/1.0 or HTTP/1.1 (llhttp takes HTTP/0.9 lines, HTTP/2.0, extra spaces)', test: (h) => !/^[^ ]+ [^ ]+ HTTP\/1\.[01]$/.test(firstLine(h)) },
  { reason: 'chunk-size line (with extensions) longer than maxChunkLineLength (4 KiB)', test: (h, body = '') => /(^|\n)[0-9a-fA-F]+;[^\r\n]{4000,}/.test(body) },
  { reason: 'trailer field that would change framing or routing (Content-Length, Transfer-Encoding, Host)', test: (h, body = '') => /\r\n0[^\r\n]*\r\n(?:[^\r\n]+\r\n)*(content-length|transfer-encoding|host)\s*:/i.test(body) },
  { reason: 'request-target longer than maxUrlLength (8 KiB): 414', test: (h) => (firstLine(h).split(' ')[1] ?? '').length > 8192 }
]

/** @param {string} h */
function target (h) { const l = firstLine(h); return l.slice(l.indexOf(' ') + 1, l.lastIndexOf(' ')) }
/** @param {string} h */
function firstLine (h) { const i = h.indexOf('\r\n'); return i === -1 ? h : h.slice(0, i) }
/** @param {string} h @param {string} name */
function countHeader (h, name) {
  let n = 0
  for (const line of h.split('\r\n').slice(1)) if (line.toLowerCase().startsWith(name + ':')) n++
  return n
}
// RFC 3986 §3.2.2 host (IP-literal by its characters), without ",", and §3.2.3 port
const URI_HOST = /^(?:\[(?:[0-9a-f:.]+|v[0-9a-f]+\.[a-z0-9\-._~!$&'()*+;=:]+)\]|(?:[a-z0-9\-._~!$&'()*+;=]|%[0-9a-f][0-9a-f])+)(?::[0-9]*)?$/i
/** @param {string} h */
function hostValues (h) {
  return h.split('\r\n').slice(1).filter(l => /^host:/i.test(l)).map(l => l.slice(5).replace(/^[ \t]+|[ \t]+$/g, ''))
}
/**
 * A head with a framing field (one `names` matches) whose value has HTAB
 * only in its OWS.
 * @param {string} h
 * @param {RegExp} names
 */
function tabAroundFraming (h, names) {
  return h.split('\r\n').slice(1).some(l => /^(content-length|transfer-encoding):[ \t]*[^ \t](?:[^\t]*[^ \t])?[ \t]*$/i.test(l) && names.test(l.slice(0, l.indexOf(':'))) && l.includes('\t'))
}
/** @param {string} h */
function teValues (h) {
  return h.split('\r\n').slice(1).filter(l => /^transfer-encoding:/i.test(l)).map(l => l.slice(l.indexOf(':') + 1))
}

/**
 * @param {Buffer} bytes
 * @param {string[]} node
 * @param {string[]} wire
 * @returns {{ same: boolean, expected?: string }}
 */
export function compare (bytes, node, wire) {
  if (node.length === wire.length && node.every((v, i) => v === wire[i])) return { same: true }
  // find the first request where they part
  let i = 0
  while (i < node.length && i < wire.length && node[i] === wire[i]) i++
  const s = bytes.toString('latin1')
  const heads = splitHeads(s)
  // llhttp fails a whole read that holds bytes after a request with
  // Connection: close, or an HTTP/1.0 request without keep-alive
  // (HPE_CLOSED_CONNECTION); wire answers that request and ignores the
  // rest, which RFC 9112 §9.6 allows (nothing after it runs).
  const prev = (heads[i - 1] ?? '') + '\r\n'
  // (llhttp 9.3 reads keep-alive only when SP, not HTAB, follows it)
  const keepAlive = LLHTTP_9_3 ? /\r\nconnection:[ \t]*keep-alive *\r\n/i : /\r\nconnection:[ \t]*keep-alive[ \t]*\r\n/i
  const closes = /\r\nconnection:[ \t]*close[ \t]*\r\n/i.test(prev) ||
    (/^[^\r\n]* HTTP\/1\.0\r\n/.test(prev) && !keepAlive.test(prev))
  if (i > 0 && node[i] === 'reject' && wire[i] === undefined && closes) {
    return { same: false, expected: 'bytes after a request with Connection: close: llhttp rejects the read, wire answers the request and drops the rest' }
  }
  // llhttp 9.3 only: "close" followed by HTAB: wire closes the connection
  // after the request, as RFC 9110 §5.6.1 reads the list (OWS is SP or
  // HTAB), where llhttp 9.3 sees no "close" and goes on parsing.
  if (LLHTTP_9_3 && i > 0 && wire[i] === 'reject' && wire.length === i + 1 && node[i] !== 'reject' && /\r\nconnection:(?:[^\r\n]*,)?[ \t]*close *\t[ \t]*(?:,[^\r\n]*)?\r\n/i.test(prev)) {
    return { same: false, expected: 'Connection: close followed by HTAB: wire closes after the request (RFC 9110 §5.6.1), llhttp 9.3 reads no close and goes on' }
  }
  // llhttp 9.3 only: "keep-alive" followed by HTAB on HTTP/1.0: wire keeps
  // the connection and runs the next request (RFC 9110 §5.6.1, as llhttp
  // 9.4 does), where llhttp 9.3 reads no keep-alive and fails the rest of
  // the read.
  if (LLHTTP_9_3 && i > 0 && node[i] === 'reject' && wire[i] !== undefined && wire[i] !== 'reject' &&
    /^[^\r\n]* HTTP\/1\.0\r\n/.test(prev) && /\r\nconnection:(?:[^\r\n]*,)?[ \t]*keep-alive *\t[ \t]*(?:,[^\r\n]*)?\r\n/i.test(prev)) {
    return { same: false, expected: 'HTTP/1.0 with keep-alive followed by HTAB: wire keeps the connection (RFC 9110 §5.6.1), llhttp 9.3 reads no keep-alive and rejects the rest of the read' }
  }
  // HTAB around a Content-Length or Transfer-Encoding value is OWS (RFC
  // 9110 §5.5): wire frames the request by the value without it, where
  // llhttp answers 400: 9.3 (Node 20) to both fields, 9.4 (Node 22 and
  // later) only to Transfer-Encoding (it takes "chunked<HTAB>" for an
  // unknown coding).
  if (node[i] === 'reject' && wire[i] !== undefined && wire[i] !== 'reject' && heads[i] !== undefined && tabAroundFraming(heads[i], LLHTTP_9_3 ? /^(content-length|transfer-encoding)$/i : /^transfer-encoding$/i)) {
    return { same: false, expected: LLHTTP_9_3 ? 'HTAB around a Content-Length or Transfer-Encoding value: OWS (RFC 9110 §5.5), which llhttp 9.3 refuses' : 'HTAB around a Transfer-Encoding value: OWS (RFC 9110 §5.5), which llhttp refuses' }
  }
  // node:http answers an HTTP/1.1 request without Host with 400 from
  // JavaScript, but llhttp goes on parsing the same read and the requests
  // after it reach the handler; on wire nothing after a rejection runs.
  if (wire[i] === 'reject' && node[i] !== 'reject' && heads[i] !== undefined && / HTTP\/1\.1\r\n/.test(heads[i]) && countHeader(heads[i], 'host') === 0) {
    return { same: false, expected: 'requests after an HTTP/1.1 request without Host: node:http still runs them, wire stops at the rejection' }
  }
  if (wire[i] === 'reject' && node[i] !== undefined && node[i] !== 'reject') {
    // wire stricter on request i: explain it from that request's head
    const head = heads[i] ?? s
    const tail = s.slice(s.indexOf(head) + head.length)
    for (const rule of EXPECTED) {
      if (rule.test(head, tail)) return { same: false, expected: rule.reason }
    }
  }
  return { same: false }
}

/** Best-effort split of a byte string into request heads (for explanations only). @param {string} s */
function splitHeads (s) {
  /** @type {string[]} */
  const out = []
  const re = new RegExp('((?:' + http.METHODS.join('|') + '|get|FOO) [^\\r\\n]*\\r\\n(?:[^\\r\\n]*\\r\\n)*?)\\r\\n', 'g')
  let m
  while ((m = re.exec(s)) !== null) out.push(m[1])
  return out
}

/**
 * Runs one case on both servers.
 * @param {{ node: number, wire: number }} ports
 * @param {Buffer} bytes
 * @param {number} [requests]  how many requests the bytes hold if all are accepted
 */
export async function runCase (ports, bytes, requests = 1) {
  const [n, w] = await Promise.all([exchange(ports.node, bytes, nodeLog), exchange(ports.wire, bytes, wireLog)])
  const node = outcome(n, requests)
  const wire = outcome(w, requests)
  return { node, wire, ...compare(bytes, node, wire) }
}
