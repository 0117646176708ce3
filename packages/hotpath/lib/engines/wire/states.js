// The states of a wire connection that more than one of its files reads:
// what the shared timer checks (the phase, ./timers.js), why reading is
// paused (bit flags; every reason must clear before reading resumes), and
// where the parser is in a message (./parser.js, ./chunked.js).

export const P_HEAD = 0 // waiting for (the rest of) a request head: headersTimeout
export const P_BODY = 1 // waiting for the rest of a body: requestTimeout
export const P_BUSY = 2 // the application has the request: no timeout
export const P_IDLE = 3 // keep-alive, nothing in flight: keepAliveTimeout
export const P_LINGER = 4 // we half-closed; draining what the client still sends

export const PAUSE_PIPELINE = 1 // too many responses owed (./response-queue.js)
export const PAUSE_WRITE = 2 // the socket does not take more (./output.js)
export const PAUSE_BODY = 4 // a body nobody reads yet is over its buffer (./request-body.js)
export const PAUSE_ACCEPT = 8 // held while a draining close() accepts the listener's queue (../close-listener.js)

// The parser's state: a head, a Content-Length body, the parts of a chunked
// body, or dead after a rejection.
export const S_HEAD = 0
export const S_BODY = 1
export const S_CHUNK_SIZE = 2
export const S_CHUNK_DATA = 3
export const S_CHUNK_END = 4
export const S_TRAILERS = 5
export const S_DEAD = 6
