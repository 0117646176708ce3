// onRequestAbort in each entry's form: hotpath's (req, reply), and
// Fastify's (request, done) under errorFormat 'fastify', where a hook that
// calls done() lets the next one run and throws nothing.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { eachMode, setup, LISTENING_MODES } from '../helpers/engines.js'

/** @param {() => boolean} cond */
async function waitFor (cond, ms = 5000) {
  for (let waited = 0; !cond() && waited < ms; waited += 10) await sleep(10)
  return cond()
}

/**
 * A request written by hand on a connection of its own; leaving closes it.
 * @param {number} port
 * @param {string} bytes
 */
function rawLeaving (port, bytes) {
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.write(bytes)
  return { leave: () => socket.destroy() }
}

for (const errorFormat of ['hotpath', 'fastify']) {
  eachMode(`onRequestAbort with errorFormat '${errorFormat}'`, (mode) => {
    /** @type {Awaited<ReturnType<typeof setup>>} */
    let s
    const state = { seen: 0, /** @type {string[]} */ calls: [], /** @type {unknown[]} */ errors: [] }
    before(async () => {
      s = await setup(mode, (app) => {
        app.addHook('onRequest', async () => { state.seen++ })
        if (errorFormat === 'fastify') {
          app.addHook('onRequestAbort', (req, done) => {
            state.calls.push(`first ${typeof req.url} ${typeof done}`) // done, not the reply
            try { done() } catch (err) { state.errors.push(err) }
          })
        } else {
          app.addHook('onRequestAbort', (req, reply) => {
            state.calls.push(`first ${typeof req.url} ${typeof reply}`) // the reply
          })
        }
        app.addHook('onRequestAbort', async () => { state.calls.push('second') })
        app.get('/hang', () => new Promise(() => {}))
      }, { errorFormat, requestTimeout: 2000 })
    })
    after(() => s.close())

    test('the client leaves: each hook runs once, in order, with its own arguments', async () => {
      const seen = state.seen
      // HTTP/1.1: the client closes its connection; HTTP/2: it resets the stream
      const leaving = s.h2 !== null ? s.h2.start({ url: '/hang' }) : rawLeaving(s.port, 'GET /hang HTTP/1.1\r\nHost: x\r\n\r\n')
      assert.ok(await waitFor(() => state.seen === seen + 1), 'the request reached the server')
      leaving.leave()
      assert.ok(await waitFor(() => state.calls.length === 2), `hooks ran: ${state.calls.join(', ')}`)
      assert.deepEqual(state.calls, [errorFormat === 'fastify' ? 'first string function' : 'first string object', 'second'])
      assert.deepEqual(state.errors, [])
    })
  }, LISTENING_MODES)
}
