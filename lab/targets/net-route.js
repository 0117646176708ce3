// Two steps up from the floor (net-canned.js), to tell where a framework's
// time over the floor goes. `net-route` does the least any server that
// routes and serializes must do, and no HTTP parsing: it finds each head by
// its blank line, cuts the request-target between the first two spaces,
// looks the route up in a Map, serializes the handler's object with
// JSON.stringify and builds the head as a string, the same bytes as
// hotpath's, one write per read. `net-parsed` (LAB_PARSER=hotpath) is the
// same with hotpath's own HTTP/1.1 parser (lib/engines/wire/parser.js) in
// place of the cut: the parser's cost. What hotpath's wire engine spends
// beyond `net-parsed` is the framework: its request and reply, the
// lifecycle, the response queue. Like the floor, they answer hello only.

import net from 'node:net'
import { kind, port, host, unsupported, ready } from './common.js'

if (kind !== 'hello') unsupported('the routed floor answers only hello (and hello pipelined)')

const routes = new Map([['/', () => ({ hello: 'world' })]])
const KEEP_ALIVE = 'Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n'

let dateLine = ''
// The Date header changes once a second, as every other target's does.
function refreshDate () { dateLine = `Date: ${new Date().toUTCString()}\r\n` }
refreshDate()
setInterval(refreshDate, 1000).unref()

// --floor-work N (LAB_FLOOR_WORK): a loop of N iterations on each request,
// a fixed amount of work the server does for nothing, so that the step can
// be timed at a slower server's throughput (lab/runner/run.js, withFloorWork)
const FLOOR_WORK = Number(process.env.LAB_FLOOR_WORK || 0)
let workDone = 0

/** @param {string} url */
function answer (url) {
  for (let i = 0; i < FLOOR_WORK; i++) workDone = (workDone * 31 + i) | 0
  const handler = routes.get(url)
  if (handler === undefined) return 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n' + dateLine + KEEP_ALIVE
  const body = JSON.stringify(handler())
  return 'HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ' + body.length + '\r\n' + dateLine + KEEP_ALIVE + body
}

const END = '\r\n\r\n'
/** the start of a request head split across reads, kept on its socket only while it waits */
const kPending = Symbol('pending')

/**
 * net-route: heads by their blank line, the target between two spaces.
 * @this {net.Socket & { [kPending]?: string }}
 * @param {Buffer} chunk
 */
function onCutData (chunk) {
  const pending = this[kPending]
  const text = pending === undefined ? chunk.toString('latin1') : pending + chunk.toString('latin1')
  let out = ''
  let from = 0
  for (let end = text.indexOf(END, from); end !== -1; end = text.indexOf(END, from)) {
    const sp = text.indexOf(' ', from)
    out += answer(text.slice(sp + 1, text.indexOf(' ', sp + 1)))
    from = end + END.length
  }
  if (from < text.length) this[kPending] = text.slice(from)
  else if (pending !== undefined) delete this[kPending]
  if (out !== '') this.write(out, 'latin1')
}

/** @this {net.Socket} */
function onError () { this.destroy() }

/** net-parsed: hotpath's parser, whose sink collects the answers of one read. */
async function parsedConnections () {
  // the hotpath package the lab times (a --baseline-hotpath twin's own)
  const entry = process.env.LAB_HOTPATH_ENTRY || import.meta.resolve('hotpath')
  const { Parser } = await import(new URL('./engines/wire/parser.js', entry).href)
  const { resolveLimits } = await import(new URL('./engines/wire/limits.js', entry).href)
  const limits = resolveLimits({})
  class Sink {
    /** @param {net.Socket} socket */
    constructor (socket) {
      this.socket = socket
      this.out = ''
      this.stopped = false
    }

    onHeadStart () {}
    /** @param {{ url: string }} req */
    onRequest (req) { this.out += answer(req.url) }
    onBody () {}
    onComplete () {}
    onError () { this.socket.destroy() }
  }
  return (/** @type {net.Socket} */ socket) => {
    const sink = new Sink(socket)
    const parser = new Parser(sink, null, limits)
    socket.on('data', (chunk) => {
      parser.execute(chunk)
      if (sink.out !== '') {
        socket.write(sink.out, 'latin1')
        sink.out = ''
      }
    })
    socket.on('error', onError)
  }
}

const onConnection = process.env.LAB_PARSER === 'hotpath'
  ? await parsedConnections()
  : (/** @type {net.Socket} */ socket) => {
      socket.on('data', onCutData)
      socket.on('error', onError)
    }

net.createServer({ noDelay: true }, onConnection).listen(port, host, () => ready(process.env.LAB_PARSER === 'hotpath' ? 'net-parsed' : 'net-route'))
