// trustProxy and forwarded lists: X-Forwarded-Host and X-Forwarded-Proto
// are read by their last member, the one the nearest (trusted) proxy added,
// as Fastify reads them: the first is whatever the client sent, and a
// client that sends `X-Forwarded-Host: evil.example` through a proxy that
// appends gets nothing from it. request.port is the port the host names,
// null when the forwarded host names none (not the Host header's, the port
// of the hop before this server). A trusted X-Forwarded-Proto wins over the
// socket's own TLS, as in Fastify. Compared with Fastify through inject()
// and over a socket on each HTTP/1.1 engine.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { besideFastify } from '../helpers/beside-fastify.js'

/** @param {any} app */
function build (app) {
  app.get('/where', (/** @type {any} */ req) => ({ host: req.host, hostname: req.hostname, port: req.port, protocol: req.protocol }))
}

const at = { host: 'origin.example:3000' }
const REQUESTS = [
  { url: '/where', headers: at },
  { url: '/where', headers: { ...at, 'x-forwarded-host': 'public.example' } },
  { url: '/where', headers: { ...at, 'x-forwarded-host': 'evil.example, public.example:8443', 'x-forwarded-proto': 'http, https' } },
  { url: '/where', headers: { ...at, 'x-forwarded-host': 'public.example , ', 'x-forwarded-proto': 'HTTPS' } },
  { url: '/where', headers: { ...at, 'x-forwarded-host': '[::1]:8080' } }
]

for (const [label, trustProxy] of /** @type {const} */ ([['trustProxy: true', true], ['trustProxy: a list naming the peer', ['127.0.0.1', '::1', '::ffff:127.0.0.1']], ['no trustProxy', undefined]])) {
  test(`forwarded lists, ${label}, as on Fastify`, async () => {
    const answers = await besideFastify(build, REQUESTS, { options: trustProxy === undefined ? {} : { trustProxy } })
    for (const { what, fastify, hotpath } of answers) {
      const theirs = JSON.parse(fastify.body)
      // (hotpath writes the scheme in lower case, RFC 9110 §4.2.3; Fastify as sent)
      theirs.protocol = theirs.protocol.toLowerCase()
      assert.deepEqual(JSON.parse(hotpath.body), theirs, what)
    }
    if (trustProxy === true) {
      const wire = answers.filter((a) => a.mode === 'wire').map((a) => JSON.parse(a.hotpath.body))
      assert.deepEqual(wire[2], { host: 'public.example:8443', hostname: 'public.example', port: 8443, protocol: 'https' })
      assert.deepEqual(wire[1], { host: 'public.example', hostname: 'public.example', port: null, protocol: 'http' })
    }
  })
}
