// The states of a wire connection that more than one of its files reads:
// what the shared timer checks (the phase, ./timers.js), and why reading is
// paused (bit flags; every reason must clear before reading resumes).

export const P_HEAD = 0 // waiting for (the rest of) a request head: headersTimeout
export const P_BODY = 1 // waiting for the rest of a body: requestTimeout
export const P_BUSY = 2 // the application has the request: no timeout
export const P_IDLE = 3 // keep-alive, nothing in flight: keepAliveTimeout
export const P_LINGER = 4 // we half-closed; draining what the client still sends

export const PAUSE_PIPELINE = 1 // too many responses owed (./response-queue.js)
export const PAUSE_WRITE = 2 // the socket does not take more (./output.js)
export const PAUSE_BODY = 4 // a body nobody reads yet is over its buffer (./request-body.js)
