// Trailer fields (RFC 9110 §6.5): fields computed after the body, sent after
// the last chunk of a chunked response (RFC 9112 §7.1.2). A reply declares
// them with reply.trailer(name, fn); only such a reply pays anything here.

/** @typedef {import('./reply.js').Reply} Reply */
/**
 * A trailer's value: by callback, or as what its promise resolves to.
 * @typedef {(reply: Reply, payload: unknown, done: (err: unknown, value?: string) => void) => unknown} TrailerFn
 */

/**
 * Fields a recipient may not take from a trailer section: those that frame
 * the message, route it, authenticate it, control caches or describe its
 * content (RFC 9110 §6.5.1), and Trailer itself.
 */
export const FORBIDDEN_TRAILERS = new Set([
  'transfer-encoding', 'content-length', 'host', 'cache-control', 'max-forwards', 'te',
  'authorization', 'set-cookie', 'content-encoding', 'content-type', 'content-range', 'trailer'
])

/**
 * The value of the Trailer header announcing the declared trailers (names
 * separated by a space, as Fastify writes them), or '' when all were removed.
 * @param {Record<string, TrailerFn | undefined>} trailers
 */
export function trailerHeader (trailers) {
  let names = ''
  for (const name in trailers) {
    if (typeof trailers[name] === 'function') names += names === '' ? name : ' ' + name
  }
  return names
}

/**
 * The function the engine calls once the body's last byte is out: it runs
 * each trailer still declared then (one removed meanwhile is skipped), and
 * hands the engine the fields once all have answered. A trailer that fails
 * is left out (logged at debug level); the first answer of each counts.
 * @param {Reply} reply
 * @param {unknown} payload  the body as sent (null for a stream)
 * @returns {(send: (fields: Record<string, string>) => void) => void}
 */
export function trailerSource (reply, payload) {
  return (send) => {
    const trailers = reply._trailers ?? {}
    /** @type {Record<string, string>} */
    const fields = {}
    let pending = 0
    let sent = false
    const finish = () => {
      if (pending === 0 && !sent) {
        sent = true
        send(fields)
      }
    }
    for (const name of Object.keys(trailers)) {
      const fn = trailers[name]
      if (typeof fn !== 'function') continue
      pending++
      let answered = false
      /**
       * @param {unknown} err
       * @param {unknown} [value]
       */
      const done = (err, value) => {
        if (answered) return
        answered = true
        pending--
        if (err) reply.request.log.debug({ err }, `trailer '${name}' failed; it is left out`)
        else if (value !== undefined && value !== null) fields[name] = String(value)
        // the others called synchronously have all been counted by then
        process.nextTick(finish)
      }
      let result
      try {
        result = fn(reply, payload, done)
      } catch (err) {
        done(err)
        continue
      }
      if (result !== null && typeof result === 'object' && typeof (/** @type {any} */ (result)).then === 'function') {
        (/** @type {PromiseLike<unknown>} */ (result)).then((value) => done(null, value), done)
      }
    }
    if (pending === 0) finish()
  }
}
