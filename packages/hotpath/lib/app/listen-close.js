// listen(): the server started on the engine once the app is ready, the
// addresses it listens at logged, the onListen hooks started, an
// AbortSignal that closes the app; addresses(); close(), on boot.js's
// doClose; and Fastify's callback forms of listen and close.
import { runOnListen, doClose } from './boot.js'
import { settleTo } from './callbacks.js'
import { invalidListenOption } from './listen-options.js'
import { networkInterfaces } from 'node:os'
import { warnAsFastify } from '../fastify-warnings.js'

/** @typedef {import('./hotpath.js').Hotpath} Hotpath */

// setImmediate as it was when hotpath was loaded: a test that fakes the
// timers (sinon's FakeTimers replaces setImmediate) must not hold listen().
const nextTurn = globalThis.setImmediate

/**
 * A promise of the address; given a callback (Fastify's listen(opts, cb)
 * or listen(cb)), callback(err, address) instead, with a null address on
 * failure. An AbortSignal in `signal` closes the app when it aborts; one
 * aborted before the server listens resolves undefined (the callback is
 * not called) and the server never listens.
 * @param {Hotpath} app
 * @param {ListenOptions | ((err: Error | null, address?: string | null) => void)} opts
 * @param {(err: Error | null, address?: string | null) => void} [callback]
 * @returns {Promise<string | undefined>}
 */
export function listen (app, opts, callback) {
  if (typeof opts === 'function') {
    callback = opts
    opts = {}
  }
  if (typeof callback === 'function' && callback.constructor.name === 'AsyncFunction') warnAsFastify(app._core, 'FSTWRN003', 'listen method')
  const signal = opts !== null && typeof opts === 'object' ? opts.signal : undefined
  /** @type {{ aborted: boolean }} */
  const state = { aborted: false }
  if (signal !== undefined && signal !== null) {
    if (typeof signal.addEventListener !== 'function' && typeof (/** @type {any} */ (signal).on) !== 'function') {
      throw app._core.error('HP_ERR_INVALID_LISTEN_OPTION', 'Invalid options.signal')
    }
    if (signal.aborted) {
      state.aborted = true
      return app.close().then(() => undefined)
    }
    signal.addEventListener('abort', () => {
      state.aborted = true
      app.close()
    }, { once: true })
  }
  const listening = app._listen(opts, state)
  if (typeof callback === 'function') {
    const cb = callback
    listening.then(
      // closed (or aborted) before the server listened: nothing listens,
      // and the callback is not called, as Fastify does not call it
      (address) => { if (address !== undefined) process.nextTick(() => cb.call(app, null, address)) },
      (err) => process.nextTick(() => cb.call(app, err, null))
    )
  }
  return listening
}

/**
 * What app._listen() does: listen() once its signal is handled.
 * @param {Hotpath} app
 * @param {ListenOptions} opts
 * @param {{ aborted: boolean }} state
 */
export async function listenNow (app, opts, state) {
  const core = app._core
  if (core.closePromise !== null) throw core.error('HP_ERR_CLOSED')
  if (core.address !== null || core.listening) throw core.error('HP_ERR_ALREADY_LISTENING')
  const invalid = invalidListenOption(opts)
  if (invalid !== null) throw core.error('HP_ERR_INVALID_LISTEN_OPTION', invalid)
  core.listening = true
  try {
    await /** @type {Promise<unknown>} */ (app.ready())
    // aborted while the plugins loaded: the app is closing, nothing listens
    if (state.aborted || core.closePromise !== null) return undefined
    const engine = /** @type {import('../engines/engine.js').Engine} */ (core.engine)
    const address = await engine.listen(opts)
    // Fastify, on 'localhost' (its default host), looks the name up once
    // more when bound, to bind its other addresses: its listen() answers a
    // turn of the event loop later, after what plugins queued with
    // setImmediate while they loaded (Fastify's own plugin tests count on
    // it). The boot takes no turn (boot.js), so this one is taken here.
    if (opts.fd == null && opts.path == null && (opts.host ?? 'localhost') === 'localhost') await new Promise((resolve) => nextTurn(resolve))
    core.address = address
    const urls = listenUrls(address, core.engineOptions.https ? 'https' : 'http')
    for (const url of urls) app.log.info(typeof opts.listenTextResolver === 'function' ? opts.listenTextResolver(url) : `Server listening at ${url}`)
    const url = urls[0]
    // started, not waited for: an onListen hook does not hold listen(), and
    // its failure is logged, as in Fastify
    runOnListen(core)
    core.backgroundCompile.start()
    return url
  } catch (err) {
    if (core.address === null) core.listening = false
    throw err
  }
}

/**
 * The addresses the server listens at: none before listen() or once closed.
 * @param {Hotpath} app
 */
export function addresses (app) {
  const server = /** @type {any} */ (app._core.engine?.server)
  if (server == null || !server.listening) return []
  const address = server.address()
  return address == null ? [] : [address]
}

/**
 * A promise of the end of close(); given a callback, callback(err?) too,
 * as Fastify's close(cb).
 * @param {Hotpath} app
 * @param {(err?: Error) => void} [callback]
 * @returns {Promise<void>}
 */
export function close (app, callback) {
  const core = app._core
  if (core.closePromise === null) {
    core.draining = core.drainDelay !== null && core.drainDelay > 0
    core.closePromise = doClose(core)
  }
  if (typeof callback === 'function') settleTo(core.closePromise, callback, app, false)
  return core.closePromise
}

/**
 * The URLs listen() reports, the first one its result: a server on every
 * IPv4 address (0.0.0.0) is reached at each of the machine's IPv4
 * addresses, the loopback ones first, as Fastify reports them; any other
 * address, or a socket path, as it is.
 * @param {import('node:net').AddressInfo | string} address
 * @param {string} scheme
 * @returns {string[]}
 */
function listenUrls (address, scheme) {
  if (typeof address === 'string') return [address]
  if (address.family === 'IPv6') return [`${scheme}://[${address.address}]:${address.port}`]
  const hosts = address.address === '0.0.0.0'
    ? Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((i) => i.family === 'IPv4')).sort((a, b) => Number(b.internal) - Number(a.internal)).map((i) => i.address)
    : []
  if (hosts.length === 0) hosts.push(address.address)
  return hosts.map((host) => `${scheme}://${host}:${address.port}`)
}

/**
 * node:net's listen options (../engines/engine.js ListenOptions), and:
 * @typedef {import('../engines/engine.js').ListenOptions & {
 *   signal?: AbortSignal,
 *   listenTextResolver?: (address: string) => string
 * }} ListenOptions
 *   signal: closes the app when it aborts; listenTextResolver: the text
 *   logged once listening
 */
