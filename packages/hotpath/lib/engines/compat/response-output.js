// How what node's ServerResponse writes reaches the engine, for the
// compat response (./response.js): node keeps a response's output in
// `outputData` while no socket is its own and reports each part through
// `_onPendingData`; here the parts go to the engine's record: the whole
// response at once (respond(), with its Content-Length) when node made the
// head with a length (end(body) with no head before it), else a stream
// (respondStream()), with backpressure, framed as node frames it: chunked
// after a head without a length (writeHead(), or a write(), before end()).
// Then node's callbacks, its 'finish', and 'close', once the engine
// reports the response written (finishCompat).
import { Readable } from 'node:stream'
import { kNeedDrain, kWritableFinished } from './node-state.js'

/** @typedef {import('./response.js').CompatResponse} CompatResponse */
/** @typedef {import('./response.js').Outgoing} Outgoing */

/** Past this many bytes written in one turn, the body is streamed at once. */
const HELD_LIMIT = 64 * 1024

/**
 * node's `_onPendingData`: it kept a part in outputData. Handed to the
 * engine on this tick's end, after the rest of a write()/end() sequence.
 * @this {Outgoing}
 * @param {number} bytes
 */
export function outputPending (bytes) {
  if (bytes < 0 || this.flushState === 1) return
  // held to the end of the turn, until the parts pass 64 KiB
  if (this.flushState === 2 && this.outputSize < HELD_LIMIT) return
  this.flushState = 1
  process.nextTick(flushOutput, this)
}

/** @param {Outgoing} cres */
function flushOutput (cres) {
  if (cres.flushState === 1) cres.flushState = 0
  const res = cres.res
  if (cres.ended || cres.destroyed || (res.headersSent && !res.throughCompat)) {
    // nowhere to go: the response was answered past this object, or cut
    // off; node's callbacks are not called, as for a socket gone
    cres.outputData = []
    cres.outputSize = 0
    return
  }
  if (cres.outlet !== null) {
    moveOutput(cres)
    return
  }
  if (!cres.finished && !cres.announcesTrailers && !cres.headFlushed && !cres.framedChunked) {
    // Parts written without end() under a head that has a length
    // (setHeader('content-length') before the first write): held to the
    // end of this turn, so that they go out whole, in one write. What
    // comes later, or past 64 KiB, is streamed.
    if (cres.outputSize < HELD_LIMIT) {
      if (cres.flushState !== 2) {
        cres.flushState = 2
        setImmediate(openHeld, cres)
      }
      return
    }
  }
  // (a head flushed is out before the end: the body is streamed, as
  // node's is then)
  if (cres.finished && !cres.announcesTrailers && !cres.headFlushed && !cres.framedChunked) respondWhole(cres)
  else openOutlet(cres)
}

/**
 * The turn in which parts were written has ended.
 * @param {Outgoing} cres
 */
function openHeld (cres) {
  cres.flushState = 0
  if (cres.outlet !== null || cres.ended || cres.destroyed) return
  if (cres.finished && !cres.announcesTrailers && !cres.framedChunked) respondWhole(cres)
  else openOutlet(cres)
}

/**
 * The body parts in outputData, taken from it; node's callbacks collected
 * in `callbacks`.
 * @param {Outgoing} cres
 * @param {Function[]} callbacks
 * @returns {Buffer[]}
 */
function takeOutput (cres, callbacks) {
  const entries = cres.outputData
  cres.outputData = []
  cres.outputSize = 0
  /** @type {Buffer[]} */
  const parts = []
  for (const entry of entries) {
    let data = entry.data
    if (!cres.headTaken && cres._header !== null) {
      // node's first part begins with the head (or is the head alone):
      // the engine makes its own from engineHead
      cres.headTaken = true
      if (data === cres._header) data = ''
      else if (typeof data === 'string') data = data.slice(cres._header.length)
    }
    if (typeof entry.callback === 'function') callbacks.push(entry.callback)
    if (data.length === 0) continue
    parts.push(typeof data === 'string' ? Buffer.from(data, entry.encoding ?? 'utf8') : Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength))
  }
  return parts
}

/**
 * end() came in the turn the parts were written: the whole response goes
 * to the engine at once, with its Content-Length, as one socket write.
 * @param {Outgoing} cres
 */
function respondWhole (cres) {
  /** @type {Function[]} */
  const callbacks = []
  const parts = takeOutput(cres, callbacks)
  cres.heldCallbacks = callbacks
  const res = cres.res
  res.throughCompat = true
  res.extraHeaders = null
  const body = parts.length === 0 ? null : parts.length === 1 ? parts[0] : Buffer.concat(parts)
  res.respond(cres.statusCode, cres.engineHead ?? {}, body)
}

