// Preloaded (--import) into the application's entry by `hotpath check
// --entry`, on Fastify and on hotpath alike: every app the process makes is
// announced on the `fastify.initialization` diagnostics channel (both
// publish it), where this adds an onRoute hook that notes its routes, and
// makes its listen() take a free port on the loopback address (so that the
// runs never collide, nor reach beyond this machine). Once it listens, one
// JSON line (its address and routes) is appended to HOTPATH_CHECK_PROBE.
import diagnostics from 'node:diagnostics_channel'
import { appendFileSync } from 'node:fs'

const out = process.env.HOTPATH_CHECK_PROBE

if (out) {
  diagnostics.subscribe('fastify.initialization', (message) => {
    const app = /** @type {any} */ (message).fastify
    /** @type {{ method: string, url: string }[]} */
    const routes = []
    app.addHook('onRoute', (/** @type {any} */ route) => {
      for (const method of [].concat(route.method)) routes.push({ method, url: route.url })
    })
    const listen = app.listen
    app.listen = function (/** @type {any} */ options, /** @type {any} */ callback) {
      const asked = typeof options === 'object' && options !== null ? options : {}
      const local = asked.path !== undefined ? asked : { ...asked, port: 0, host: '127.0.0.1' }
      const report = () => {
        const address = app.server.address()
        appendFileSync(out, JSON.stringify({ address, asked: { port: asked.port, host: asked.host }, routes }) + '\n')
      }
      if (typeof options === 'function' || typeof callback === 'function') {
        const cb = typeof options === 'function' ? options : callback
        return listen.call(this, local, (/** @type {any} */ err, /** @type {any} */ address) => {
          if (!err) report()
          cb(err, address)
        })
      }
      return listen.call(this, local).then((/** @type {any} */ address) => {
        report()
        return address
      })
    }
  })
}
