// Reads a body stream (from a preParsing hook) into one Buffer, bounded by a
// limit: past it, the stream is destroyed and the caller gets a 413 without
// the rest being buffered. At its end, the bytes the client sent are held
// against the Content-Length the caller gives, as Fastify's reader does: the
// stream's own count (a preParsing hook's decompressor keeps it in
// `receivedEncodedLength`, Fastify's name) or else the bytes read.
import { createError } from '../../errors.js'

/**
 * @param {import('node:stream').Readable & { receivedEncodedLength?: number }} stream
 * @param {number} limit
 * @param {number} declared  the request's Content-Length (NaN: none)
 * @param {(err: any, body?: Buffer) => void} done  called exactly once
 */
export function readStream (stream, limit, declared, done) {
  /** @type {Buffer[]} */
  let chunks = []
  let received = 0
  let finished = false
  /** @param {any} err @param {Buffer} [body] */
  const finish = (err, body) => {
    if (finished) return
    finished = true
    stream.removeListener('data', onData)
    done(err, body)
  }
  /** @param {Buffer | string} chunk */
  const onData = (chunk) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    received += buf.length
    // (the encoded count too: a broken stream's, as Fastify bounds it)
    if (received > limit || (stream.receivedEncodedLength ?? 0) > limit) {
      chunks = []
      finish(createError('HP_ERR_BODY_TOO_LARGE', limit))
      stream.pause()
      return
    }
    chunks.push(buf)
  }
  // destroyed before anyone read it (the client left while an async
  // preParsing hook was running): its 'close' has already been emitted
  if (stream.destroyed) {
    done(streamError(stream.errored))
    return
  }
  stream.on('data', onData)
  stream.once('end', () => {
    if (!Number.isNaN(declared) && (stream.receivedEncodedLength || received) !== declared) finish(createError('HP_ERR_INVALID_CONTENT_LENGTH'))
    else finish(null, Buffer.concat(chunks, received))
  })
  stream.once('error', (/** @type {Error} */ err) => finish(streamError(err)))
  stream.once('close', () => finish(createError('HP_ERR_REQUEST_ABORTED')))
  // a 'data' listener does not start a stream its maker paused (a
  // decompressor handed back paused by a preParsing hook); Fastify's reader
  // resumes it too
  stream.resume()
}

/**
 * An error with an error status (413, a 400 for broken framing, 408) keeps
 * it; anything else on a request body means the client went away (the
 * stream's own error, if any, as the cause).
 * @param {any} err
 */
function streamError (err) {
  if (err !== null && err !== undefined && typeof err.statusCode === 'number' && err.statusCode >= 400) return err
  const aborted = createError('HP_ERR_REQUEST_ABORTED')
  if (err !== null && err !== undefined) aborted.cause = err
  return aborted
}