/**
 * The body is written in parts: the engine streams it from here on, with
 * backpressure: node's outputSize counts what the engine has not taken.
 * @param {Outgoing} cres
 */
function openOutlet (cres) {
  const outlet = cres.outlet = new Readable({
    read () {
      cres.outputSize = outlet.readableLength
      if (cres[kNeedDrain] === true && !cres.finished) {
        cres[kNeedDrain] = false
        cres.emit('drain')
      }
    }
  })
  const res = cres.res
  res.throughCompat = true
  res.extraHeaders = null
  // node calls its 'finish' on the next tick when end() has nothing left
  // to write: the body ends then
  cres.once('finish', () => endOutlet(cres))
  const trailers = cres.announcesTrailers ? (/** @type {(fields: Record<string, string>) => void} */ send) => send(trailerFields(cres)) : null
  res.respondStream(cres.statusCode, cres.engineHead ?? {}, outlet, (err) => {
    if (err !== null && !cres.ended) cres.destroy()
  }, trailers)
  if (cres.headFlushed && typeof res.flushHead === 'function') res.flushHead()
  moveOutput(cres)
}

/** @param {Outgoing} cres */
function moveOutput (cres) {
  const outlet = /** @type {Readable} */ (cres.outlet)
  /** @type {Function[]} */
  const callbacks = []
  for (const part of takeOutput(cres, callbacks)) if (!outlet.destroyed) outlet.push(part)
  cres.outputSize = outlet.readableLength
  if (cres.finished) {
    // end()'s callback, node's 'finish', waits for the engine
    cres.heldCallbacks = callbacks
    endOutlet(cres)
  } else {
    for (const callback of callbacks) process.nextTick(call, cres, callback)
  }
}

/** @param {Outgoing} cres */
function endOutlet (cres) {
  const outlet = cres.outlet
  if (outlet !== null && !outlet.readableEnded && !outlet.destroyed) outlet.push(null)
}

/**
 * node keeps addTrailers()'s fields as the lines it would write.
 * @param {Outgoing} cres
 * @returns {Record<string, string>}
 */
function trailerFields (cres) {
  /** @type {Record<string, string>} */
  const fields = {}
  for (const line of String(cres._trailer ?? '').split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim()
  }
  return fields
}

/** @param {Outgoing} cres */
export function emitClose (cres) {
  if (cres._closed) return
  cres._closed = true
  cres.emit('close')
}

/**
 * Runs user code from the engine's side (a listener, a write callback):
 * what it throws is that request's error, logged, and never reaches the
 * connection code or the process.
 * @param {CompatResponse} cres
 * @param {Function} fn
 * @param {...any} args
 */
export function call (cres, fn, ...args) {
  try {
    fn.apply(cres, args)
  } catch (err) {
    cres.log.error({ err }, 'a middleware callback threw')
  }
}

/**
 * Called by the engine when the response is done (err null) or the
 * connection died: node's callbacks for the last parts (its 'finish'),
 * then 'close'. A response the core wrote past this object finishes here.
 * @param {CompatResponse} cres
 * @param {Error | null} err
 */
export function finishCompat (cres, err) {
  return finished(/** @type {Outgoing} */ (cres), err)
}

/**
 * @param {Outgoing} cres
 * @param {Error | null} err
 */
function finished (cres, err) {
  if (cres.ended) return
  cres.ended = true
  if (err === null) {
    // not in the engine's call: node's 'finish' comes after the socket
    // write, so code that sent the reply and then listens for 'finish'
    // (`reply.send(x); await once(reply.raw, 'finish')`) hears it
    // one the core wrote past this object ends now, as end() ends node's
    const owed = cres.heldCallbacks === null && !cres.finished
    if (owed) cres.finished = true
    process.nextTick(written, cres, owed)
  } else {
    cres.heldCallbacks = null
    const outlet = cres.outlet
    if (outlet !== null && !outlet.destroyed) outlet.destroy()
    cres.destroyed = true
    emitClose(cres)
  }
}

/**
 * The response is written: node's callbacks for its last parts (its
 * 'finish' among them), or 'finish' for one the core wrote past this
 * object (`owed`); then 'close'.
 * @param {Outgoing} cres
 * @param {boolean} owed
 */
function written (cres, owed) {
  const callbacks = cres.heldCallbacks
  cres.heldCallbacks = null
  if (callbacks !== null) {
    for (const callback of callbacks) call(cres, callback)
  } else if (owed) {
    if (kWritableFinished !== undefined) cres[kWritableFinished] = true
    cres.emit('finish')
  }
  emitClose(cres)
}
