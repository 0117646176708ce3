// node:http, taken from its CommonJS module, never `import`ed. On Node 22
// and later an `import` of node:http builds its ESM facade, which reads
// every export, among them the lazy WebSocket, CloseEvent and MessageEvent
// getters: they load undici, and with it node:tls, node:crypto, node:http2
// and node:zlib (on Node 22, a hello app once ready: 70 MiB resident, 63
// without them; a bare import of node:http 45-130 ms on the 2-core VM,
// against 3-12 ms for this module's). process.getBuiltinModule() returns the
// module's exports object itself (the one require() returns, and the one
// instrumentation patches), and reads none of its getters.
// test/lazy-deps.test.js checks an app without HTTPS loads no node:tls;
// test/imports.test.js keeps `import ... from 'node:http'` out of lib/.

const http = /** @type {typeof import('node:http')} */ (process.getBuiltinModule('node:http'))

export default http
export const { METHODS, STATUS_CODES, IncomingMessage, ServerResponse, Server, validateHeaderName, validateHeaderValue } = http
