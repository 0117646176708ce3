// Ending a response's source stream before its end (the client left, the
// head alone is sent, the stream ran past its length): destroy() as a
// Readable has it, else close() or abort(), as older stream-like objects
// (a request, a pre-Streams3 file stream) end themselves.

/** @param {any} stream */
export function endSource (stream) {
  if (typeof stream.destroy === 'function') stream.destroy()
  else if (typeof stream.close === 'function') stream.close(noop)
  else if (typeof stream.abort === 'function') stream.abort()
}

function noop () {}
