// Helpers for raw-socket tests of the wire engine: a server with a tiny
// handler, and a client that sends exact bytes and reads exact bytes.

import net from 'node:net'
import { once } from 'node:events'
import { createWireEngine } from '../../lib/engines/wire/index.js'

/**
 * @param {Record<string, any>} options
 * @param {(engine: any, req: any, res: any) => void} handler
 */
export async function serve (options, handler) {
  const engine = createWireEngine(options)
  const calls = { count: 0, urls: /** @type {string[]} */ ([]) }
  engine.setHandler((/** @type {any} */ req, /** @type {any} */ res) => {
    calls.count++
    calls.urls.push(req.url)
    handler(engine, req, res)
  })
  const { port } = await engine.listen({ port: 0, host: '127.0.0.1' })
  return { engine, port, calls, close: () => engine.close() }
}

/** A handler that answers with what it parsed (reading the body first). */
/** @param {any} engine @param {any} req @param {any} res */
export function echo (engine, req, res) {
  req.readBody(1024 * 1024, (/** @type {any} */ err, /** @type {Buffer} */ body) => {
    if (err) return res.respond(err.statusCode, { 'content-type': 'application/json' }, JSON.stringify({ code: err.code }))
    res.respond(200, { 'content-type': 'text/plain' }, `${req.method} ${req.url} ${body.toString('latin1')}`)
  })
}

/**
 * Sends `bytes` (a string is latin1) and resolves with everything the
 * server sent until it closed the connection (or `ms` passed): the last
 * request should ask for Connection: close.
 * @param {number} port
 * @param {string | Buffer | (string | Buffer)[]} bytes  an array is written piece by piece
 * @param {{ end?: boolean, ms?: number, gap?: number }} [opts]
 */
export async function exchange (port, bytes, opts = {}) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  /** @type {Buffer[]} */
  const got = []
  socket.on('data', (d) => got.push(d))
  socket.on('error', () => {})
  const closed = once(socket, 'close')
  let expired = false
  const timer = setTimeout(() => { expired = true; socket.destroy() }, opts.ms ?? 5000)
  const pieces = Array.isArray(bytes) ? bytes : [bytes]
  for (const p of pieces) {
    if (socket.destroyed) break
    socket.write(typeof p === 'string' ? Buffer.from(p, 'latin1') : p)
    if (opts.gap) await new Promise((resolve) => setTimeout(resolve, opts.gap))
  }
  // FIN means "gone" to the server (as on node:http): only when asked for
  if (opts.end === true && !socket.destroyed) socket.end()
  await closed
  clearTimeout(timer)
  return { text: Buffer.concat(got).toString('latin1'), timedOut: !socket.readableEnded && got.length === 0, closedByServer: !expired }
}

/**
 * Splits a byte stream of responses.
 * @param {string} text
 */
export function responses (text) {
  /** @type {{ status: number, head: string, body: string }[]} */
  const out = []
  let pos = 0
  while (pos < text.length) {
    const end = text.indexOf('\r\n\r\n', pos)
    if (end === -1) break
    const head = text.slice(pos, end)
    const status = Number(head.slice(9, 12))
    const cl = /\r\ncontent-length: *(\d+)/i.exec(head)
    let body = ''
    pos = end + 4
    if (/\r\ntransfer-encoding: chunked/i.test(head)) {
      for (;;) {
        const e = text.indexOf('\r\n', pos)
        const size = parseInt(text.slice(pos, e), 16)
        pos = e + 2
        if (size === 0) { pos += 2; break }
        body += text.slice(pos, pos + size)
        pos += size + 2
      }
    } else if (cl && status !== 304 && status !== 204 && !/^HTTP\/1\.1 1/.test(head)) {
      body = text.slice(pos, pos + Number(cl[1]))
      pos += body.length
    } else if (!cl && !/^HTTP\/1\.1 (1|204|304)/.test(head)) {
      body = text.slice(pos)
      pos = text.length
    }
    out.push({ status, head, body })
  }
  return out
}
